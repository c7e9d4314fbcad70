package render

import (
	"strings"
)

// parseMarkdown parses src as CommonMark into a tree of blocks whose
// paragraphs and headings hold their inlines. It reads each line once
// (block structure), then each paragraph's and heading's text once
// (inlines); nesting is bounded by mdMaxNesting.
func parseMarkdown(src string) *mdNode {
	p := &mdBlocks{refs: map[string]string{}}
	p.doc = &mdNode{kind: mdDocument, open: true, startLine: 1}
	p.tip = p.doc
	p.oldTip = p.doc
	for len(src) > 0 {
		i := strings.IndexAny(src, "\r\n")
		line := src
		if i < 0 {
			src = ""
		} else {
			line = src[:i]
			if src[i] == '\r' && i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			src = src[i+1:]
		}
		p.line(line)
	}
	for p.tip != nil {
		p.finalize(p.tip, p.lineNo)
	}
	p.inlines(p.doc)
	return p.doc
}

// mdBlocks is the state of the block parser, after commonmark.js: the open
// blocks form a path from the document to the tip; each line first
// continues what it can of that path, then opens new blocks, then adds its
// rest to the deepest block that takes lines.
type mdBlocks struct {
	doc, tip, oldTip, lastMatched *mdNode
	refs                          map[string]string // link reference definitions

	lineNo                   int
	cur                      string // the line being read
	offset, column           int
	nextNonspace, nextNonCol int
	indent                   int
	indented, blank, partTab bool
	allClosed                bool
}

// line reads one line.
func (p *mdBlocks) line(ln string) {
	p.lineNo++
	p.cur = ln
	p.offset, p.column, p.partTab, p.blank = 0, 0, false, false
	container := p.doc
	p.oldTip = p.tip
	allMatched := true
	for container.last != nil && container.last.open {
		container = container.last
		p.findNextNonspace()
		switch p.continues(container) {
		case 1:
			allMatched = false
			container = container.parent
		case 2:
			return // a closing fence: the line is used up
		}
		if !allMatched {
			break
		}
	}
	p.allClosed = container == p.oldTip
	p.lastMatched = container
	container = p.openNew(container)
	if !p.allClosed && !p.blank && p.tip.kind == mdParagraph {
		p.addLine() // a lazy continuation line
		return
	}
	p.closeUnmatched()
	switch {
	case acceptsLines(container.kind):
		p.addLine()
		if container.kind == mdHTMLBlock && container.htmlType >= 1 && container.htmlType <= 5 &&
			htmlBlockCloses(container.htmlType, p.rest(p.offset)) {
			p.finalize(container, p.lineNo)
		}
	case p.offset < len(ln) && !p.blank:
		p.addChild(mdParagraph)
		p.advanceNextNonspace()
		p.addLine()
	}
}

// openNew opens the blocks that start on the current line under
// container, and returns the deepest.
func (p *mdBlocks) openNew(container *mdNode) *mdNode {
	if container.kind != mdParagraph && acceptsLines(container.kind) {
		return container
	}
	for {
		p.findNextNonspace()
		if !p.indented && !mdMaybeSpecial(p.rest(p.nextNonspace)) {
			p.advanceNextNonspace()
			return container
		}
		switch p.start(container) {
		case 0:
			p.advanceNextNonspace()
			return container
		case 1:
			container = p.tip
		case 2:
			return p.tip
		}
		// 3: a marker past the nesting bound, dropped.
	}
}

// rest is the current line from byte i on.
func (p *mdBlocks) rest(i int) string {
	if i >= len(p.cur) {
		return ""
	}
	return p.cur[i:]
}

// peek is the byte at i of the current line, or 0 past its end.
func (p *mdBlocks) peek(i int) byte {
	if i < len(p.cur) {
		return p.cur[i]
	}
	return 0
}

// acceptsLines reports whether a block of kind k takes lines of text.
func acceptsLines(k mdKind) bool {
	return k == mdParagraph || k == mdCodeBlock || k == mdFencedCode || k == mdHTMLBlock
}

// mdMaybeSpecial reports whether s may start a block other than a
// paragraph, a quick test before trying each kind.
func mdMaybeSpecial(s string) bool {
	if s == "" {
		return false
	}
	switch c := s[0]; {
	case strings.IndexByte("#`~*+_=<>-", c) >= 0:
		return true
	case c >= '0' && c <= '9':
		return true
	}
	return false
}

func (p *mdBlocks) findNextNonspace() {
	i, cols := p.offset, p.column
	for i < len(p.cur) {
		if p.cur[i] == ' ' {
			i++
			cols++
		} else if p.cur[i] == '\t' {
			i++
			cols += 4 - cols%4
		} else {
			break
		}
	}
	p.blank = i >= len(p.cur)
	p.nextNonspace, p.nextNonCol = i, cols
	p.indent = cols - p.column
	p.indented = p.indent >= 4
}

func (p *mdBlocks) advanceNextNonspace() {
	p.offset, p.column, p.partTab = p.nextNonspace, p.nextNonCol, false
}

// advanceOffset moves count bytes on, or count columns when columns is
// set (a tab may then be consumed in part).
func (p *mdBlocks) advanceOffset(count int, columns bool) {
	for count > 0 && p.offset < len(p.cur) {
		if p.cur[p.offset] == '\t' {
			toTab := 4 - p.column%4
			if columns {
				p.partTab = toTab > count
				adv := min(toTab, count)
				p.column += adv
				if !p.partTab {
					p.offset++
				}
				count -= adv
			} else {
				p.partTab = false
				p.column += toTab
				p.offset++
				count--
			}
			continue
		}
		p.partTab = false
		p.offset++
		p.column++
		count--
	}
}

// addLine adds the rest of the line to the tip.
func (p *mdBlocks) addLine() {
	s := p.rest(p.offset)
	if p.partTab {
		p.offset++ // the rest of the tab, as spaces
		s = strings.Repeat(" ", 4-p.column%4) + p.rest(p.offset)
	}
	p.tip.lines = append(p.tip.lines, s)
}

// addChild opens a block of kind k under the tip, closing what cannot
// hold it.
func (p *mdBlocks) addChild(k mdKind) *mdNode {
	for !canContain(p.tip.kind, k) {
		p.finalize(p.tip, p.lineNo-1)
	}
	n := &mdNode{kind: k, open: true, startLine: p.lineNo}
	p.tip.append(n)
	p.tip = n
	return n
}

// nesting counts the quotes and list items n is in, n with them.
func nesting(n *mdNode) int {
	d := 0
	for ; n != nil; n = n.parent {
		if n.kind == mdQuote || n.kind == mdItem {
			d++
		}
	}
	return d
}

func canContain(parent, child mdKind) bool {
	switch parent {
	case mdDocument, mdQuote, mdItem:
		return child != mdItem
	case mdList:
		return child == mdItem
	}
	return false
}

// closeUnmatched closes the blocks the line did not continue.
func (p *mdBlocks) closeUnmatched() {
	if p.allClosed {
		return
	}
	for p.oldTip != p.lastMatched && p.oldTip != nil {
		parent := p.oldTip.parent
		p.finalize(p.oldTip, p.lineNo-1)
		p.oldTip = parent
	}
	p.allClosed = true
}

// continues tries to continue the open block n with the current line: 0
// when it does, 1 when it does not, 2 when the line ends n (a fence).
func (p *mdBlocks) continues(n *mdNode) int {
	switch n.kind {
	case mdQuote:
		if p.indented || p.peek(p.nextNonspace) != '>' {
			return 1
		}
		p.quoteMarker()
	case mdItem:
		return p.continueItem(n)
	case mdHeading, mdThematicBreak:
		return 1
	case mdFencedCode:
		return p.continueFence(n)
	case mdCodeBlock:
		switch {
		case p.indent >= 4:
			p.advanceOffset(4, true)
		case p.blank:
			p.advanceNextNonspace()
		default:
			return 1
		}
	case mdHTMLBlock:
		if p.blank && (n.htmlType == 6 || n.htmlType == 7) {
			return 1
		}
	case mdParagraph:
		if p.blank {
			return 1
		}
	}
	return 0
}

// quoteMarker moves past a > and the space after it.
func (p *mdBlocks) quoteMarker() {
	p.advanceNextNonspace()
	p.advanceOffset(1, false)
	if c := p.peek(p.offset); c == ' ' || c == '\t' {
		p.advanceOffset(1, true)
	}
}

// continueItem continues list item n: a blank line, or a line indented
// to its content.
func (p *mdBlocks) continueItem(n *mdNode) int {
	switch {
	case p.blank:
		if n.first == nil {
			return 1 // a blank line after an empty item
		}
		p.advanceNextNonspace()
	case p.indent >= n.list.markerOffset+n.list.padding:
		p.advanceOffset(n.list.markerOffset+n.list.padding, true)
	default:
		return 1
	}
	return 0
}

// continueFence continues fenced code n, or ends it at a closing fence at
// least as long as the opening one.
func (p *mdBlocks) continueFence(n *mdNode) int {
	if p.indent <= 3 && p.peek(p.nextNonspace) == n.fenceChar {
		if k := fenceRun(p.rest(p.nextNonspace)); k >= n.fenceLen && strings.Trim(p.rest(p.nextNonspace+k), " \t") == "" {
			p.finalize(n, p.lineNo)
			return 2
		}
	}
	for i := n.fenceIndent; i > 0; i-- {
		if c := p.peek(p.offset); c != ' ' && c != '\t' {
			break
		}
		p.advanceOffset(1, true)
	}
	return 0
}

// fenceRun is the length of the run of s's first byte at its start.
func fenceRun(s string) int {
	k := 0
	for k < len(s) && s[k] == s[0] {
		k++
	}
	return k
}

// finalize closes block n at line, leaving its parent the tip.
func (p *mdBlocks) finalize(n *mdNode, line int) {
	p.tip = n.parent
	n.open = false
	n.endLine = line
	switch n.kind {
	case mdItem:
		if n.last != nil {
			n.endLine = n.last.endLine
		} else {
			n.endLine = n.startLine
		}
	case mdParagraph:
		p.takeRefs(n)
		if len(n.lines) == 0 {
			n.unlink()
		}
	case mdFencedCode:
		if len(n.lines) > 0 {
			n.text = unescapeMarkdown(strings.Trim(n.lines[0], " \t"))
			n.lines = n.lines[1:]
		}
	case mdCodeBlock:
		for len(n.lines) > 0 && strings.Trim(n.lines[len(n.lines)-1], " \t") == "" {
			n.lines = n.lines[:len(n.lines)-1]
		}
	case mdList:
		n.list.tight = listTight(n)
		if n.last != nil {
			n.endLine = n.last.endLine
		}
	}
}

// listTight reports whether no item of l, and no block within an item,
// is followed by a blank line before its next sibling.
func listTight(l *mdNode) bool {
	for item := l.first; item != nil; item = item.nx {
		if item.nx != nil && endsWithBlank(item) {
			return false
		}
		for c := item.first; c != nil; c = c.nx {
			if c.nx != nil && endsWithBlank(c) {
				return false
			}
		}
	}
	return true
}

func endsWithBlank(n *mdNode) bool {
	return n.nx != nil && n.endLine != n.nx.startLine-1
}

// takeRefs takes the link reference definitions that start paragraph n
// into the parser's map, leaving the rest of its lines.
func (p *mdBlocks) takeRefs(n *mdNode) {
	if len(n.lines) == 0 || !strings.HasPrefix(strings.TrimLeft(n.lines[0], " \t"), "[") {
		return
	}
	src := strings.Join(n.lines, "\n")
	used := 0
	for {
		k, label, dest := refDefinition(src[used:])
		if k == 0 {
			break
		}
		if _, seen := p.refs[label]; !seen {
			p.refs[label] = dest
		}
		used += k
	}
	if used == 0 {
		return
	}
	rest := src[used:]
	if strings.Trim(rest, " \t\n") == "" {
		n.lines = nil
		return
	}
	n.lines = strings.Split(rest, "\n")
}

// inlines parses the inlines of every paragraph and heading under n.
func (p *mdBlocks) inlines(n *mdNode) {
	for c := n.first; c != nil; c = c.nx {
		switch c.kind {
		case mdParagraph:
			if rows, _ := tableRows(c); rows == nil {
				parseInlines(c, strings.Trim(strings.Join(c.lines, "\n"), " \t\n"), p.refs)
			}
		case mdHeading:
			parseInlines(c, c.text, p.refs)
		case mdDocument, mdQuote, mdList, mdItem:
			p.inlines(c)
		}
	}
}
