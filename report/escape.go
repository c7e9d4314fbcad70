package report

import (
	"html"
	"strings"
	"unicode"
	"unicode/utf8"

	"mcpwitness/sanitize"
)

// Server text reaches the report through these: sanitised (see
// [sanitize.Text]) and escaped so that it stays text in Markdown.

// markdownEscape returns how r is written in Markdown prose so that it
// stays text: emphasis, code, links and images, HTML tags and entities,
// table cells, headings and strikethrough all escaped.
func markdownEscape(r rune) (string, bool) {
	switch r {
	case '\\', '`', '*', '~', '[', ']', '|', '#':
		return `\` + string(r), true
	case '&':
		return "&amp;", true
	case '<':
		return "&lt;", true
	case '>':
		return "&gt;", true
	}
	return "", false
}

// oneLine makes server text safe and puts it on one line: control
// characters, escapes, bidi controls and zero-width characters shown
// visibly (see [sanitize.Text]), runs of white space as one space.
func oneLine(s string) string {
	return strings.Join(strings.Fields(sanitize.Text(s)), " ")
}

// text escapes s for Markdown prose and table cells. An underscore inside
// a word (snake_case) cannot start emphasis and stays as it is.
func text(s string) string {
	s = oneLine(s)
	var b strings.Builder
	for i, r := range s {
		if e, ok := markdownEscape(r); ok {
			b.WriteString(e)
			continue
		}
		if r == '_' {
			prev, _ := utf8.DecodeLastRuneInString(s[:i])
			next, _ := utf8.DecodeRuneInString(s[i+1:])
			if !wordRune(prev) || !wordRune(next) {
				b.WriteString(`\_`)
				continue
			}
		}
		b.WriteRune(r)
	}
	return b.String()
}

func wordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// code writes s as inline code, on one line.
func code(s string) string {
	s = oneLine(s)
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || (len(fence) > 1) {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// cell makes Markdown safe inside a table cell: pipes escaped, one line.
func cell(s string) string {
	var b strings.Builder
	inEscape := false
	for _, r := range strings.ReplaceAll(s, "\n", " ") {
		if r == '|' && !inEscape {
			b.WriteString(`\|`)
		} else {
			b.WriteRune(r)
		}
		inEscape = r == '\\' && !inEscape
	}
	return b.String()
}

// summaryHTML escapes s for a <summary> element.
func summaryHTML(s string) string { return html.EscapeString(oneLine(s)) }
