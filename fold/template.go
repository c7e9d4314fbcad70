package fold

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/yosida95/uritemplate/v3"
)

// Template is a resource template's uriTemplate read as an RFC 6570 URI
// template: its variables, in order, and how to expand it.
type Template struct {
	t *uritemplate.Template
}

// ReadTemplate reads a uriTemplate; an error says why it is not one.
func ReadTemplate(s string) (*Template, error) {
	t, err := uritemplate.New(s)
	if err != nil {
		return nil, fmt.Errorf("uriTemplate %q is not an RFC 6570 template: %w", s, err)
	}
	return &Template{t: t}, nil
}

// Vars returns the template's variable names, each once, in order.
func (t *Template) Vars() []string { return t.t.Varnames() }

// Expand fills the template with vals (a variable left out expands to
// nothing, as RFC 6570 says).
func (t *Template) Expand(vals map[string]string) (string, error) {
	v := uritemplate.Values{}
	for name, val := range vals {
		v.Set(name, uritemplate.String(bytesAsRunes(val)))
	}
	return t.t.Expand(v)
}

// bytesAsRunes works around the library's percent-encoding, which encodes
// a character's code point rather than its UTF-8 bytes as RFC 6570 asks
// ("ã" gives %E3, not %C3%A3): each byte of a character outside ASCII is
// handed over as the character of that byte's value, which it encodes as
// that one byte. (A prefix modifier, {var:3}, then counts those bytes.)
func bytesAsRunes(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteRune(rune(s[i]))
	}
	return b.String()
}

// Matches says whether uri is an expansion of the template.
func (t *Template) Matches(uri string) bool { return t.t.Regexp().MatchString(uri) }

// Values returns the values uri gives the template's variables, or nil
// when uri is not an expansion of it.
func (t *Template) Values(uri string) map[string]string {
	m := t.t.Match(uri)
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for name, v := range m {
		out[name] = strings.Join(v.V, ",")
	}
	return out
}
