package render

import (
	"html"
	"strconv"
	"strings"
	"unicode/utf8"
)

// linkLabel measures the link label ([…], at most 999 characters inside,
// no unescaped brackets) that starts s; 0 when there is none.
func linkLabel(s string) int {
	if s == "" || s[0] != '[' {
		return 0
	}
	for i := 1; i < len(s) && i <= 1000; i++ {
		switch s[i] {
		case '\\':
			i++
		case '[':
			return 0
		case ']':
			return i + 1
		}
	}
	return 0
}

// normalizeLabel is the key a reference label is matched by: without its
// brackets, trimmed, inner white space as one space, case folded.
func normalizeLabel(label string) string {
	label = strings.Join(strings.Fields(label[1:len(label)-1]), " ")
	return strings.ReplaceAll(strings.ToLower(strings.ToUpper(label)), "ß", "ss")
}

// linkDestination reads the link destination that starts s: <…>, or a
// run without spaces or controls whose parentheses balance. It returns the
// destination with its escapes and references resolved and its length in
// s, -1 when there is none.
func linkDestination(s string) (string, int) {
	if s != "" && s[0] == '<' {
		return bracketedDestination(s)
	}
	depth := 0
	i := 0
loop:
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s) && isEscapable(s[i+1]):
			i++
		case c == '(':
			if depth++; depth > mdMaxNesting {
				return "", -1
			}
		case c == ')':
			if depth == 0 {
				break loop
			}
			depth--
		case c <= ' ' || c == 0x7f:
			break loop
		}
	}
	if depth != 0 || (i == 0 && (i >= len(s) || s[i] != ')')) {
		return "", -1
	}
	return unescapeMarkdown(s[:i]), i
}

// bracketedDestination reads a <…> link destination, as linkDestination
// does.
func bracketedDestination(s string) (string, int) {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '<', '\n':
			return "", -1
		case '>':
			return unescapeMarkdown(s[1:i]), i + 1
		}
	}
	return "", -1
}

// refDefinition reads a link reference definition ([label]: dest
// "title") that starts s, up to and with its line ending: its length, its
// label's key and its destination; 0 when s does not start with one.
func refDefinition(s string) (int, string, string) {
	k := linkLabel(s)
	if k == 0 || k >= len(s) || s[k] != ':' {
		return 0, "", ""
	}
	key := normalizeLabel(s[:k])
	if key == "" {
		return 0, "", ""
	}
	p := &mdInline{s: s, pos: k + 1}
	p.spnl()
	dest, n := linkDestination(s[p.pos:])
	if n < 0 || (n == 0 && p.pos < len(s) && s[p.pos] != '<') {
		return 0, "", ""
	}
	p.pos += n
	beforeTitle := p.pos
	p.spnl()
	if p.pos > beforeTitle {
		if t := p.linkTitle(); t > 0 {
			p.pos += t
			if end := lineEnd(s, p.pos); end >= 0 {
				return end, key, dest
			}
		}
	}
	if end := lineEnd(s, beforeTitle); end >= 0 {
		return end, key, dest
	}
	return 0, "", ""
}

// lineEnd is where the line after only spaces from i ends, past its line
// ending; -1 when something other than spaces follows.
func lineEnd(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	switch {
	case i == len(s):
		return i
	case s[i] == '\n':
		return i + 1
	}
	return -1
}

// unescapeMarkdown resolves backslash escapes and entity and numeric
// character references in s.
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
	// html's table is built on first use, not at start; it also reads
	// legacy names without the semicolon, which a short result tells
	// apart (a whole name stands for one or two characters).
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

func isDigit(c byte, base int) bool {
	if c >= '0' && c <= '9' {
		return true
	}
	return base == 16 && c|0x20 >= 'a' && c|0x20 <= 'f'
}

// isURIAutolink reports whether s (between < and >) is an absolute URI:
// a scheme of 2 to 32 characters, a colon, no spaces, controls or <.
func isURIAutolink(s string) bool {
	colon := strings.IndexByte(s, ':')
	if colon < 2 || colon > 32 || !isLetter(s[0]) {
		return false
	}
	for i := 1; i < colon; i++ {
		if c := s[i]; !isLetter(c) && !isDigit(c, 10) && c != '+' && c != '.' && c != '-' {
			return false
		}
	}
	for i := colon + 1; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c == '<' || c == 0x7f {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// isEmailAutolink reports whether s (between < and >) is an email
// address as CommonMark's autolinks take them.
func isEmailAutolink(s string) bool {
	at := strings.IndexByte(s, '@')
	if at < 1 {
		return false
	}
	for i := 0; i < at; i++ {
		if c := s[i]; !isLetter(c) && !isDigit(c, 10) && strings.IndexByte(".!#$%&'*+/=?^_`{|}~-", c) < 0 {
			return false
		}
	}
	for _, label := range strings.Split(s[at+1:], ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			if c := label[i]; !isLetter(c) && !isDigit(c, 10) && c != '-' {
				return false
			}
		}
	}
	return true
}
