package session

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"strings"
)

// minScrub is the shortest secret value scrubbed from free text. Shorter
// values are still replaced where they are known to stand (target, headers,
// environment), but searching every frame for a two-letter string would
// mangle the record.
const minScrub = 4

// Redactor replaces secret values by their name and a short SHA-256 digest,
// so a record shows which secret was used without holding it.
type Redactor struct {
	secrets []secret
}

type secret struct {
	value       string
	placeholder string
}

// Placeholder is the text that stands for a secret value named name.
func Placeholder(name, value string) string {
	sum := sha256.Sum256([]byte(value))
	return "[REDACTED:" + name + ":sha256=" + hex.EncodeToString(sum[:4]) + "]"
}

// Add registers value as a secret named name and returns its placeholder.
func (r *Redactor) Add(name, value string) string {
	p := Placeholder(name, value)
	if value == "" {
		return p
	}
	for _, s := range r.secrets {
		if s.value == value {
			return p
		}
	}
	r.secrets = append(r.secrets, secret{value: value, placeholder: p})
	// Longer values first, so a secret containing another is replaced whole.
	for i := len(r.secrets) - 1; i > 0 && len(r.secrets[i].value) > len(r.secrets[i-1].value); i-- {
		r.secrets[i], r.secrets[i-1] = r.secrets[i-1], r.secrets[i]
	}
	return p
}

// String returns s with every known secret of at least four bytes replaced.
func (r *Redactor) String(s string) string {
	if r == nil {
		return s
	}
	for _, sec := range r.secrets {
		if len(sec.value) >= minScrub {
			s = strings.ReplaceAll(s, sec.value, sec.placeholder)
		}
	}
	return s
}

// JSON returns the JSON text b with every known secret of at least four
// bytes replaced, both as written plainly and as a JSON string escapes it.
func (r *Redactor) JSON(b []byte) []byte {
	if r == nil {
		return b
	}
	for _, sec := range r.secrets {
		if len(sec.value) < minScrub {
			continue
		}
		b = bytes.ReplaceAll(b, []byte(sec.value), []byte(sec.placeholder))
		esc, _ := json.Marshal(sec.value)
		esc = esc[1 : len(esc)-1]
		if !bytes.Equal(esc, []byte(sec.value)) {
			b = bytes.ReplaceAll(b, esc, []byte(sec.placeholder))
		}
	}
	return b
}

// redactURL returns raw with its userinfo and query values replaced by
// placeholders, registering them with r.
func (r *Redactor) redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		// Not a URL we can take apart: treat the whole string as secret
		// rather than risk leaking a credential.
		return r.Add("url", raw)
	}
	var b strings.Builder
	if u.Scheme != "" {
		b.WriteString(u.Scheme + "://")
	}
	if u.User != nil {
		b.WriteString(r.Add("userinfo", u.User.String()))
		if name := u.User.Username(); name != "" {
			r.Add("userinfo", name)
		}
		if pw, ok := u.User.Password(); ok {
			r.Add("userinfo", pw)
		}
		b.WriteString("@")
	}
	b.WriteString(u.Host)
	b.WriteString(u.EscapedPath())
	if u.RawQuery != "" {
		b.WriteString("?")
		for i, part := range strings.Split(u.RawQuery, "&") {
			if i > 0 {
				b.WriteString("&")
			}
			name, value, found := strings.Cut(part, "=")
			if !found {
				b.WriteString(name)
				continue
			}
			b.WriteString(name + "=" + r.Add(name, value))
			if dec, err := url.QueryUnescape(value); err == nil && dec != value {
				r.Add(name, dec)
			}
		}
	}
	if u.Fragment != "" {
		b.WriteString("#" + u.EscapedFragment())
	}
	return b.String()
}
