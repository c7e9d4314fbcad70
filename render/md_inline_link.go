package render

import "strings"

// pushBracket puts a [ (or ![) on the bracket stack; past mdMaxNesting it
// stays text.
func (p *mdInline) pushBracket(n *mdNode, index int, image bool) {
	if p.nbrack >= mdMaxNesting {
		return
	}
	if p.brack != nil {
		p.brack.bracketAfter = true
	}
	p.brack = &mdBracket{node: n, prev: p.brack, prevDelim: p.delims, index: index, image: image, active: true}
	p.nbrack++
}

func (p *mdInline) popBracket() {
	p.brack = p.brack.prev
	p.nbrack--
}

// closeBracket reads a ]: the end of a link or image when an inline
// target or a defined reference follows, else text.
func (p *mdInline) closeBracket() {
	p.pos++
	start := p.pos
	opener := p.brack
	if opener == nil {
		p.text("]")
		return
	}
	if !opener.active {
		p.popBracket()
		p.text("]")
		return
	}
	dest, ok := p.inlineTarget()
	if !ok {
		p.pos = start
		label := ""
		if k := linkLabel(p.s[p.pos:]); k > 2 {
			label = p.s[p.pos : p.pos+k]
			p.pos += k
		} else {
			if !opener.bracketAfter {
				label = p.s[opener.index:start]
			}
			if k == 2 {
				p.pos += k
			}
		}
		if label != "" && len(label) <= 1001 {
			dest, ok = p.refs[normalizeLabel(label)]
		}
		if !ok {
			p.pos = start
		}
	}
	if !ok {
		p.popBracket()
		p.text("]")
		return
	}
	link := &mdNode{kind: mdLink, dest: dest}
	if opener.image {
		link.kind = mdImage
	}
	for t := opener.node.nx; t != nil; {
		next := t.nx
		link.append(t)
		t = next
	}
	p.block.append(link)
	p.emphasis(opener.prevDelim)
	p.popBracket()
	opener.node.unlink()
	if !opener.image {
		for b := p.brack; b != nil; b = b.prev {
			if !b.image {
				b.active = false
			}
		}
	}
}

// inlineTarget reads (dest "title") after a ], moving past it.
func (p *mdInline) inlineTarget() (string, bool) {
	start := p.pos
	if p.pos >= len(p.s) || p.s[p.pos] != '(' {
		return "", false
	}
	p.pos++
	p.spnl()
	dest, k := linkDestination(p.s[p.pos:])
	if k < 0 {
		p.pos = start
		return "", false
	}
	p.pos += k
	before := p.pos
	p.spnl()
	if p.pos > before {
		if k := p.linkTitle(); k > 0 {
			p.pos += k
			p.spnl()
		}
	}
	if p.pos < len(p.s) && p.s[p.pos] == ')' {
		p.pos++
		return dest, true
	}
	p.pos = start
	return "", false
}

// spnl skips spaces and at most one line ending.
func (p *mdInline) spnl() {
	p.skipSpaces()
	if p.pos < len(p.s) && p.s[p.pos] == '\n' {
		p.pos++
		p.skipSpaces()
	}
}

// linkTitle measures the "title", 'title' or (title) at pos; 0 when there
// is none.
func (p *mdInline) linkTitle() int {
	if p.pos >= len(p.s) {
		return 0
	}
	open := p.s[p.pos]
	end := open
	switch open {
	case '"', '\'':
	case '(':
		end = ')'
	default:
		return 0
	}
	key := "title" + string(open)
	if from, ok := p.noEnd[key]; ok && p.pos >= from {
		return 0
	}
	k := titleLen(p.s[p.pos:], open, end)
	if k == 0 {
		p.setNoEnd(key)
	}
	return k
}

func (p *mdInline) setNoEnd(key string) {
	if p.noEnd == nil {
		p.noEnd = map[string]int{}
	}
	if _, ok := p.noEnd[key]; !ok {
		p.noEnd[key] = p.pos
	}
}

// titleLen measures a link title that starts s (with open), 0 when it
// does not end.
func titleLen(s string, open, end byte) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case end:
			return i + 1
		case open:
			return 0 // only a ( title cannot hold another (
		}
	}
	return 0
}

// autolink reads <scheme:…> or <address@host>.
func (p *mdInline) autolink() bool {
	s := p.s[p.pos:]
	end := strings.IndexByte(s, '>')
	if end < 0 {
		return false
	}
	body := s[1:end]
	switch {
	case isURIAutolink(body):
		p.block.append(&mdNode{kind: mdAutoLink, text: body, dest: body})
	case isEmailAutolink(body):
		p.block.append(&mdNode{kind: mdAutoLink, text: body, dest: body})
	default:
		return false
	}
	p.pos += end + 1
	return true
}

// rawHTML reads an inline HTML tag, comment, processing instruction,
// declaration or CDATA section.
func (p *mdInline) rawHTML() bool {
	s := p.s[p.pos:]
	kind := htmlKind(s)
	if from, ok := p.noEnd[kind]; ok && p.pos >= from {
		return false
	}
	k := htmlTagLen(s)
	if k == 0 {
		if kind != "tag" && (kind != "decl" || (len(s) > 2 && isLetter(s[2]))) {
			p.setNoEnd(kind) // no end from here: none from later either
		}
		return false
	}
	p.block.append(&mdNode{kind: mdRawHTML, text: s[:k]})
	p.pos += k
	return true
}
