package render

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"mcpwitness/sanitize"
)

// SafeJSON returns the JSON text s with every character a terminal would
// act on or hide — C0 and C1 controls, DEL, bidi and zero-width characters
// — written as a \u escape, and invalid UTF-8 as \ufffd: the same JSON,
// shown safely. In valid JSON such characters stand only inside strings,
// where the escape means the same; the newlines and indents of pretty JSON
// stay.
func SafeJSON(s string) string {
	if sanitize.Text(s) == s {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteString(`\ufffd`)
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || sanitize.Invisible(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}
