package render

import (
	"strings"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
)

// inlines appends to out the inline children of n as segments in style
// and what their marks add to it; a hard line break is a segment "\n".
func (r *mdRender) inlines(n ast.Node, style lipgloss.Style, out []Seg) []Seg {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		out = r.inline(c, style, out)
	}
	return out
}

// inline appends the segments of one inline node to out.
func (r *mdRender) inline(n ast.Node, style lipgloss.Style, out []Seg) []Seg {
	st := r.st
	switch n := n.(type) {
	case *ast.Text:
		out = r.text(n, style, out)
	case *ast.String:
		out = append(out, Seg{Text: r.clean(string(n.Value), false), Style: style})
	case *ast.CodeSpan:
		code := r.clean(r.plain(n), false)
		if st.Mono {
			out = append(out, Seg{Text: "`" + code + "`", Style: style})
		} else {
			out = append(out, Seg{Text: code, Style: st.JSONString})
		}
	case *ast.Emphasis:
		mark := strings.Repeat("*", n.Level)
		inner := style.Italic(true)
		if n.Level >= 2 {
			inner = style.Bold(true)
		}
		if st.Mono {
			out = append(out, Seg{Text: mark, Style: style})
		}
		out = r.inlines(n, inner, out)
		if st.Mono {
			out = append(out, Seg{Text: mark, Style: style})
		}
	case *ast.Link:
		out = r.link(r.inlines(n, r.linkStyle(style), nil), r.dest(n.Destination), out)
	case *ast.Image:
		alt := r.inlines(n, st.Muted, []Seg{{Text: "[image: ", Style: st.Muted}})
		out = r.link(append(alt, Seg{Text: "]", Style: st.Muted}), r.dest(n.Destination), out)
	case *ast.AutoLink:
		label := r.clean(string(n.Label(r.src)), false)
		out = r.link([]Seg{{Text: label, Style: r.linkStyle(style)}}, r.clean(string(n.URL(r.src)), false), out)
	case *ast.RawHTML:
		var b strings.Builder
		for i := range n.Segments.Len() {
			seg := n.Segments.At(i)
			b.Write(seg.Value(r.src))
		}
		out = append(out, Seg{Text: r.clean(b.String(), false), Style: st.Muted})
	}
	return out
}

// text appends a text node: its escapes and references resolved (a code
// span's text is raw), then the line break that ends it, if any.
func (r *mdRender) text(n *ast.Text, style lipgloss.Style, out []Seg) []Seg {
	s := string(n.Value(r.src))
	if !n.IsRaw() {
		s = unescapeMarkdown(s)
	}
	out = append(out, Seg{Text: r.clean(s, false), Style: style})
	switch {
	case n.HardLineBreak():
		out = append(out, Seg{Text: "\n"})
	case n.SoftLineBreak():
		out = append(out, Seg{Text: " ", Style: style})
	}
	return out
}

// plain is the raw text of n's text children: a code span's code.
func (r *mdRender) plain(n ast.Node) string {
	var b strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if t, ok := c.(*ast.Text); ok {
			b.Write(t.Value(r.src))
		}
	}
	return b.String()
}

// dest is a link's target, its escapes and references resolved, safe for
// one line.
func (r *mdRender) dest(d []byte) string { return r.clean(unescapeMarkdown(string(d)), false) }

// linkStyle is the style of a link's text within style.
func (r *mdRender) linkStyle(style lipgloss.Style) lipgloss.Style {
	if r.st.Mono {
		return style.Underline(true)
	}
	return r.st.Info.Underline(true)
}

// link appends a link's text, then its target, dim, unless the text is
// the target already.
func (r *mdRender) link(label []Seg, dest string, out []Seg) []Seg {
	out = append(out, label...)
	var plain strings.Builder
	for _, s := range label {
		plain.WriteString(s.Text)
	}
	if dest != "" && plain.String() != dest {
		out = append(out, Seg{Text: " (" + dest + ")", Style: r.st.Muted})
	}
	return out
}

// segsWidth is the width of segments in cells.
func segsWidth(ss []Seg) int {
	n := 0
	for _, s := range ss {
		n += ansi.StringWidth(s.Text)
	}
	return n
}

// pad fills a cell to width cells as align says.
func pad(c []Seg, width int, align extast.Alignment) []Seg {
	n := max(width-segsWidth(c), 0)
	space := func(k int) Seg { return Seg{Text: strings.Repeat(" ", k), Plain: true} }
	switch align {
	case extast.AlignRight:
		return append([]Seg{space(n)}, c...)
	case extast.AlignCenter:
		return append(append([]Seg{space(n / 2)}, c...), space(n-n/2))
	}
	return append(c, space(n))
}

// tableCells returns the cells of a table's rows (the header first), each
// drawn in its row's style: the header bold.
func (r *mdRender) tableCells(n *extast.Table) [][][]Seg {
	var rows [][][]Seg
	for row := n.FirstChild(); row != nil; row = row.NextSibling() {
		style := r.st.Text
		if _, ok := row.(*extast.TableHeader); ok {
			style = r.st.Bold
		}
		var cells [][]Seg
		for c := row.FirstChild(); c != nil; c = c.NextSibling() {
			cells = append(cells, r.inlines(c, style, nil))
		}
		rows = append(rows, cells)
	}
	return rows
}

// table draws a table's rows of cells in columns (the first row, the
// header, bold), each aligned as its column says, when they fit the
// width; otherwise each row as one wrapped line of cells between bars.
func (r *mdRender) table(n *extast.Table, p prefix) {
	st := r.st
	rows := r.tableCells(n)
	cols := len(n.Alignments)
	widths := make([]int, cols)
	for _, row := range rows {
		for j, c := range row[:min(len(row), cols)] {
			widths[j] = max(widths[j], segsWidth(c))
		}
	}
	total := 3 * (cols - 1)
	for _, w := range widths {
		total += w
	}
	bar := Seg{Text: " │ ", Style: st.Subtle}
	fits := total <= r.w-p.width
	for i, row := range rows {
		var ss []Seg
		for j := range cols {
			if j > 0 {
				ss = append(ss, bar)
			}
			var c []Seg
			if j < len(row) {
				c = row[j]
			}
			if fits {
				c = pad(c, widths[j], n.Alignments[j])
			}
			ss = append(ss, c...)
		}
		if i > 0 {
			p = p.later()
		}
		r.wrap(ss, p)
		if i == 0 && fits {
			var rule []string
			for _, w := range widths {
				rule = append(rule, strings.Repeat("─", w))
			}
			r.emit(p.later().first, []Seg{{Text: strings.Join(rule, "─┼─"), Style: st.Subtle}})
		}
	}
}

// onlySGR keeps of s its text, newlines and SGR sequences (ESC [ params m):
// every other escape sequence (OSC, DCS, cursor movement, …) and every
// other control character is dropped. Our styles write only SGR; this is
// the last guard that nothing else reaches the terminal.
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
