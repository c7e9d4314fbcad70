package render

import (
	"html"
	"strconv"
	"strings"
	"unicode/utf8"
)

// unescapeMarkdown resolves, in one pass, the backslash escapes and the
// entity and numeric character references of s: goldmark keeps a text's
// source as written and leaves this to the renderer. A reference can
// stand for a control character, so the result is sanitised after this.
func unescapeMarkdown(s string) string {
	if strings.IndexByte(s, '\\') < 0 && strings.IndexByte(s, '&') < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s) && isEscapable(s[i+1]):
			i++
			b.WriteByte(s[i])
		case c == '&':
			if k, r := entityAt(s[i:]); k > 0 {
				b.WriteString(r)
				i += k - 1
				continue
			}
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// isEscapable reports whether a backslash before c escapes it: c is ASCII
// punctuation.
func isEscapable(c byte) bool {
	return c < 0x80 && c > ' ' && c != 0x7f && !(c >= '0' && c <= '9') && !(c|0x20 >= 'a' && c|0x20 <= 'z')
}

// entityAt reads the entity (&amp;) or numeric character reference
// (&#27;, &#x1b;) that starts s: its length and what it stands for; 0
// when s does not start with one. Code point 0, surrogates and numbers
// past Unicode stand for U+FFFD.
func entityAt(s string) (int, string) {
	if len(s) < 3 || s[0] != '&' {
		return 0, ""
	}
	if s[1] == '#' {
		return numericRef(s)
	}
	i := 1
	for i < len(s) && i <= 32 && (isDigit(s[i], 10) || (s[i]|0x20 >= 'a' && s[i]|0x20 <= 'z')) {
		i++
	}
	if i < 3 || i >= len(s) || s[i] != ';' || isDigit(s[1], 10) {
		return 0, ""
	}
	// html also reads legacy names without the semicolon, which a long
	// result tells apart (a whole name stands for one or two characters).
	ref := s[:i+1]
	r := html.UnescapeString(ref)
	if r == ref || utf8.RuneCountInString(r) > 2 {
		return 0, ""
	}
	return i + 1, r
}

// numericRef reads the numeric character reference that starts s, as
// entityAt does.
func numericRef(s string) (int, string) {
	base, i := 10, 2
	if s[2] == 'x' || s[2] == 'X' {
		base, i = 16, 3
	}
	start := i
	for i < len(s) && i-start < 8 && isDigit(s[i], base) {
		i++
	}
	n := i - start
	if n == 0 || (base == 10 && n > 7) || (base == 16 && n > 6) || i >= len(s) || s[i] != ';' {
		return 0, ""
	}
	v, _ := strconv.ParseUint(s[start:i], base, 32)
	r := rune(v)
	if r == 0 || !utf8.ValidRune(r) {
		r = utf8.RuneError
	}
	return i + 1, string(r)
}

// isDigit reports whether c is a digit in base 10 or 16.
func isDigit(c byte, base int) bool {
	if c >= '0' && c <= '9' {
		return true
	}
	return base == 16 && c|0x20 >= 'a' && c|0x20 <= 'f'
}
