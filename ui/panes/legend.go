package panes

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"mcpwitness/fold"
	"mcpwitness/render"
)

// The held/own legend: one sentence each, as the full help and the
// tools pane's legend line say them.
const (
	HeldMeaning = "a typical client (the TypeScript SDK) checks calls to it too: one page, the latest answer, nothing out"
	OwnMeaning  = "only mcpwitness checks calls to it; a typical client would not"
)

// callsW is the width of the calls column: a mark and up to three digits.
const callsW = 5

// callsCell draws how the calls of t went, callsW cells wide: the mark of
// the newest that ended (✓ ✗ ! ⊘ ? ⋯) and how many were made. Blank for
// a tool not called; no column at all (width 0) before any call.
func (p *ToolsPane) callsCell(t *fold.Tool) (string, int) {
	if p.St.ToolStatsRev() == 0 {
		return "", 0
	}
	st := p.St.ToolStats(t.Name)
	if st.Calls == 0 {
		return strings.Repeat(" ", callsW), callsW
	}
	mark := "⋯"
	if st.Ended > 0 {
		mark = render.OutcomeMark(st.Last)
	}
	n := fmt.Sprint(st.Calls)
	if st.Calls > 999 {
		n = "999+"
	}
	text := p.pt.Badge[mark] + " " + p.pt.Text.On(n)
	return text + strings.Repeat(" ", max(callsW-2-len(n), 0)), max(callsW, 2+len(n))
}

// heldCell draws the held/own column, dim, 4 cells wide; nothing while it
// is hidden. Before the walk ends it is blank: held or own is not known.
func (p *ToolsPane) heldCell(done, held bool) (string, int) {
	if p.hideHeld {
		return "", 0
	}
	switch {
	case !done:
		return "    ", 4
	case held:
		return p.pt.Badge["held"], 4
	}
	return p.pt.Badge["own"] + " ", 4
}

// legendShown says whether the legend line of the held/own column shows:
// while the column does, on a pane tall enough to spare the row.
func (p *ToolsPane) legendShown() bool { return !p.hideHeld && p.h >= 8 }

// legendRows is the rows the legend takes from the list.
func (p *ToolsPane) legendRows() int {
	if p.legendShown() {
		return 1
	}
	return 0
}

// legend is the line under the list that says what held and own mean,
// the longest form that fits the pane.
func (p *ToolsPane) legend() string {
	hide := p.keys.Held.Help().Key
	for _, text := range []string{
		"held: a typical client checks its calls too · own: only mcpwitness does · " + hide + " hides",
		"held: clients check its calls too · own: only mcpwitness does · " + hide + " hides",
		"held: clients check too · own: only mcpwitness does · " + hide + " hides",
		"held: clients check too · own: only mcpwitness · " + hide,
		"held: clients check · own: only us · " + hide + " hides",
		"held: clients check · own: we do",
	} {
		if ansi.StringWidth(text)+1 <= p.w {
			return render.Fit(" "+p.Sty.Subtle.Render(text), p.w)
		}
	}
	return render.Fit(" "+p.Sty.Subtle.Render("held/own: ? says"), p.w)
}

// ToggleHeld hides the held/own column and its legend, or shows them.
func (p *ToolsPane) ToggleHeld() {
	p.hideHeld = !p.hideHeld
	p.SetSize(p.w, p.h)
}

// HeldHidden says whether the held/own column is hidden.
func (p *ToolsPane) HeldHidden() bool { return p.hideHeld }
