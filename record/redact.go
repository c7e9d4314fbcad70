package record

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// minScrub is the shortest secret value scrubbed from free text. Shorter
// values are still replaced where they are known to stand (target, headers,
// environment), but searching every frame for a two-letter string would
// mangle the record.
const minScrub = 4

// Redactor is the registry of a session's secrets: every credential is
// added to it the moment it exists, and every sink (record, spool,
// --json, --ndjson, JUnit, errors, the screen) masks with it, replacing a
// secret value by its name and a short keyed digest, so that output shows
// which secret was used without holding it. It is safe for concurrent use.
type Redactor struct {
	// key, when set, keys the digests (see [DigestKey]); without it they
	// are plain SHA-256, as in files written before keys existed.
	key *DigestKey

	mu      sync.Mutex
	secrets []secret
	// mask is rebuilt whole on every addition and read without a lock, so
	// masking never waits for a secret being added.
	mask atomic.Pointer[masker]
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
// It is safe to call while other goroutines mask text: a credential is
// added the moment it exists, and every sink masks with what is known.
func (r *Redactor) Add(name, value string) string {
	if r == nil {
		return Placeholder(name, value)
	}
	p := KeyedPlaceholder(r.key, name, value)
	if value != "" {
		r.add(secret{value: value, placeholder: p})
	}
	return p
}

// add registers s unless its value is known already.
func (r *Redactor) add(s secret) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if slices.ContainsFunc(r.secrets, func(k secret) bool { return k.value == s.value }) {
		return
	}
	r.secrets = append(r.secrets, s)
	r.build()
}

// build makes the masker from the secrets; r.mu is held.
func (r *Redactor) build() {
	var needles []needle
	// Placeholders stand for themselves: a scan that meets one takes it
	// whole, so a secret such as "info" never bites into
	// "[REDACTED:userinfo:…]".
	for _, s := range r.secrets {
		needles = append(needles, needle{[]byte(s.placeholder), s.placeholder})
	}
	for _, s := range r.secrets {
		if len(s.value) < minScrub {
			continue
		}
		for _, form := range []string{s.value, url.QueryEscape(s.value), url.PathEscape(s.value)} {
			if !slices.ContainsFunc(needles, func(n needle) bool { return string(n.text) == form }) {
				needles = append(needles, needle{[]byte(form), s.placeholder})
			}
		}
	}
	slices.SortStableFunc(needles, func(a, b needle) int { return len(b.text) - len(a.text) })
	r.mask.Store(&masker{needles: needles})
}

// alias makes text stand for a secret already known by its placeholder.
func (r *Redactor) alias(text, placeholder string) {
	r.add(secret{value: text, placeholder: placeholder})
}

// Len is the number of secrets r knows.
func (r *Redactor) Len() int {
	if r == nil {
		return 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.secrets)
}

// masker is what r masks with now, nil when it knows no secret to hunt.
func (r *Redactor) masker() *masker {
	if r == nil {
		return nil
	}
	return r.mask.Load()
}

// EventURL is u as events and errors show it: without its user
// information, and with the secrets secrets knows (query values) replaced;
// secrets may be nil.
func EventURL(u *url.URL, secrets *Redactor) string {
	c := *u
	c.User = nil
	return secrets.String(c.String())
}

// String returns s, free text such as an error message or a stderr line,
// with every known secret of at least four bytes replaced, written plainly,
// URL-escaped or escaped as a JSON string writes it.
func (r *Redactor) String(s string) string {
	m := r.masker()
	if m == nil {
		return s
	}
	return m.text(s)
}

// JSON returns the JSON text b with every known secret of at least four
// bytes replaced inside its string literals only, escaped forms included
// (see [masker.json]): valid JSON stays valid. b itself is returned when
// nothing was replaced.
func (r *Redactor) JSON(b []byte) []byte {
	m := r.masker()
	if m == nil {
		return b
	}
	return m.json(b)
}

// RedactURL returns raw with its userinfo and query values replaced by
// placeholders, registering them with r.
func (r *Redactor) RedactURL(raw string) string {
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
			// net/http sends the userinfo as this Basic credential.
			r.alias(base64.StdEncoding.EncodeToString([]byte(u.User.Username()+":"+pw)), info)
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
			b.WriteString(name + "=" + r.queryValue(name, value))
		}
	}
	if u.Fragment != "" {
		b.WriteString("#" + u.EscapedFragment())
	}
	return b.String()
}

// queryValue registers the secrets of the query parameter name=value (as
// written in the URL) and returns the value to show: a placeholder for a
// secret, else the value with what looks like a credential in it replaced.
func (r *Redactor) queryValue(name, value string) string {
	dec, err := url.QueryUnescape(value)
	if err != nil {
		dec = value
	}
	parts := SecretParts(name, dec, false)
	if slices.Contains(parts, dec) {
		if dec != value {
			r.Add(name, dec)
		}
		return r.Add(name, value)
	}
	return r.AddParts(name, parts, value)
}

// AddParts registers each of parts as a secret named name and returns
// shown with each replaced by its placeholder, longer parts first.
func (r *Redactor) AddParts(name string, parts []string, shown string) string {
	slices.SortFunc(parts, func(a, b string) int { return len(b) - len(a) })
	var pairs []string
	for _, p := range parts {
		if p != "" {
			pairs = append(pairs, p, r.Add(name, p))
		}
	}
	if len(pairs) == 0 {
		return shown
	}
	// One pass: a placeholder written is never searched again.
	return strings.NewReplacer(pairs...).Replace(shown)
}

// Merge adds every secret o knows to r, with o's placeholders: a session of
// several servers redacts what any of them holds.
func (r *Redactor) Merge(o *Redactor) {
	if o == nil || o == r {
		return
	}
	o.mu.Lock()
	theirs := slices.Clone(o.secrets)
	o.mu.Unlock()
	for _, s := range theirs {
		r.add(s)
	}
}
