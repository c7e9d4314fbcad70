package ui

import (
	"time"

	"mcpwitness/fold"
	"mcpwitness/themes"
)

// itemsDrawn is an items pane as Predraw drew it, and what that showed.
type itemsDrawn struct {
	text string
	key  itemsDrawKey
	// rows are the badges' inputs of the visible items: whether each is
	// subscribed to and when the server last said it changed.
	rows []itemDrawState
}

// itemsDrawKey is what the pane's title and visible rows depend on,
// besides the state of each visible item.
type itemsDrawKey struct {
	st                                 *fold.State
	sty                                *themes.Styles
	built                              itemsBuilt
	w, h, offset, cursor, count, nrows int
	focused, typing, stale, filtered   bool
	query                              string
}

// itemDrawState is what a visible item's badges read from outside it.
type itemDrawState struct {
	sub     bool
	updated time.Time
	read    bool
}

func (p *itemsPane) drawKey() itemsDrawKey {
	return itemsDrawKey{st: p.St, sty: p.Sty, built: p.built, w: p.w, h: p.h, offset: p.Offset, cursor: p.Cursor, count: p.count,
		nrows: len(p.Rows), focused: p.focused, typing: p.Typing, stale: p.built.walk.Stale(), filtered: p.hits != nil, query: p.Query}
}

// rowStates appends the state of each visible item to out.
func (p *itemsPane) rowStates(out []itemDrawState) []itemDrawState {
	for n := p.Offset; n < min(p.Offset+p.ListHeight(), len(p.Rows)); n++ {
		it := p.Rows[n].item
		if it == nil || it.URI == "" {
			out = append(out, itemDrawState{})
			continue
		}
		t, _ := p.St.Updated(it.URI)
		out = append(out, itemDrawState{sub: p.Subscribed(it.URI), updated: t, read: p.updatedSinceRead(it.URI)})
	}
	return out
}

// sameDrawn says whether what Predraw drew is what the pane shows now.
func (p *itemsPane) sameDrawn() bool {
	if p.Typing || p.drawKey() != p.drawn.key {
		return false
	}
	var buf [64]itemDrawState
	now := p.rowStates(buf[:0])
	if len(now) != len(p.drawn.rows) {
		return false
	}
	for i := range now {
		if now[i] != p.drawn.rows[i] {
			return false
		}
	}
	return true
}

// Predraw draws the pane again when what it shows changed, in Update: a
// frame with nothing new in the pane costs a comparison.
func (p *itemsPane) Predraw() {
	if p.Typing {
		return // the input's cursor blinks
	}
	if p.drawn.text != "" && p.sameDrawn() {
		return
	}
	p.drawn.text, p.drawn.key = p.draw(), p.drawKey()
	p.drawn.rows = p.rowStates(p.drawn.rows[:0])
}
