// Package render turns what the fold holds into styled, sanitised lines:
// the documents of a tool, a call and a frame, the short summaries of
// calls and walks, and the number, time and size formats the panes share.
// It draws nothing itself and knows no Bubble Tea: a pane builds a
// document when what it shows changes, and slices its lines in View.
//
// Every string that came from a server passes the sanitiser here before it
// is styled.
package render

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"mcpwitness/sanitize"
	"mcpwitness/themes"
)

// maxDocLines bounds what one document renders; a bigger one ends with a
// line saying how much was left out.
const maxDocLines = 4000

// Seg is a run of text in one style.
type Seg struct {
	Text  string
	Style lipgloss.Style
	Plain bool // draw without a style
	// Whole: a wrapped line does not break inside it ("1.6 kB text"); it
	// starts the next line instead, unless it is wider than a line.
	Whole bool
}

// Doc builds the styled, wrapped lines of a read-only text view (details,
// results, frames). Building happens once per change; views only slice the
// lines.
type Doc struct {
	lines []string
	width int
	st    *themes.Styles
	cut   int // lines left out past the bound
	// most is the bound on lines: maxDocLines unless [Doc.Limit] set a
	// smaller one.
	most int
	// wide keeps JSON lines whole, wider than the width, for a view that
	// scrolls sideways (see [NewWideDoc]).
	wide bool
	// spans, when not nil, gathers where each verdict's lines are (see
	// [CallDocSpans]).
	spans []VerdictSpan
}

// NewWideDoc is [NewDoc] for a view that scrolls sideways: prose wraps to
// width, JSON keeps each line whole.
func NewWideDoc(width int, st *themes.Styles) *Doc {
	d := NewDoc(width, st)
	d.wide = true
	return d
}

// NewDoc starts a document wrapped to width cells (at least 8), drawn
// with st.
func NewDoc(width int, st *themes.Styles) *Doc {
	return &Doc{width: max(width, 8), st: st, most: maxDocLines}
}

// Limit bounds the document to n lines (at most maxDocLines), for a view
// that shows only its first lines: what is past them is counted, not
// drawn.
func (d *Doc) Limit(n int) { d.most = min(max(n, 0), maxDocLines) }

// Add adds one line as it is, or counts it as left out past the bound.
func (d *Doc) Add(line string) {
	if len(d.lines) >= d.most {
		d.cut++
		return
	}
	d.lines = append(d.lines, line)
}

// Shown returns the lines built within the bound, without the line
// saying how many were left out, and that number.
func (d *Doc) Shown() (lines []string, left int) { return d.lines, d.cut }

// Lines returns the built lines.
func (d *Doc) Lines() []string {
	if d.cut > 0 {
		return append(d.lines, d.st.Muted.Render("… "+strconv.Itoa(d.cut)+" more lines not shown"))
	}
	return d.lines
}

// Blank adds an empty line.
func (d *Doc) Blank() { d.Add("") }

// Text adds prose in style, word-wrapped to the width, each line indented
// by indent spaces. Controls and escapes in s are shown visibly.
func (d *Doc) Text(style lipgloss.Style, s string, indent int) {
	s = sanitize.Text(s)
	pad := strings.Repeat(" ", indent)
	w := max(d.width-indent, 4)
	for _, para := range strings.Split(s, "\n") {
		wrapped := ansi.Wrap(para, w, " ")
		for _, l := range strings.Split(wrapped, "\n") {
			d.Add(pad + style.Render(l))
		}
	}
}

// Segs adds one logical line of segments, wrapped with a hanging indent.
// Controls and escapes in the segments are shown visibly.
func (d *Doc) Segs(ss []Seg, hang int) {
	for i := range ss {
		ss[i].Text = sanitize.Line(ss[i].Text)
	}
	for _, line := range wrapSegs(ss, d.width, hang) {
		d.Add(segsLine(line))
	}
}

// segsLine draws segments on one line.
func segsLine(line []Seg) string {
	var b strings.Builder
	for _, s := range line {
		if s.Plain {
			b.WriteString(s.Text)
		} else {
			b.WriteString(s.Style.Render(s.Text))
		}
	}
	return b.String()
}

// Heading starts a section: a blank line, then its title.
func (d *Doc) Heading(s string) {
	d.Blank()
	d.Add(d.st.Title.Render(s))
}

// JSON adds raw pretty-printed and syntax-coloured, indented by indent.
// Invalid JSON is shown as text. What JSON leaves raw in its strings (C1
// controls, bidi and zero-width characters, invalid UTF-8) is shown
// visibly.
func (d *Doc) JSON(raw []byte, indent int) {
	pretty, ok := PrettyJSON(raw)
	if !ok {
		d.Text(d.st.Text, string(raw), indent)
		return
	}
	pretty = sanitize.Text(pretty)
	pad := strings.Repeat(" ", indent)
	for _, line := range strings.Split(pretty, "\n") {
		if len(d.lines) >= d.most {
			d.cut++
			continue
		}
		ss := append([]Seg{{Text: pad, Plain: true}}, jsonSegs(line, d.st)...)
		if d.wide {
			for i := range ss {
				ss[i].Text = sanitize.Line(ss[i].Text)
			}
			d.Add(segsLine(ss))
			continue
		}
		lead := len(line) - len(strings.TrimLeft(line, " "))
		d.Segs(ss, indent+lead+2)
	}
}

// PrettyJSON indents raw by two spaces; ok is false when it is not JSON.
func PrettyJSON(raw []byte) (string, bool) {
	var b bytes.Buffer
	if err := json.Indent(&b, bytes.TrimSpace(raw), "", "  "); err != nil {
		return "", false
	}
	return b.String(), true
}

// jsonSegs splits one line of pretty JSON into coloured segments.
func jsonSegs(line string, st *themes.Styles) []Seg {
	var out []Seg
	i := 0
	for i < len(line) {
		c := line[i]
		j := i + 1
		switch {
		case c == ' ':
			for j < len(line) && line[j] == ' ' {
				j++
			}
			out = append(out, Seg{Text: line[i:j], Plain: true})
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
			out = append(out, Seg{Text: line[i:j], Style: style})
		case strings.IndexByte("{}[],:", c) >= 0:
			out = append(out, Seg{Text: line[i:j], Style: st.JSONPunct})
		case c == '-' || (c >= '0' && c <= '9'):
			for j < len(line) && strings.IndexByte("0123456789.eE+-", line[j]) >= 0 {
				j++
			}
			out = append(out, Seg{Text: line[i:j], Style: st.JSONNumber})
		default:
			for j < len(line) && line[j] >= 'a' && line[j] <= 'z' {
				j++
			}
			out = append(out, Seg{Text: line[i:j], Style: st.JSONLit})
		}
		i = j
	}
	return out
}

// wrapSegs breaks a line of segments into lines at most width cells wide,
// between words where it can; continuation lines start with hang spaces
// (at most half the width).
func wrapSegs(ss []Seg, width, hang int) [][]Seg {
	hang = min(hang, width/2)
	var lines [][]Seg
	var cur []Seg
	used := 0
	newline := func() {
		lines = append(lines, cur)
		cur = []Seg{{Text: strings.Repeat(" ", hang), Plain: true}}
		used = hang
	}
	for _, s := range ss {
		text := s.Text
		if s.Whole && used > hang {
			if w := ansi.StringWidth(text); w > width-used && w <= width-hang {
				newline()
			}
		}
		for text != "" {
			room := width - used
			// Only what can fit is measured: measuring all the rest of a
			// long text on each line made wrapping it quadratic.
			head, rest := cutWidth(text, room)
			if rest == "" || len(text) <= 4*room {
				if w := ansi.StringWidth(text); w <= room {
					cur = append(cur, Seg{Text: text, Style: s.Style, Plain: s.Plain})
					used += w
					break
				}
			}
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
				c, _ := ansi.FirstGraphemeCluster(text, ansi.GraphemeWidth)
				head, rest = c, text[len(c):]
			}
			if head != "" {
				cur = append(cur, Seg{Text: head, Style: s.Style, Plain: s.Plain})
			}
			newline()
			text = rest
		}
	}
	return append(lines, cur)
}

// cutWidth splits s after at most n cells, between grapheme clusters
// measured as [ansi.StringWidth] measures them (a family emoji joined by
// ZWJs is one cluster of two cells). It measures no more of s than fits.
func cutWidth(s string, n int) (head, rest string) {
	w, i := 0, 0
	for i < len(s) {
		c, cw := ansi.FirstGraphemeCluster(s[i:], ansi.GraphemeWidth)
		if w+cw > n {
			break
		}
		w += cw
		i += len(c)
	}
	return s[:i], s[i:]
}

// Fit pads or cuts the styled line s to exactly width cells.
func Fit(s string, width int) string {
	w := ansi.StringWidth(s)
	switch {
	case w == width:
		return s
	case w < width:
		return s + strings.Repeat(" ", width-w)
	}
	return ansi.Truncate(s, width, "…")
}

// Trunc cuts plain text to width cells with an ellipsis.
func Trunc(s string, width int) string {
	if width <= 0 {
		return ""
	}
	if ansi.StringWidth(s) <= width {
		return s
	}
	return ansi.Truncate(s, width, "…")
}
