package render

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"mcpwitness/sanitize"
	"mcpwitness/themes"
)

// maxMarkdown is the most Markdown rendered; longer text is shown as plain
// text (rendering costs grow with it, and no one reads a megabyte of
// rendered prose in a pane).
const maxMarkdown = 64 << 10

// Markdown adds Markdown text rendered into styled lines, indented by
// indent: the source is parsed as CommonMark (see [parseMarkdown]; GFM's
// pipe tables too, no other extension) and its tree drawn here with the
// theme's styles (see [mdRender]). The mono theme keeps the marks (#, *,
// `, fences, >) so that structure shows without colour.
//
// A server's Markdown must not reach the terminal's parser: the source is
// sanitised first (every control and escape shown visibly), every string
// taken from the tree is sanitised again (an entity such as &#27; becomes
// a character only after parsing), a link's target is shown as text, and
// of what is drawn only SGR styling is kept (see [onlySGR]). Over
// maxMarkdown the text is shown as plain wrapped text.
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

// renderMarkdown renders the sanitised Markdown src to lines at most w
// cells wide, with no blank lines at either end.
func renderMarkdown(src string, w int, st *themes.Styles) ([]string, bool) {
	if len(src) > maxMarkdown {
		return nil, false
	}
	r := &mdRender{w: w, st: st}
	r.blocks(parseMarkdown(src), prefix{}, false)
	lines := r.lines
	for i, l := range lines {
		l = onlySGR(l)
		if ansi.StringWidth(l) > w {
			l = ansi.Truncate(l, w, "…")
		}
		lines[i] = l
	}
	for len(lines) > 0 && ansi.Strip(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && ansi.Strip(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return lines, true
}

// mdRender draws a tree of [mdNode]s into lines.
type mdRender struct {
	w     int
	st    *themes.Styles
	lines []string
	depth int // lists within lists, for the bullet
}

// prefix is what starts each line of a block: first on its first line,
// rest on the others (a list item's marker, then its indent; a quote's
// bar). Both are width cells wide.
type prefix struct {
	first, rest []Seg
	width       int
}

// maxPrefix bounds the width of nested prefixes to half the width, so
// that deep nesting neither hides the text nor grows without end.
func (r *mdRender) maxPrefix() int { return r.w / 2 }

// nest returns p followed by first on its first line and rest (as wide)
// on the others; past maxPrefix, p itself.
func (r *mdRender) nest(p prefix, first, rest Seg) prefix {
	n := ansi.StringWidth(first.Text)
	if p.width+n > r.maxPrefix() {
		return p
	}
	return prefix{
		first: append(append([]Seg(nil), p.first...), first),
		rest:  append(append([]Seg(nil), p.rest...), rest),
		width: p.width + n,
	}
}

// later is p for the lines after the first.
func (p prefix) later() prefix { return prefix{first: p.rest, rest: p.rest, width: p.width} }

// emit adds one line: the prefix, then the body.
func (r *mdRender) emit(pre []Seg, body []Seg) {
	var b strings.Builder
	for _, ss := range [2][]Seg{pre, body} {
		for i := range ss {
			if s := &ss[i]; s.Plain || s.Text == "" {
				b.WriteString(s.Text)
			} else {
				b.WriteString(s.Style.Render(s.Text))
			}
		}
	}
	r.lines = append(r.lines, b.String())
}

// blank adds an empty line, which inside a quote still carries its bar.
func (r *mdRender) blank(p prefix) {
	pre := append([]Seg(nil), p.rest...)
	for len(pre) > 0 {
		last := &pre[len(pre)-1]
		last.Text = strings.TrimRight(last.Text, " ")
		if last.Text != "" {
			break
		}
		pre = pre[:len(pre)-1]
	}
	r.emit(pre, nil)
}

// blocks draws the children of n, separated by blank lines unless tight.
func (r *mdRender) blocks(n *mdNode, p prefix, tight bool) {
	i := 0
	for c := n.first; c != nil; c = c.nx {
		cp := p
		if i > 0 {
			cp = p.later()
			if !tight {
				r.blank(p)
			}
		}
		r.block(c, cp)
		i++
	}
}

// block draws one block node.
func (r *mdRender) block(n *mdNode, p prefix) {
	st := r.st
	switch n.kind {
	case mdHeading:
		r.heading(n, p)
	case mdParagraph:
		if rows, aligns := tableRows(n); rows != nil {
			r.table(rows, aligns, p)
			return
		}
		r.wrap(r.inlines(n, st.Text, nil), p)
	case mdThematicBreak:
		r.emit(p.first, []Seg{{Text: strings.Repeat("─", max(r.w-p.width, 3)), Style: st.Subtle}})
	case mdCodeBlock:
		r.code(n, "", false, p)
	case mdFencedCode:
		lang := n.text
		if i := strings.IndexAny(lang, " \t"); i >= 0 {
			lang = lang[:i]
		}
		r.code(n, sanitize.Line(lang), true, p)
	case mdHTMLBlock:
		for i, l := range r.rawLines(n) {
			if i > 0 {
				p = p.later()
			}
			r.wrap([]Seg{{Text: l, Style: st.Muted}}, p)
		}
	case mdQuote:
		bar := Seg{Text: "│ ", Style: st.Subtle}
		if st.Mono {
			bar.Text = "> "
		}
		r.blocks(n, r.nest(p, bar, bar), false)
	case mdList:
		r.list(n, p)
	}
}

// heading draws a heading: bold in the title style for levels 1 and 2;
// its level marked by #s, except for level 1 in colour, underlined
// instead. Mono marks every level.
func (r *mdRender) heading(n *mdNode, p prefix) {
	st := r.st
	style := st.Bold
	if n.level <= 2 {
		style = st.Title
	}
	var ss []Seg
	switch {
	case st.Mono:
		ss = append(ss, Seg{Text: strings.Repeat("#", n.level) + " ", Style: style})
	case n.level == 1:
		style = style.Underline(true)
	default:
		ss = append(ss, Seg{Text: strings.Repeat("#", n.level) + " ", Style: st.Subtle})
	}
	r.wrap(r.inlines(n, style, ss), p)
}

// list draws a list: bullets (by depth) or numbers from the list's start,
// each item's blocks indented under its text.
func (r *mdRender) list(n *mdNode, p prefix) {
	st := r.st
	bullets := []string{"•", "◦", "▪"}
	count := 0
	for item := n.first; item != nil; item = item.nx {
		count++
	}
	l := n.list
	widest := len(strconv.Itoa(l.start + count - 1))
	r.depth++
	defer func() { r.depth-- }()
	num := l.start
	i := 0
	for item := n.first; item != nil; item = item.nx {
		mark := bullets[(r.depth-1)%len(bullets)] + " "
		if l.ordered {
			s := strconv.Itoa(num) + string(l.marker)
			mark = strings.Repeat(" ", max(widest-len(strconv.Itoa(num)), 0)) + s + " "
			num++
		}
		ip := p
		if i > 0 {
			ip = p.later()
			if !l.tight {
				r.blank(p)
			}
		}
		ip = r.nest(ip, Seg{Text: mark, Style: st.Muted}, Seg{Text: strings.Repeat(" ", utf8.RuneCountInString(mark)), Plain: true})
		if item.first != nil {
			r.blocks(item, ip, l.tight)
		} else {
			r.emit(ip.first, nil)
		}
		i++
	}
}

// code draws a code block verbatim, dimmed, indented by two, each line
// cut (never wrapped) at the width; fenced shows the fences in mono.
func (r *mdRender) code(n *mdNode, lang string, fenced bool, p prefix) {
	st := r.st
	fence := st.Mono && fenced
	if fence {
		r.emit(p.first, []Seg{{Text: "```" + lang, Style: st.Muted}})
		p = p.later()
	} else if lang != "" {
		r.emit(p.first, []Seg{{Text: lang, Style: st.Subtle}})
		p = p.later()
	}
	avail := max(r.w-p.width-2, 1)
	lines := r.rawLines(n)
	if len(lines) == 0 {
		lines = []string{""}
	}
	for i, l := range lines {
		if i > 0 {
			p = p.later()
		}
		if ansi.StringWidth(l) > avail {
			l = ansi.Truncate(l, avail, "…")
		}
		r.emit(p.first, []Seg{{Text: "  ", Plain: true}, {Text: l, Style: st.Muted}})
	}
	if fence {
		r.emit(p.later().first, []Seg{{Text: "```", Style: st.Muted}})
	}
}

// rawLines returns the source lines of a block as they are (tabs
// expanded), each safe for one line.
func (r *mdRender) rawLines(n *mdNode) []string {
	out := make([]string, 0, len(n.lines))
	for _, l := range n.lines {
		out = append(out, r.clean(l, true))
	}
	return out
}

// clean returns b safe for one line: the newline that ends it dropped;
// tabs expanded to the next stop of four when verbatim, else (in prose,
// where a code span may span lines) tabs and newlines read as spaces; each
// other control shown visibly.
func (r *mdRender) clean(s string, verbatim bool) string {
	s = strings.TrimRight(s, "\r\n")
	if !verbatim {
		s = strings.Map(func(c rune) rune {
			if c == '\t' || c == '\n' || c == '\r' {
				return ' '
			}
			return c
		}, strings.ReplaceAll(s, "\r\n", "\n"))
	} else if strings.IndexByte(s, '\t') >= 0 {
		var e strings.Builder
		col := 0
		for _, c := range s {
			if c == '\t' {
				n := 4 - col%4
				e.WriteString(strings.Repeat(" ", n))
				col += n
				continue
			}
			e.WriteRune(c)
			col++
		}
		s = e.String()
	}
	return sanitize.Line(s)
}

// wrap draws segments (a hard break is a segment "\n") wrapped to the
// width left after the prefix.
func (r *mdRender) wrap(ss []Seg, p prefix) {
	avail := max(r.w-p.width, 4)
	first := true
	flush := func(line []Seg) {
		for _, l := range wrapSegs(line, avail, 0) {
			pre := p.rest
			if first {
				pre, first = p.first, false
			}
			r.emit(pre, trimSegs(l))
		}
	}
	start := 0
	for i := range ss {
		if ss[i].Text == "\n" {
			flush(ss[start:i])
			start = i + 1
		}
	}
	flush(ss[start:])
}

// trimSegs drops the spaces that end a wrapped line.
func trimSegs(ss []Seg) []Seg {
	for len(ss) > 0 {
		last := ss[len(ss)-1]
		last.Text = strings.TrimRight(last.Text, " ")
		if last.Text != "" {
			ss[len(ss)-1] = last
			break
		}
		ss = ss[:len(ss)-1]
	}
	return ss
}
