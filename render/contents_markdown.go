package render

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"charm.land/glamour/v2"
	"charm.land/glamour/v2/styles"
	"github.com/charmbracelet/x/ansi"

	"mcpwitness/sanitize"
	"mcpwitness/themes"
)

// maxMarkdown is the most Markdown rendered with glamour; longer text is
// shown as plain text (rendering costs grow with it, and no one reads a
// megabyte of rendered prose in a pane).
const maxMarkdown = 64 << 10

// Markdown adds Markdown text rendered with glamour, indented by indent,
// in the glamour style that suits the theme (ascii for mono).
//
// A server's Markdown must not reach the terminal's parser: the source is
// sanitised first (every control and escape shown visibly), and of what
// glamour writes only its SGR styling is kept (see [onlySGR]); glamour's
// OSC 8 hyperlinks, which would hide a link's target behind its text, are
// dropped and the target is shown as text. When glamour fails, or the
// text is over maxMarkdown, it is shown as plain wrapped text.
func (d *Doc) Markdown(src string, indent int) {
	w := max(d.width-indent, 8)
	lines, ok := renderMarkdown(sanitize.Text(src), w, d.st)
	if !ok {
		d.Text(d.st.Text, src, indent)
		return
	}
	pad := strings.Repeat(" ", indent)
	for _, l := range lines {
		if ansi.Strip(l) == "" {
			d.Blank()
			continue
		}
		d.Add(pad + l)
	}
}

// renderMarkdown renders the sanitised Markdown src with glamour to lines
// at most w cells wide, with no blank lines at either end.
func renderMarkdown(src string, w int, st *themes.Styles) ([]string, bool) {
	if len(src) > maxMarkdown {
		return nil, false
	}
	style := styles.DarkStyleConfig
	switch {
	case st.Mono:
		style = styles.ASCIIStyleConfig
	case st.Name == themes.Light:
		style = styles.LightStyleConfig
	}
	// The document's own margin is left to the caller's indent.
	zero := uint(0)
	style.Document.Margin = &zero
	r, err := glamour.NewTermRenderer(glamour.WithStyles(style), glamour.WithWordWrap(w))
	if err != nil {
		return nil, false
	}
	out, err := r.Render(src)
	if err != nil {
		return nil, false
	}
	lines := strings.Split(onlySGR(out), "\n")
	for i, l := range lines {
		l = trimRightStyled(l)
		if ansi.StringWidth(l) > w {
			l = ansi.Truncate(l, w, "…")
		}
		lines[i] = deadSGR.ReplaceAllString(l, "\x1b[m")
	}
	for len(lines) > 0 && ansi.Strip(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && ansi.Strip(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return lines, true
}

// deadSGR is a run of SGR sequences ended by a reset, which undoes them:
// glamour writes many around padding that is trimmed.
var deadSGR = regexp.MustCompile(`(?:\x1b\[[0-9;:]*m)+\x1b\[0?m`)

// onlySGR keeps of s its text, newlines and SGR sequences (ESC [ params m):
// every other escape sequence (OSC, DCS, cursor movement, …) and every
// other control character is dropped.
func onlySGR(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == 0x1b:
			i += escapeLen(s[i:], &b)
		case c >= 0x80:
			// Invalid UTF-8 and C1 controls (a lone 0x9b is CSI to some
			// terminals) are dropped.
			r, size := utf8.DecodeRuneInString(s[i:])
			if r != utf8.RuneError && (r < 0x80 || r > 0x9f) {
				b.WriteString(s[i : i+size])
			}
			i += size
		case c == '\n' || (c >= 0x20 && c != 0x7f):
			b.WriteByte(c)
			i++
		default:
			i++ // a C0 control or DEL
		}
	}
	return b.String()
}

// escapeLen measures the escape sequence at the start of s (which starts
// with ESC), writes it to b when it is SGR, and returns its length.
func escapeLen(s string, b *strings.Builder) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		j := 2
		for j < len(s) && s[j] >= 0x30 && s[j] <= 0x3f {
			j++ // parameters
		}
		params := j
		for j < len(s) && s[j] >= 0x20 && s[j] <= 0x2f {
			j++ // intermediates
		}
		if j >= len(s) {
			return len(s)
		}
		if s[j] == 'm' && j == params && !strings.ContainsAny(s[2:j], "<=>?") {
			b.WriteString(s[:j+1])
		}
		return j + 1
	case ']', 'P', '_', '^', 'X':
		// A string sequence: it ends at BEL or ST (ESC \).
		for j := 2; j < len(s); j++ {
			if s[j] == 0x07 {
				return j + 1
			}
			if s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\' {
				return j + 2
			}
		}
		return len(s)
	}
	return 2
}

// trimRightStyled drops the trailing spaces glamour pads each line with,
// keeping the line's styling closed.
func trimRightStyled(l string) string {
	plain := ansi.Strip(l)
	keep := ansi.StringWidth(strings.TrimRight(plain, " "))
	if keep == ansi.StringWidth(plain) {
		return l
	}
	return ansi.Truncate(l, keep, "") + "\x1b[m"
}
