package render

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// mdInline is the state of the inline parser of one paragraph or heading,
// after commonmark.js: text is read left to right; runs of * and _ go on a
// delimiter stack and [ and ![ on a bracket stack, matched when a closer
// comes (emphasis) or a ] (links), so that no input is read twice but for
// bounded look-aheads.
type mdInline struct {
	s      string
	pos    int
	block  *mdNode
	refs   map[string]string
	delims *mdDelim
	brack  *mdBracket
	nbrack int // brackets on the stack
	// ticks are the starts of the runs of backticks of each length (to
	// find a code span's end without reading on to the end each time).
	ticks map[int][]int
	// noEnd remembers look-aheads that found no end: from a later start
	// they find none either.
	noEnd map[string]int
}

// mdDelim is a run of * or _ on the delimiter stack.
type mdDelim struct {
	c                 byte
	n, orig           int
	node              *mdNode
	prev, next        *mdDelim
	canOpen, canClose bool
}

// mdBracket is a [ or ![ on the bracket stack.
type mdBracket struct {
	node         *mdNode
	prev         *mdBracket
	prevDelim    *mdDelim
	index        int // where the [ is in the text
	image        bool
	active       bool
	bracketAfter bool
}

// parseInlines parses s into the inline children of block.
func parseInlines(block *mdNode, s string, refs map[string]string) {
	p := &mdInline{s: s, block: block, refs: refs}
	for p.pos < len(p.s) {
		p.one()
	}
	p.emphasis(nil)
	mergeText(block)
}

// text appends a text inline.
func (p *mdInline) text(s string) *mdNode {
	n := &mdNode{kind: mdText, text: s}
	p.block.append(n)
	return n
}

// one parses the inline at pos.
func (p *mdInline) one() {
	switch c := p.s[p.pos]; c {
	case '\n':
		p.newline()
	case '\\':
		p.backslash()
	case '`':
		p.backticks()
	case '*', '_':
		p.delim(c)
	case '[':
		p.pos++
		p.pushBracket(p.text("["), p.pos-1, false)
	case '!':
		p.pos++
		if p.pos < len(p.s) && p.s[p.pos] == '[' {
			p.pos++
			p.pushBracket(p.text("!["), p.pos-1, true)
		} else {
			p.text("!")
		}
	case ']':
		p.closeBracket()
	case '<':
		if !p.autolink() && !p.rawHTML() {
			p.pos++
			p.text("<")
		}
	case '&':
		if k, r := entityAt(p.s[p.pos:]); k > 0 {
			p.text(r)
			p.pos += k
		} else {
			p.pos++
			p.text("&")
		}
	default:
		end := p.pos + 1
		for end < len(p.s) && strings.IndexByte("\n\\`*_[]!<&", p.s[end]) < 0 {
			end++
		}
		p.text(p.s[p.pos:end])
		p.pos = end
	}
}

// newline ends a line: a hard break after two spaces, else a soft one;
// the spaces around it go.
func (p *mdInline) newline() {
	p.pos++
	hard := false
	if l := p.block.last; l != nil && l.kind == mdText && strings.HasSuffix(l.text, " ") {
		hard = strings.HasSuffix(l.text, "  ")
		l.text = strings.TrimRight(l.text, " ")
	}
	if hard {
		p.block.append(&mdNode{kind: mdHardBreak})
	} else {
		p.block.append(&mdNode{kind: mdSoftBreak})
	}
	p.skipSpaces()
}

func (p *mdInline) skipSpaces() {
	for p.pos < len(p.s) && (p.s[p.pos] == ' ' || p.s[p.pos] == '\t') {
		p.pos++
	}
}

// backslash reads an escape: a punctuation character as itself, a line
// ending as a hard break.
func (p *mdInline) backslash() {
	p.pos++
	switch {
	case p.pos < len(p.s) && p.s[p.pos] == '\n':
		p.pos++
		p.block.append(&mdNode{kind: mdHardBreak})
		p.skipSpaces()
	case p.pos < len(p.s) && isEscapable(p.s[p.pos]):
		p.text(p.s[p.pos : p.pos+1])
		p.pos++
	default:
		p.text("\\")
	}
}

// isEscapable reports whether c is ASCII punctuation, which a backslash
// escapes.
func isEscapable(c byte) bool {
	return c < 0x80 && c > ' ' && c != 0x7f && !(c >= '0' && c <= '9') && !(c|0x20 >= 'a' && c|0x20 <= 'z')
}

// backticks reads a code span, or the run of backticks as text when no
// run as long closes it.
func (p *mdInline) backticks() {
	start := p.pos
	n := fenceRun(p.s[start:])
	after := start + n
	if p.ticks == nil {
		p.ticks = map[int][]int{}
		for i := 0; i < len(p.s); {
			if p.s[i] != '`' {
				i++
				continue
			}
			k := fenceRun(p.s[i:])
			p.ticks[k] = append(p.ticks[k], i)
			i += k
		}
	}
	runs := p.ticks[n]
	for len(runs) > 0 && runs[0] < after {
		runs = runs[1:]
	}
	p.ticks[n] = runs
	if len(runs) == 0 {
		p.pos = after
		p.text(p.s[start:after])
		return
	}
	code := strings.ReplaceAll(p.s[after:runs[0]], "\n", " ")
	if len(code) >= 2 && code[0] == ' ' && code[len(code)-1] == ' ' && strings.Trim(code, " ") != "" {
		code = code[1 : len(code)-1]
	}
	p.block.append(&mdNode{kind: mdCodeSpan, text: code})
	p.pos = runs[0] + n
}

// delim pushes a run of * or _ as text and on the delimiter stack.
func (p *mdInline) delim(c byte) {
	start := p.pos
	n := fenceRun(p.s[start:])
	p.pos += n
	before, after := '\n', '\n'
	if start > 0 {
		before, _ = utf8.DecodeLastRuneInString(p.s[:start])
	}
	if p.pos < len(p.s) {
		after, _ = utf8.DecodeRuneInString(p.s[p.pos:])
	}
	afterSpace, afterPunct := unicode.IsSpace(after), isPunct(after)
	beforeSpace, beforePunct := unicode.IsSpace(before), isPunct(before)
	left := !afterSpace && (!afterPunct || beforeSpace || beforePunct)
	right := !beforeSpace && (!beforePunct || afterSpace || afterPunct)
	d := &mdDelim{c: c, n: n, orig: n, node: p.text(p.s[start:p.pos]), prev: p.delims, canOpen: left, canClose: right}
	if c == '_' {
		d.canOpen = left && (!right || beforePunct)
		d.canClose = right && (!left || afterPunct)
	}
	if p.delims != nil {
		p.delims.next = d
	}
	p.delims = d
}

// isPunct reports whether r is Unicode punctuation or a symbol.
func isPunct(r rune) bool {
	if r < 0x80 {
		return isEscapable(byte(r))
	}
	return unicode.IsPunct(r) || unicode.IsSymbol(r)
}

func (p *mdInline) removeDelim(d *mdDelim) {
	if d.prev != nil {
		d.prev.next = d.next
	}
	if d.next != nil {
		d.next.prev = d.prev
	} else {
		p.delims = d.prev
	}
}

// emphasis matches the delimiters above bottom into emphasis, as
// CommonMark's "process emphasis" does, then drops them from the stack.
func (p *mdInline) emphasis(bottom *mdDelim) {
	var openersBottom [2][6]*mdDelim // by character, then can-open and length mod 3
	for i := range openersBottom {
		for j := range openersBottom[i] {
			openersBottom[i][j] = bottom
		}
	}
	closer := p.delims
	for closer != nil && closer.prev != bottom {
		closer = closer.prev
	}
	for closer != nil {
		if !closer.canClose {
			closer = closer.next
			continue
		}
		ci := 0
		if closer.c == '_' {
			ci = 1
		}
		bi := closer.orig % 3
		if closer.canOpen {
			bi += 3
		}
		opener := findOpener(closer, bottom, openersBottom[ci][bi])
		old := closer
		if opener != nil {
			closer = p.matchEmphasis(opener, closer)
			continue
		}
		closer = closer.next
		openersBottom[ci][bi] = old.prev
		if !old.canOpen {
			p.removeDelim(old)
		}
	}
	for p.delims != nil && p.delims != bottom {
		p.removeDelim(p.delims)
	}
}

// findOpener looks down the stack from closer, no further than bottom
// and stop, for the opener it closes; nil when there is none. The rule of
// three: a run that can both open and close does not match one whose
// lengths add up to a multiple of three, unless both are.
func findOpener(closer, bottom, stop *mdDelim) *mdDelim {
	for o := closer.prev; o != nil && o != bottom && o != stop; o = o.prev {
		odd := (closer.canOpen || o.canClose) && closer.orig%3 != 0 && (o.orig+closer.orig)%3 == 0
		if o.c == closer.c && o.canOpen && !odd {
			return o
		}
	}
	return nil
}

// matchEmphasis wraps what is between opener and closer in an emphasis
// and returns the closer to go on from.
func (p *mdInline) matchEmphasis(opener, closer *mdDelim) *mdDelim {
	use := 1
	if closer.n >= 2 && opener.n >= 2 {
		use = 2
	}
	on, cn := opener.node, closer.node
	opener.n -= use
	closer.n -= use
	on.text = on.text[:len(on.text)-use]
	cn.text = cn.text[:len(cn.text)-use]
	em := &mdNode{kind: mdEmph, level: use}
	for t := on.nx; t != nil && t != cn; {
		next := t.nx
		em.append(t)
		t = next
	}
	on.insertAfter(em)
	// The delimiters between opener and closer are spent.
	opener.next = closer
	closer.prev = opener
	if opener.n == 0 {
		on.unlink()
		p.removeDelim(opener)
	}
	if closer.n == 0 {
		cn.unlink()
		next := closer.next
		p.removeDelim(closer)
		return next
	}
	return closer
}

// mergeText joins adjacent text inlines under n, as the parser splits
// text wherever a mark might have started.
func mergeText(n *mdNode) {
	for c := n.first; c != nil; c = c.nx {
		if c.first != nil {
			mergeText(c)
		}
		if c.kind != mdText {
			continue
		}
		var b *strings.Builder
		for c.nx != nil && c.nx.kind == mdText {
			if b == nil {
				b = &strings.Builder{}
				b.WriteString(c.text)
			}
			b.WriteString(c.nx.text)
			c.nx.unlink()
		}
		if b != nil {
			c.text = b.String()
		}
	}
}
