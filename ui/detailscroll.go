package ui

import (
	"strconv"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"mcpwitness/render"
	"mcpwitness/ui/panes"
)

// The documents of the detail pane, of an item's pane (resource contents,
// prompt messages, task results, definitions), of a view opened whole and
// of the wire pane's frame keep JSON lines whole while prose wraps: a line wider than the pane is
// cut at its edge, and h/l (←/→ outside a replay, or a horizontal wheel)
// move the window sideways. Each pane's title marks that there is more
// to the left or to the right. All of them scroll with the scroller's
// sideways window; this file holds what they share.

// scrollStep is how many cells one sideways key or wheel notch moves.
const scrollStep = 8

// detailDoc is a detail document as built: its lines, the width of the
// widest in cells, and where a call's verdicts are among them.
type detailDoc struct {
	lines  []string
	widest int
	spans  []render.VerdictSpan
}

// measured returns lines with the width of the widest. It measures every
// line once, when the document is built (in a command for a big one),
// so that drawing and scrolling never measure.
func measured(lines []string, spans []render.VerdictSpan) detailDoc {
	return detailDoc{lines: lines, widest: panes.MeasureLines(lines), spans: spans}
}

// setDoc shows doc, keeping the verdict picked while the call has it and
// the window sideways within the widest line.
func (d *detailPane) setDoc(doc detailDoc) {
	d.doc = doc
	if d.pick > len(doc.spans) {
		d.pick = 0
	}
	d.remark()
}

// remark gives the scroller the document's lines with the pick marked.
func (d *detailPane) remark() { d.sc.SetWide(d.markedLines(), d.doc.widest) }

// sidewaysMark is the title line's mark of a window scrolled sideways
// (from col, 0 when not) with more to the right (more): "" when neither.
func sidewaysMark(col int, more bool) string {
	out := ""
	if col > 0 {
		out = " ← col " + strconv.Itoa(col+1)
	}
	switch {
	case more && col > 0:
		out += " →"
	case more:
		out = " more →"
	}
	return out
}

// sidewaysKey scrolls sc sideways on k's keys; it says whether msg was
// one of them.
func sidewaysKey(msg tea.KeyPressMsg, k *panes.SidewaysKeyMap, sc *panes.Scroller) bool {
	switch {
	case key.Matches(msg, k.Left):
		sc.ScrollX(-scrollStep)
	case key.Matches(msg, k.Right):
		sc.ScrollX(scrollStep)
	default:
		return false
	}
	return true
}

// sidewaysHelp adds k's sideways binding to a help line when sc has
// lines wider than its window.
func sidewaysHelp(out []key.Binding, k *panes.SidewaysKeyMap, sc *panes.Scroller) []key.Binding {
	if col, more := sc.Sideways(); more || col > 0 {
		out = append(out, k.Right)
	}
	return out
}

// wheelDetailX scrolls the document on the right (the detail pane, an
// item's pane), or the wire pane's frame, sideways with a horizontal
// wheel while the pointer is over it; it says whether it did. An event opened whole has its own
// wheel (see [model.wheelWhole]).
func (m *model) wheelDetailX(ms tea.Mouse) bool {
	l := m.lay
	n := scrollStep
	if ms.Button == tea.MouseWheelLeft {
		n = -scrollStep
	}
	switch {
	case ms.Button != tea.MouseWheelLeft && ms.Button != tea.MouseWheelRight:
		return false
	case m.mode == modeWire && ms.Y >= l.bodyTop && ms.Y < l.bodyTop+l.bodyH:
		return m.wire.WheelX(ms.Y-l.bodyTop, n)
	case m.mode != modeNormal || m.whole.Shown(),
		ms.Y < l.bodyTop || ms.Y >= l.bodyTop+l.bodyH,
		l.stacked && m.focus != paneDetail, !l.stacked && ms.X < l.leftW+3:
		return false
	}
	sc := &m.detail.sc
	if m.tab != tabTools {
		sc = &m.item.sc
	}
	sc.ScrollX(n)
	return true
}
