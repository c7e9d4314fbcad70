package ui

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"mcpwitness/sanitize"
	"mcpwitness/themes"
)

// maxDocLines bounds what one document renders; a bigger one ends with a
// line saying how much was left out.
const maxDocLines = 4000

// seg is a run of text in one style.
type seg struct {
	text  string
	style lipgloss.Style
	plain bool // draw without a style
}

// doc builds the styled, wrapped lines of a read-only text view (details,
// results, frames). Building happens once per change; views only slice the
// lines.
type doc struct {
	lines []string
	width int
	st    *themes.Styles
	cut   int // lines left out past maxDocLines
}

func newDoc(width int, st *themes.Styles) *doc {
	return &doc{width: max(width, 8), st: st}
}

func (d *doc) add(line string) {
	if len(d.lines) >= maxDocLines {
		d.cut++
		return
	}
	d.lines = append(d.lines, line)
}

// Lines returns the built lines.
func (d *doc) Lines() []string {
	if d.cut > 0 {
		return append(d.lines, d.st.Muted.Render("… "+strconv.Itoa(d.cut)+" more lines not shown"))
	}
	return d.lines
}

func (d *doc) blank() { d.add("") }

// text adds prose in style, word-wrapped to the width, each line indented
// by indent spaces. Controls and escapes in s are shown visibly.
func (d *doc) text(style lipgloss.Style, s string, indent int) {
	s = sanitize.Text(s)
	pad := strings.Repeat(" ", indent)
	w := max(d.width-indent, 4)
	for _, para := range strings.Split(s, "\n") {
		wrapped := ansi.Wrap(para, w, " ")
		for _, l := range strings.Split(wrapped, "\n") {
			d.add(pad + style.Render(l))
		}
	}
}

// segs adds one logical line of segments, wrapped with a hanging indent.
// Controls and escapes in the segments are shown visibly.
func (d *doc) segs(ss []seg, hang int) {
	for i := range ss {
		ss[i].text = sanitize.Line(ss[i].text)
	}
	for _, line := range wrapSegs(ss, d.width, hang) {
		var b strings.Builder
		for _, s := range line {
			if s.plain {
				b.WriteString(s.text)
			} else {
				b.WriteString(s.style.Render(s.text))
			}
		}
		d.add(b.String())
	}
}

// heading starts a section: a blank line, then its title.
func (d *doc) heading(s string) {
	d.blank()
	d.add(d.st.Title.Render(s))
}

// json adds raw pretty-printed and syntax-coloured, indented by indent.
// Invalid JSON is shown as text. What JSON leaves raw in its strings (C1
// controls, bidi and zero-width characters, invalid UTF-8) is shown
// visibly.
func (d *doc) json(raw []byte, indent int) {
	pretty, ok := prettyJSON(raw)
	if !ok {
		d.text(d.st.Text, string(raw), indent)
		return
	}
	pretty = sanitize.Text(pretty)
	pad := strings.Repeat(" ", indent)
	for _, line := range strings.Split(pretty, "\n") {
		if len(d.lines) >= maxDocLines {
			d.cut++
			continue
		}
		ss := append([]seg{{text: pad, plain: true}}, jsonSegs(line, d.st)...)
		lead := len(line) - len(strings.TrimLeft(line, " "))
		d.segs(ss, indent+lead+2)
	}
}

// prettyJSON indents raw by two spaces; ok is false when it is not JSON.
func prettyJSON(raw []byte) (string, bool) {
	var b bytes.Buffer
	if err := json.Indent(&b, bytes.TrimSpace(raw), "", "  "); err != nil {
		return "", false
	}
	return b.String(), true
}

// jsonSegs splits one line of pretty JSON into coloured segments.
func jsonSegs(line string, st *themes.Styles) []seg {
	var out []seg
	i := 0
	for i < len(line) {
		c := line[i]
		j := i + 1
		switch {
		case c == ' ':
			for j < len(line) && line[j] == ' ' {
				j++
			}
			out = append(out, seg{text: line[i:j], plain: true})
		case c == '"':
			for j < len(line) {
				if line[j] == '\\' {
					j += 2
					continue
				}
				j++
				if line[j-1] == '"' {
					break
				}
			}
			j = min(j, len(line))
			style := st.JSONString
			if k := strings.TrimLeft(line[j:], " "); strings.HasPrefix(k, ":") {
				style = st.JSONKey
			}
			out = append(out, seg{text: line[i:j], style: style})
		case strings.IndexByte("{}[],:", c) >= 0:
			out = append(out, seg{text: line[i:j], style: st.JSONPunct})
		case c == '-' || (c >= '0' && c <= '9'):
			for j < len(line) && strings.IndexByte("0123456789.eE+-", line[j]) >= 0 {
				j++
			}
			out = append(out, seg{text: line[i:j], style: st.JSONNumber})
		default:
			for j < len(line) && line[j] >= 'a' && line[j] <= 'z' {
				j++
			}
			out = append(out, seg{text: line[i:j], style: st.JSONLit})
		}
		i = j
	}
	return out
}

// wrapSegs breaks a line of segments into lines at most width cells wide,
// between words where it can; continuation lines start with hang spaces
// (at most half the width).
func wrapSegs(ss []seg, width, hang int) [][]seg {
	hang = min(hang, width/2)
	var lines [][]seg
	var cur []seg
	used := 0
	newline := func() {
		lines = append(lines, cur)
		cur = []seg{{text: strings.Repeat(" ", hang), plain: true}}
		used = hang
	}
	for _, s := range ss {
		text := s.text
		for text != "" {
			room := width - used
			w := ansi.StringWidth(text)
			if w <= room {
				cur = append(cur, seg{text: text, style: s.style, plain: s.plain})
				used += w
				break
			}
			head, rest := cutWidth(text, room)
			switch sp := strings.LastIndexByte(head, ' '); {
			case strings.HasPrefix(rest, " "):
				rest = rest[1:]
			case sp >= 0:
				head, rest = text[:sp], text[sp+1:]
			case used > hang:
				// The word does not fit here: start it on the next line.
				head, rest = "", text
			case head == "":
				// Not even one character fits: take it anyway.
				_, size := utf8.DecodeRuneInString(text)
				head, rest = text[:size], text[size:]
			}
			if head != "" {
				cur = append(cur, seg{text: head, style: s.style, plain: s.plain})
			}
			newline()
			text = rest
		}
	}
	return append(lines, cur)
}

// cutWidth splits s after at most n cells.
func cutWidth(s string, n int) (head, rest string) {
	w := 0
	for i, r := range s {
		rw := ansi.StringWidth(string(r))
		if w+rw > n {
			return s[:i], s[i:]
		}
		w += rw
	}
	return s, ""
}

// fit pads or cuts the styled line s to exactly width cells.
func fit(s string, width int) string {
	w := ansi.StringWidth(s)
	switch {
	case w == width:
		return s
	case w < width:
		return s + strings.Repeat(" ", width-w)
	}
	return ansi.Truncate(s, width, "…")
}

// trunc cuts plain text to width cells with an ellipsis.
func trunc(s string, width int) string {
	if width <= 0 {
		return ""
	}
	if ansi.StringWidth(s) <= width {
		return s
	}
	return ansi.Truncate(s, width, "…")
}
