package ui

import (
	"strconv"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"mcpwitness/render"
)

// The detail pane's documents keep JSON lines whole (results,
// structuredContent, schemas, arguments) while prose wraps: a line wider
// than the pane is cut at its edge, and h/l (←/→ outside a replay, or a
// horizontal wheel) move the window sideways. The title line marks that
// there is more to the left or to the right.

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
	w := 0
	for _, l := range lines {
		w = max(w, ansi.StringWidth(l))
	}
	return detailDoc{lines: lines, widest: w, spans: spans}
}

// setDoc shows doc, keeping the verdict picked while the call has it and
// the window sideways within the widest line.
func (d *detailPane) setDoc(doc detailDoc) {
	d.doc = doc
	if d.pick > len(doc.spans) {
		d.pick = 0
	}
	d.sc.SetLines(d.markedLines())
	d.clampX()
}

// ScrollX moves the document's window sideways by n cells, within the
// widest line.
func (d *detailPane) ScrollX(n int) {
	d.sc.x += n
	d.clampX()
}

func (d *detailPane) clampX() { d.sc.x = max(min(d.sc.x, d.doc.widest-d.sc.w), 0) }

// sideways is what the title line says of the window sideways: the
// first column shown when it is scrolled, and whether lines go on past
// the right edge.
func (d *detailPane) sideways() (col int, more bool) {
	return d.sc.x, d.doc.widest > d.sc.x+d.sc.w
}

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

// wheelDetailX scrolls the detail pane sideways with a horizontal wheel
// while the pointer is over it; it says whether it did.
func (m *model) wheelDetailX(ms tea.Mouse) bool {
	l := m.lay
	switch {
	case ms.Button != tea.MouseWheelLeft && ms.Button != tea.MouseWheelRight,
		m.mode != modeNormal || m.tab != tabTools || m.whole.Shown(),
		ms.Y < l.bodyTop || ms.Y >= l.bodyTop+l.bodyH,
		l.stacked && m.focus != paneDetail, !l.stacked && ms.X < l.leftW+3:
		return false
	}
	if ms.Button == tea.MouseWheelLeft {
		m.detail.ScrollX(-scrollStep)
	} else {
		m.detail.ScrollX(scrollStep)
	}
	return true
}
