package panes

import (
	"strconv"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"mcpwitness/render"
)

// The documents of the detail pane, of an item's pane (resource contents,
// prompt messages, task results, definitions), of a view opened whole and
// of the wire pane's frame keep JSON lines whole while prose wraps: a line wider than the pane is
// cut at its edge, and h/l (←/→ outside a replay, or a horizontal wheel)
// move the window sideways. Each pane's title marks that there is more
// to the left or to the right. All of them scroll with the scroller's
// sideways window; this file holds what they share.

// BigDoc is the size of raw JSON past which a document is built in a
// command instead of in Update.
const BigDoc = 64 << 10

// ScrollStep is how many cells one sideways key or wheel notch moves.
const ScrollStep = 8

// DetailDoc is a detail document as built: its lines, the width of the
// widest in cells, and where a call's verdicts are among them.
type DetailDoc struct {
	Lines  []string
	Widest int
	Spans  []render.VerdictSpan
}

// Measured returns lines with the width of the widest. It measures every
// line once, when the document is built (in a command for a big one),
// so that drawing and scrolling never measure.
func Measured(lines []string, spans []render.VerdictSpan) DetailDoc {
	return DetailDoc{Lines: lines, Widest: MeasureLines(lines), Spans: spans}
}

// SidewaysMark is the title line's mark of a window scrolled sideways
// (from col, 0 when not) with more to the right (more): "" when neither.
func SidewaysMark(col int, more bool) string {
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

// SidewaysKey scrolls sc sideways on k's keys; it says whether msg was
// one of them.
func SidewaysKey(msg tea.KeyPressMsg, k *SidewaysKeyMap, sc *Scroller) bool {
	switch {
	case key.Matches(msg, k.Left):
		sc.ScrollX(-ScrollStep)
	case key.Matches(msg, k.Right):
		sc.ScrollX(ScrollStep)
	default:
		return false
	}
	return true
}

// SidewaysHelp adds k's sideways binding to a help line when sc has
// lines wider than its window.
func SidewaysHelp(out []key.Binding, k *SidewaysKeyMap, sc *Scroller) []key.Binding {
	if col, more := sc.Sideways(); more || col > 0 {
		out = append(out, k.Right)
	}
	return out
}
