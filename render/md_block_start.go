package render

import "strings"

// start tries to open new blocks at the current position under
// container: 0 when none starts, 1 for a container block (quote, list
// item), 2 for a leaf, 3 when it only read the marker of a container
// past mdMaxNesting (its content goes to the deepest one open).
func (p *mdBlocks) start(container *mdNode) int {
	s := p.rest(p.nextNonspace)
	nested := nesting(container) >= mdMaxNesting
	if !p.indented {
		if r := p.startUnindented(container, s, nested); r != 0 {
			return r
		}
	}
	if !p.indented || container.kind == mdList {
		if d := p.listMarker(container); d != nil {
			if nested {
				return 3
			}
			p.closeUnmatched()
			if p.tip.kind != mdList || !listsMatch(p.tip.list, d) {
				ld := *d
				p.addChild(mdList).list = &ld
			}
			p.addChild(mdItem).list = d
			return 1
		}
	}
	if p.indented && p.tip.kind != mdParagraph && !p.blank {
		p.advanceOffset(4, true)
		p.closeUnmatched()
		p.addChild(mdCodeBlock)
		return 2
	}
	return 0
}

// startUnindented tries the blocks that start with a mark within three
// spaces of the margin, as start does.
func (p *mdBlocks) startUnindented(container *mdNode, s string, nested bool) int {
	switch {
	case s[0] == '>':
		p.quoteMarker()
		if nested {
			return 3
		}
		p.closeUnmatched()
		p.addChild(mdQuote)
		return 1
	case s[0] == '#':
		if r := p.atxHeading(s); r != 0 {
			return r
		}
	case s[0] == '`' || s[0] == '~':
		if r := p.fence(s); r != 0 {
			return r
		}
	case s[0] == '<':
		if t := htmlBlockStart(s, container.kind == mdParagraph ||
			(!p.allClosed && !p.blank && p.tip.kind == mdParagraph)); t != 0 {
			p.closeUnmatched()
			n := p.addChild(mdHTMLBlock)
			n.htmlType = t
			return 2
		}
	}
	if container.kind == mdParagraph && (s[0] == '=' || s[0] == '-') {
		if r := p.setext(container, s); r != 0 {
			return r
		}
	}
	if thematicBreak(s) {
		p.closeUnmatched()
		p.addChild(mdThematicBreak)
		p.advanceOffset(len(p.cur)-p.offset, false)
		return 2
	}
	return 0
}

// atxHeading opens a # heading at s.
func (p *mdBlocks) atxHeading(s string) int {
	level := fenceRun(s)
	if level > 6 || (level < len(s) && s[level] != ' ' && s[level] != '\t') {
		return 0
	}
	p.advanceNextNonspace()
	p.advanceOffset(level, false)
	p.closeUnmatched()
	h := p.addChild(mdHeading)
	h.level = level
	text := strings.Trim(p.rest(p.offset), " \t")
	// A closing run of #s goes when it is all there is or follows a space.
	if t := strings.TrimRight(text, "#"); t == "" {
		text = ""
	} else if t != text && (t[len(t)-1] == ' ' || t[len(t)-1] == '\t') {
		text = strings.TrimRight(t, " \t")
	}
	h.text = text
	p.advanceOffset(len(p.cur)-p.offset, false)
	return 2
}

// fence opens a fenced code block at s.
func (p *mdBlocks) fence(s string) int {
	k := fenceRun(s)
	if k < 3 || (s[0] == '`' && strings.IndexByte(s[k:], '`') >= 0) {
		return 0
	}
	p.closeUnmatched()
	n := p.addChild(mdFencedCode)
	n.fenceChar, n.fenceLen, n.fenceIndent = s[0], k, p.indent
	p.advanceNextNonspace()
	p.advanceOffset(k, false)
	return 2
}

// setext turns the paragraph container into a heading when s underlines
// it.
func (p *mdBlocks) setext(container *mdNode, s string) int {
	k := fenceRun(s)
	if strings.Trim(s[k:], " \t") != "" {
		return 0
	}
	p.closeUnmatched()
	p.takeRefs(container)
	if len(container.lines) == 0 {
		return 0
	}
	h := &mdNode{kind: mdHeading, level: 1, startLine: container.startLine, endLine: p.lineNo}
	if s[0] == '-' {
		h.level = 2
	}
	h.text = strings.Trim(strings.Join(container.lines, "\n"), " \t\n")
	container.insertAfter(h)
	container.unlink()
	p.tip = h
	p.advanceOffset(len(p.cur)-p.offset, false)
	return 2
}

// thematicBreak reports whether s is three or more of one of * - _, with
// spaces or tabs between.
func thematicBreak(s string) bool {
	c := s[0]
	if c != '*' && c != '-' && c != '_' {
		return false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case c:
			n++
		case ' ', '\t':
		default:
			return false
		}
	}
	return n >= 3
}

// listMarker reads a list item's marker at the current position, moving
// past it and the spaces after it.
func (p *mdBlocks) listMarker(container *mdNode) *mdListData {
	if p.indent >= 4 {
		return nil
	}
	s := p.rest(p.nextNonspace)
	d, n := markerAt(s, container.kind == mdParagraph)
	if d == nil {
		return nil
	}
	d.markerOffset = p.indent
	p.advanceNextNonspace()
	p.advanceOffset(n, true)
	startCol, startOff := p.column, p.offset
	for {
		p.advanceOffset(1, true)
		c := p.peek(p.offset)
		if p.column-startCol >= 5 || (c != ' ' && c != '\t') {
			break
		}
	}
	spaces := p.column - startCol
	if spaces >= 5 || spaces < 1 || p.offset >= len(p.cur) {
		d.padding = n + 1
		p.column, p.offset = startCol, startOff
		if c := p.peek(p.offset); c == ' ' || c == '\t' {
			p.advanceOffset(1, true)
		}
	} else {
		d.padding = n + spaces
	}
	return d
}

// markerAt reads the list marker that starts s (-, +, *, or up to nine
// digits and . or )), with a space, tab or the end after it: what it says
// and its length. Interrupting a paragraph, an ordered list starts at 1
// and no item is empty.
func markerAt(s string, inParagraph bool) (*mdListData, int) {
	d := &mdListData{tight: true}
	n := 0
	switch c := s[0]; {
	case c == '*' || c == '+' || c == '-':
		d.marker, n = c, 1
	case c >= '0' && c <= '9':
		if n = orderedMarker(s, d); n == 0 || (inParagraph && d.start != 1) {
			return nil, 0
		}
	default:
		return nil, 0
	}
	if n < len(s) && s[n] != ' ' && s[n] != '\t' {
		return nil, 0
	}
	if inParagraph && strings.Trim(s[n:], " \t") == "" {
		return nil, 0
	}
	return d, n
}

// orderedMarker reads up to nine digits and a . or ) into d: the length
// read, 0 when s does not start with one.
func orderedMarker(s string, d *mdListData) int {
	n := 0
	for n < len(s) && n < 10 && s[n] >= '0' && s[n] <= '9' {
		d.start = d.start*10 + int(s[n]-'0')
		n++
	}
	if n > 9 || n >= len(s) || (s[n] != '.' && s[n] != ')') {
		return 0
	}
	d.ordered, d.marker = true, s[n]
	return n + 1
}

func listsMatch(a, b *mdListData) bool {
	return a.ordered == b.ordered && a.marker == b.marker
}
