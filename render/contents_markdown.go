package render

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"mcpwitness/sanitize"
	"mcpwitness/themes"
)

// maxMarkdown is the most Markdown rendered; longer text is shown as plain
// text (rendering costs grow with it, and no one reads a megabyte of
// rendered prose in a pane).
const maxMarkdown = 64 << 10

// Markdown adds Markdown text rendered into styled lines, indented by
// indent: the source is parsed as CommonMark by goldmark (GFM's pipe
// tables too, no other extension) and its tree drawn here with the
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
	source := []byte(src)
	r := &mdRender{w: w, st: st, src: source}
	r.blocks(newMarkdownParser().Parse(text.NewReader(source)), prefix{}, false)
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

// newMarkdownParser returns a CommonMark parser that reads GFM's pipe
// tables too: the constructs [mdRender] draws, and no other.
func newMarkdownParser() parser.Parser {
	p := parser.NewParser(
		parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithInlineParsers(parser.DefaultInlineParsers()...),
		parser.WithParagraphTransformers(append(parser.DefaultParagraphTransformers(),
			util.Prioritized(extension.NewTableParagraphTransformer(), 200))...),
		parser.WithASTTransformers(util.Prioritized(extension.NewTableASTTransformer(), 0)),
	)
	return p
}

// mdRender draws a goldmark tree into lines.
type mdRender struct {
	w     int
	st    *themes.Styles
	src   []byte // the source the tree's segments point into
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
func (r *mdRender) blocks(n ast.Node, p prefix, tight bool) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		cp := p
		if c != n.FirstChild() {
			cp = p.later()
			if !tight {
				r.blank(p)
			}
		}
		r.block(c, cp)
	}
}

// block draws one block node.
func (r *mdRender) block(n ast.Node, p prefix) {
	st := r.st
	switch n := n.(type) {
	case *ast.Heading:
		r.heading(n, p)
	case *ast.Paragraph, *ast.TextBlock:
		r.wrap(r.inlines(n, st.Text, nil), p)
	case *extast.Table:
		r.table(n, p)
	case *ast.ThematicBreak:
		r.emit(p.first, []Seg{{Text: strings.Repeat("─", max(r.w-p.width, 3)), Style: st.Subtle}})
	case *ast.CodeBlock:
		r.code(n, "", false, p)
	case *ast.FencedCodeBlock:
		r.code(n, r.clean(unescapeMarkdown(string(n.Language(r.src))), false), true, p)
	case *ast.HTMLBlock:
		lines := r.rawLines(n.Lines())
		if n.HasClosure() {
			lines = append(lines, r.clean(string(n.ClosureLine.Value(r.src)), true))
		}
		for i, l := range lines {
			if i > 0 {
				p = p.later()
			}
			r.wrap([]Seg{{Text: l, Style: st.Muted}}, p)
		}
	case *ast.Blockquote:
		bar := Seg{Text: "│ ", Style: st.Subtle}
		if st.Mono {
			bar.Text = "> "
		}
		r.blocks(n, r.nest(p, bar, bar), false)
	case *ast.List:
		r.list(n, p)
	}
}

// heading draws a heading: bold in the title style for levels 1 and 2;
// its level marked by #s, except for level 1 in colour, underlined
// instead. Mono marks every level.
func (r *mdRender) heading(n *ast.Heading, p prefix) {
	st := r.st
	style := st.Bold
	if n.Level <= 2 {
		style = st.Title
	}
	var ss []Seg
	switch {
	case st.Mono:
		ss = append(ss, Seg{Text: strings.Repeat("#", n.Level) + " ", Style: style})
	case n.Level == 1:
		style = style.Underline(true)
	default:
		ss = append(ss, Seg{Text: strings.Repeat("#", n.Level) + " ", Style: st.Subtle})
	}
	r.wrap(r.inlines(n, style, ss), p)
}

// list draws a list: bullets (by depth) or numbers from the list's start,
// each item's blocks indented under its text.
func (r *mdRender) list(n *ast.List, p prefix) {
	st := r.st
	bullets := []string{"•", "◦", "▪"}
	widest := len(strconv.Itoa(n.Start + n.ChildCount() - 1))
	r.depth++
	defer func() { r.depth-- }()
	num := n.Start
	for item := n.FirstChild(); item != nil; item = item.NextSibling() {
		mark := bullets[(r.depth-1)%len(bullets)] + " "
		if n.IsOrdered() {
			s := strconv.Itoa(num) + string(n.Marker)
			mark = strings.Repeat(" ", max(widest-len(strconv.Itoa(num)), 0)) + s + " "
			num++
		}
		ip := p
		if item != n.FirstChild() {
			ip = p.later()
			if !n.IsTight {
				r.blank(p)
			}
		}
		ip = r.nest(ip, Seg{Text: mark, Style: st.Muted}, Seg{Text: strings.Repeat(" ", utf8.RuneCountInString(mark)), Plain: true})
		if item.HasChildren() {
			r.blocks(item, ip, n.IsTight)
		} else {
			r.emit(ip.first, nil)
		}
	}
}

// code draws a code block verbatim, dimmed, indented by two, each line
// cut (never wrapped) at the width; fenced shows the fences in mono.
func (r *mdRender) code(n ast.Node, lang string, fenced bool, p prefix) {
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
	lines := r.rawLines(n.Lines())
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
func (r *mdRender) rawLines(segs *text.Segments) []string {
	out := make([]string, 0, segs.Len())
	for i := range segs.Len() {
		seg := segs.At(i)
		out = append(out, r.clean(string(seg.Value(r.src)), true))
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
