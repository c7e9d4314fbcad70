package session

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"slices"
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
	// key, when set, keys the digests (see [DigestKey]); without it they
	// are plain SHA-256, as in files written before keys existed.
	key     *DigestKey
	secrets []secret
	// plain and escaped replace every secret in one pass, so a placeholder
	// written for one secret is never scanned again for another.
	plain, escaped *strings.Replacer
}

type secret struct {
	value       string
	placeholder string
}

// Placeholder is the text that stands for a secret value named name, with
// an unkeyed digest; a [Redactor] with a key writes [KeyedPlaceholder].
func Placeholder(name, value string) string {
	sum := sha256.Sum256([]byte(value))
	return "[REDACTED:" + name + ":sha256=" + hex.EncodeToString(sum[:4]) + "]"
}

// KeyedPlaceholder is the text that stands for a secret value named name,
// its digest keyed with k (an HMAC-SHA-256, so a file holding it cannot be
// used to test guesses of the value); with a nil k it is [Placeholder].
func KeyedPlaceholder(k *DigestKey, name, value string) string {
	if k == nil {
		return Placeholder(name, value)
	}
	return "[REDACTED:" + name + ":sha256=" + k.Digest("redact", value, 4) + "]"
}

// NewRedactor returns a redactor with no secrets yet whose digests are
// keyed with k (nil: unkeyed).
func NewRedactor(k *DigestKey) *Redactor { return &Redactor{key: k} }

// Add registers value as a secret named name and returns its placeholder.
func (r *Redactor) Add(name, value string) string {
	p := KeyedPlaceholder(r.key, name, value)
	if value == "" {
		return p
	}
	for _, s := range r.secrets {
		if s.value == value {
			return p
		}
	}
	r.secrets = append(r.secrets, secret{value: value, placeholder: p})
	r.build()
	return p
}

// build sorts the secrets and makes the replacers.
func (r *Redactor) build() {
	// Longer values first, so a secret containing another is replaced whole.
	for i := len(r.secrets) - 1; i > 0 && len(r.secrets[i].value) > len(r.secrets[i-1].value); i-- {
		r.secrets[i], r.secrets[i-1] = r.secrets[i-1], r.secrets[i]
	}
	var plain, escaped []string
	// Placeholders map to themselves, listed first: a scan that meets one
	// takes it whole, so a secret such as "info" never bites into
	// "[REDACTED:userinfo:…]".
	for _, s := range r.secrets {
		plain = append(plain, s.placeholder, s.placeholder)
		escaped = append(escaped, s.placeholder, s.placeholder)
	}
	for _, s := range r.secrets {
		if len(s.value) < minScrub {
			continue
		}
		plain = append(plain, s.value, s.placeholder)
		esc, _ := json.Marshal(s.value)
		escaped = append(escaped, string(esc[1:len(esc)-1]), s.placeholder)
	}
	r.plain, r.escaped = strings.NewReplacer(plain...), strings.NewReplacer(escaped...)
}

// alias makes text stand for a secret already known by its placeholder.
func (r *Redactor) alias(text, placeholder string) {
	for _, s := range r.secrets {
		if s.value == text {
			return
		}
	}
	r.secrets = append(r.secrets, secret{value: text, placeholder: placeholder})
	r.build()
}

// String returns s with every known secret of at least four bytes replaced.
func (r *Redactor) String(s string) string {
	if r == nil || r.plain == nil {
		return s
	}
	return r.plain.Replace(s)
}

// JSON returns the JSON text b with every known secret of at least four
// bytes replaced, both as written plainly and as a JSON string escapes it.
func (r *Redactor) JSON(b []byte) []byte {
	if r == nil || r.escaped == nil {
		return b
	}
	// JSON text holds a secret as a JSON string escapes it; values with
	// nothing to escape are the same either way.
	return []byte(r.escaped.Replace(string(b)))
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
		// The user name is shown hashed but not hunted for in every frame:
		// a name such as "admin" would mangle unrelated text.
		info := r.Add("userinfo", u.User.String())
		b.WriteString(info)
		if pw, ok := u.User.Password(); ok {
			r.Add("password", pw)
			// Go's HTTP errors quote the URL as user:***@host; the user
			// name there is as much a credential.
			r.alias(u.User.Username()+":***", info)
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

// Merge adds every secret o knows to r, with o's placeholders: a session of
// several servers redacts what any of them holds.
func (r *Redactor) Merge(o *Redactor) {
	if o == nil || len(o.secrets) == 0 {
		return
	}
	for _, s := range o.secrets {
		if !slices.ContainsFunc(r.secrets, func(k secret) bool { return k.value == s.value }) {
			r.secrets = append(r.secrets, s)
		}
	}
	// build sorts by one pass of insertion; sort whole after a merge.
	slices.SortStableFunc(r.secrets, func(a, b secret) int { return len(b.value) - len(a.value) })
	r.build()
}
