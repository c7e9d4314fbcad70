package render

import (
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"mcpwitness/sanitize"
)

// SafeJSON returns the JSON text s with every character a terminal would
// act on or hide — C0 and C1 controls, DEL, and what [sanitize.Text] shows
// escaped: bidi, zero-width, tag and other format characters, stray
// variation selectors, fillers, separators — written as a \u escape (a
// surrogate pair beyond U+FFFF), and invalid UTF-8 as \ufffd: the same JSON,
// shown safely. In valid JSON such characters stand only inside strings,
// where the escape means the same; the newlines and indents of pretty JSON
// stay.
func SafeJSON(s string) string {
	if sanitize.Text(s) == s {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size, escaped := sanitize.Next(s, i, true)
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteString(`\ufffd`)
		case r == '\n' || r == '\t' || !escaped:
			b.WriteString(s[i : i+size])
		case r > 0xffff:
			hi, lo := utf16.EncodeRune(r)
			fmt.Fprintf(&b, `\u%04x\u%04x`, hi, lo)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
		i += size
	}
	return b.String()
}
