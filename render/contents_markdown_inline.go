package render

import (
	"strings"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// inlines appends to out the inline children of n as segments in style
// and what their marks add to it; a hard line break is a segment "\n".
func (r *mdRender) inlines(n *mdNode, style lipgloss.Style, out []Seg) []Seg {
	for c := n.first; c != nil; c = c.nx {
		out = r.inline(c, style, out)
	}
	return out
}

// inline appends the segments of one inline node to out.
func (r *mdRender) inline(n *mdNode, style lipgloss.Style, out []Seg) []Seg {
	st := r.st
	switch n.kind {
	case mdText:
		out = append(out, Seg{Text: r.clean(n.text, false), Style: style})
	case mdSoftBreak:
		out = append(out, Seg{Text: " ", Style: style})
	case mdHardBreak:
		out = append(out, Seg{Text: "\n"})
	case mdCodeSpan:
		code := r.clean(n.text, false)
		if st.Mono {
			out = append(out, Seg{Text: "`" + code + "`", Style: style})
		} else {
			out = append(out, Seg{Text: code, Style: st.JSONString})
		}
	case mdEmph:
		mark := strings.Repeat("*", n.level)
		inner := style.Italic(true)
		if n.level >= 2 {
			inner = style.Bold(true)
		}
		if st.Mono {
			out = append(out, Seg{Text: mark, Style: style})
		}
		out = r.inlines(n, inner, out)
		if st.Mono {
			out = append(out, Seg{Text: mark, Style: style})
		}
	case mdLink:
		out = r.link(r.inlines(n, r.linkStyle(style), nil), r.clean(n.dest, false), out)
	case mdImage:
		alt := r.inlines(n, st.Muted, []Seg{{Text: "[image: ", Style: st.Muted}})
		out = r.link(append(alt, Seg{Text: "]", Style: st.Muted}), r.clean(n.dest, false), out)
	case mdAutoLink:
		out = r.link([]Seg{{Text: r.clean(n.text, false), Style: r.linkStyle(style)}}, r.clean(n.dest, false), out)
	case mdRawHTML:
		out = append(out, Seg{Text: r.clean(n.text, false), Style: st.Muted})
	}
	return out
}

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

// cellAlign is how a table column is aligned, as its delimiter row says.
type cellAlign uint8

// The alignments of a table column.
const (
	alignLeft   cellAlign = iota // --- or :---
	alignRight                   // ---:
	alignCenter                  // :---:
)

// tableRows returns the cells of a paragraph that is a GFM pipe table
// (rows of cells between pipes, the second a delimiter row such as
// |---|:--:|), with the delimiter row left out, and the alignment of each
// column; nil when it is not one.
func tableRows(n *mdNode) ([][]string, []cellAlign) {
	if len(n.lines) < 2 {
		return nil, nil
	}
	var rows [][]string
	var aligns []cellAlign
	for i, l := range n.lines {
		line := strings.TrimSpace(l)
		if !strings.Contains(line, "|") {
			return nil, nil
		}
		cells := splitRow(line)
		if i == 1 {
			if aligns = delimiterRow(cells); aligns == nil {
				return nil, nil
			}
			continue
		}
		rows = append(rows, cells)
	}
	return rows, aligns
}

// splitRow splits a table row at its unescaped pipes, dropping the outer
// ones, each cell trimmed and its \| unescaped.
func splitRow(line string) []string {
	line = strings.TrimPrefix(line, "|")
	if strings.HasSuffix(line, "|") && !strings.HasSuffix(line, `\|`) {
		line = line[:len(line)-1]
	}
	var cells []string
	start := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '\\':
			i++
		case '|':
			cells = append(cells, line[start:i])
			start = i + 1
		}
	}
	cells = append(cells, line[start:])
	for i, c := range cells {
		cells[i] = strings.ReplaceAll(strings.TrimSpace(c), `\|`, "|")
	}
	return cells
}

// delimiterRow returns the alignment of each column when cells are a
// table's delimiter row, else nil.
func delimiterRow(cells []string) []cellAlign {
	aligns := make([]cellAlign, len(cells))
	for i, c := range cells {
		left, right := strings.HasPrefix(c, ":"), strings.HasSuffix(c, ":")
		c = strings.TrimSuffix(strings.TrimPrefix(c, ":"), ":")
		if c == "" || strings.Trim(c, "-") != "" {
			return nil
		}
		switch {
		case left && right:
			aligns[i] = alignCenter
		case right:
			aligns[i] = alignRight
		}
	}
	return aligns
}

// pad fills c to width cells as align says.
func pad(c string, width int, align cellAlign) string {
	n := max(width-ansi.StringWidth(c), 0)
	switch align {
	case alignRight:
		return strings.Repeat(" ", n) + c
	case alignCenter:
		return strings.Repeat(" ", n/2) + c + strings.Repeat(" ", n-n/2)
	}
	return c + strings.Repeat(" ", n)
}

// table draws rows of cells in columns (the first row, the header, bold),
// each aligned as its column says, when they fit the width; otherwise each row as one wrapped line of cells
// between bars.
func (r *mdRender) table(rows [][]string, aligns []cellAlign, p prefix) {
	st := r.st
	cols := 0
	for i, row := range rows {
		for j, c := range row {
			row[j] = r.clean(unescapeMarkdown(c), false)
		}
		rows[i] = row
		cols = max(cols, len(row))
	}
	widths := make([]int, cols)
	for _, row := range rows {
		for j, c := range row {
			widths[j] = max(widths[j], ansi.StringWidth(c))
		}
	}
	total := 3 * (cols - 1)
	for _, w := range widths {
		total += w
	}
	bar := Seg{Text: " │ ", Style: st.Subtle}
	fits := total <= r.w-p.width
	for i, row := range rows {
		style := st.Text
		if i == 0 {
			style = st.Bold
		}
		var ss []Seg
		for j := 0; j < cols; j++ {
			if j > 0 {
				ss = append(ss, bar)
			}
			c := ""
			if j < len(row) {
				c = row[j]
			}
			if fits {
				align := alignLeft
				if j < len(aligns) {
					align = aligns[j]
				}
				c = pad(c, widths[j], align)
			}
			ss = append(ss, Seg{Text: c, Style: style})
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
