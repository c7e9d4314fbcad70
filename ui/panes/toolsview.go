package panes

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"mcpwitness/fold"
	"mcpwitness/render"
	"mcpwitness/sanitize"
)

// toolsDrawKey is what the pane's visible rows and title depend on: when
// it is the same, the rows drawn last are still right.
type toolsDrawKey struct {
	st                          *fold.State
	w, h, Offset, Cursor, Shown int
	rowsVer, hitsVer, count     int
	walk                        *fold.Walk
	focused, done, held, stale  bool
	typing                      bool
	query                       string
	statsRev                    int  // the tools' call summaries
	hideHeld                    bool // the held/own column is hidden
}

// drawKey is the key of what View would draw now.
func (p *ToolsPane) drawKey() toolsDrawKey {
	h := p.ListHeight()
	k := toolsDrawKey{st: p.St, w: p.w, h: h, Offset: p.Offset, Cursor: p.Cursor, Shown: min(max(len(p.Rows)-p.Offset, 0), h),
		rowsVer: p.rowsVer, hitsVer: p.hitsVer, walk: p.builtWalk, focused: p.focused, typing: p.Typing, query: p.Query,
		statsRev: p.St.ToolStatsRev(), hideHeld: p.hideHeld}
	if w := p.builtWalk; w != nil {
		k.count, k.done, k.stale = len(w.Tools), w.Done, w.Stale()
		k.held = p.St.Held(w)
	}
	return k
}

// Predraw draws the visible rows and the title again when what they show
// changed, in Update, so that a frame with nothing new in the pane costs
// a comparison (a walk's wire frames and list requests change nothing
// here). The styles changing makes a new common, and so a new key.
func (p *ToolsPane) Predraw() {
	if p.Typing {
		return // the input's cursor blinks
	}
	if k := p.drawKey(); k != p.drawnKey || p.drawnSty != p.Sty {
		p.drawn, p.drawnKey, p.drawnSty = p.Draw(), k, p.Sty
	}
}

// View renders the title and the visible rows only, or returns them as
// Predraw drew them when nothing they show changed since.
func (p *ToolsPane) View() string {
	if !p.Typing && p.drawn != "" && p.drawnSty == p.Sty && p.drawKey() == p.drawnKey {
		return p.drawn
	}
	return p.Draw()
}

// Draw renders the title and the visible rows.
func (p *ToolsPane) Draw() string {
	held := p.St.Held(p.builtWalk)
	stale := p.builtWalk.Stale()
	done := p.builtWalk != nil && p.builtWalk.Done
	out := p.DrawList(p.title(), p.ListHeight(), p.w, p.emptyLine, p.separator,
		func(r toolRow, cur bool) string { return p.ToolLine(r.Tool, cur, done, held, stale) })
	if p.legendShown() {
		out += "\n" + p.legend()
	}
	return out
}

func (p *ToolsPane) emptyLine() string { return " " + p.Sty.Muted.Render(p.emptyText()) }

func (p *ToolsPane) emptyText() string {
	w := p.St.LatestTools()
	switch {
	case p.Query != "" && p.Hits != nil:
		return "no tool matches " + sanitize.Line(p.Query)
	case p.Query != "":
		return "filtering…"
	case w == nil:
		return "no walk yet"
	case !w.Done:
		return "waiting for page 1…"
	case w.Err != "":
		return "no tools: " + sanitize.Line(w.Err)
	}
	return "the server listed no tools"
}

func (p *ToolsPane) title() string {
	style := p.TitleStyle(p.focused)
	count := 0
	if w := p.builtWalk; w != nil {
		count = len(w.Tools)
	}
	counted := fmt.Sprint(count)
	if p.Hits != nil {
		counted = fmt.Sprintf("%d of %d", p.toolRows, count)
	}
	left := style.Render("Tools") + " " + p.Sty.Muted.Render(counted)
	right := ""
	if w := p.builtWalk; w != nil {
		right = p.Sty.Subtle.Render(fmt.Sprintf("walk #%d", w.ID))
	}
	return p.TitleLine(left, right, p.w)
}

func (p *ToolsPane) separator(r toolRow) string {
	shown := -1
	if p.Hits != nil {
		shown = r.Hits
	}
	return p.pt.PageLine(r.Page, shown, "tool", "tools", p.w, p.Sty.Separator)
}

// badges returns the badges of t, most important first, and their width.
// Held and own are a column of their own (see [ToolsPane.heldCell]).
func (p *ToolsPane) badges(t *fold.Tool, stale bool) (string, int) {
	var names [8]string
	n := 0
	add := func(s string) { names[n] = s; n++ }
	if t.Bad != "" {
		add("bad")
	}
	if len(t.Unsafe) > 0 {
		add("hidden")
	}
	if t.TaskSupport == "required" {
		add("task")
	}
	if t.Output != nil {
		add("out")
	}
	switch {
	case t.Destructive:
		add("destr")
	case t.ReadOnly:
		add("ro")
	}
	if stale {
		add("stale")
	}
	var b strings.Builder
	w := 0
	for i, name := range names[:n] {
		if i > 0 {
			b.WriteByte(' ')
			w++
		}
		b.WriteString(p.pt.Badge[name])
		w += len(name)
	}
	return b.String(), w
}

// ToolLine draws one tool row, exactly p.w cells wide: the name, how its
// calls went (see [ToolsPane.callsCell]), its badges and the held/own
// column.
func (p *ToolsPane) ToolLine(t *fold.Tool, selected, done, held, stale bool) string {
	badges, bw := p.badges(t, stale)
	calls, cw := p.callsCell(t)
	hcell, hw := p.heldCell(done, held)
	if cw > 0 {
		badges, bw = calls+" "+badges, bw+cw+1
	}
	if hw > 0 {
		badges, bw = badges+" "+hcell, bw+hw+1
	}
	nameW := p.w - bw - 5
	if nameW < 8 {
		badges, nameW = "", p.w-5
	}
	name := render.Trunc(t.Label, nameW)
	pad := strings.Repeat(" ", nameW-ansi.StringWidth(name))
	if selected {
		return p.pt.SelectedLine(name+pad, badges, p.focused, p.Sty.Mono)
	}
	styled := p.pt.Text.On(name)
	if h := p.Hits[t]; len(h.Pos) > 0 {
		styled = render.Highlight(name, h.Pos, p.Sty.Text, p.Sty.Match)
	}
	return "  " + styled + pad + "  " + badges + " "
}
