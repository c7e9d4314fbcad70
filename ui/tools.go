package ui

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"mcpwitness/fold"
	"mcpwitness/match"
	"mcpwitness/themes"
	"mcpwitness/ui/panes"
)

// syncFilterMax is the most tools filtered in Update; longer lists are
// filtered in a command.
const syncFilterMax = 1000

// toolRow is one row of the tools pane: a page separator or a tool.
type toolRow struct {
	page *fold.Page // set on a separator
	hits int        // on a separator: tools of the page the filter kept
	tool *fold.Tool
}

// toolsPane lists the tools of the shown walk in page order, with a
// separator row per page, and filters them.
type toolsPane struct {
	*panes.Common
	keys *panes.ToolsKeyMap
	w, h int

	focused bool
	pagedList[toolRow]
	toolRows int // tool rows in rows (the others are separators)

	// What rows were built from.
	builtWalk  *fold.Walk
	builtPages int
	builtVer   int

	panes.FilterInput
	// hits are the tools the last filter result kept (nil: no filter
	// applied), hitsVer counts results applied.
	hits      map[*fold.Tool]match.Hit
	hitsQuery string // the query hits are for
	hitsVer   int
	filterSeq int
	asked     filterAsk // the newest filter run started

	pt toolPaints
	// hideHeld hides the held/own column and its legend (see legend.go).
	hideHeld bool
	// rowsVer counts the rebuilds of rows in place; drawn is the pane as
	// Predraw drew it, for drawnKey in the styles drawnSty.
	rowsVer  int
	drawn    string
	drawnKey toolsDrawKey
	drawnSty *themes.Styles
}

// toolPaints are the pane's styles as paints, and its badges pre-drawn.
type toolPaints struct {
	text, sel, selBlur, marker, sep panes.Paint
	badge                           map[string]string // badge text → drawn
}

// filterAsk is what one filter run was started for.
type filterAsk struct {
	w *fold.Walk
	n int
	q string
}

func newToolsPane(c *panes.Common, keys *panes.ToolsKeyMap) toolsPane {
	p := toolsPane{Common: c, keys: keys, FilterInput: panes.NewFilterInput(&keys.MoveKeyMap, &keys.Filter)}
	p.restyle()
	return p
}

func (p *toolsPane) restyle() {
	p.FilterInput.Restyle(p.Sty)
	p.pt = newToolPaints(p.Sty)
}

// newToolPaints paints the styles st of a list pane.
func newToolPaints(st *themes.Styles) toolPaints {
	pt := toolPaints{text: panes.NewPaint(st.Text.Render), sel: panes.NewPaint(st.Selected.Render), selBlur: panes.NewPaint(st.SelectedBlurred.Render),
		marker: panes.NewPaint(st.Title.Render), sep: panes.NewPaint(st.Separator.Render), badge: map[string]string{}}
	for text, style := range map[string]lipgloss.Style{"bad": st.Fail, "hidden": st.Warn, "task": st.BadgeTask, "out": st.BadgeOut, "destr": st.BadgeDestr,
		"ro": st.BadgeRO, "stale": st.BadgeStale, "held": st.Subtle, "own": st.Subtle} {
		pt.badge[text] = style.Render(text)
	}
	// The marks of how a tool's calls went (see [toolsPane.callsCell]).
	for mark, style := range map[string]lipgloss.Style{"✓": st.Pass, "✗": st.Fail, "!": st.Warn, "⊘": st.Warn, "?": st.Warn, "⋯": st.Muted} {
		pt.badge[mark] = style.Render(mark)
	}
	return pt
}

func (p *toolsPane) SetSize(w, h int) {
	p.w, p.h = w, h
	p.SetWidth(w)
	p.setHeight(h - 1 - p.legendRows())
}

// Selected returns the selected tool, or nil.
func (p *toolsPane) Selected() *fold.Tool {
	if p.cursor >= 0 && p.cursor < len(p.rows) {
		return p.rows[p.cursor].tool
	}
	return nil
}

// Sync rebuilds the rows when the shown walk or the filter result changed,
// and starts a filter run when tools arrived under an active filter.
func (p *toolsPane) Sync() tea.Cmd {
	w := p.St.Shown()
	var cmd tea.Cmd
	pages, n := 0, 0
	if w != nil {
		pages, n = len(w.Pages), len(w.Tools)
	}
	if p.Query != "" && p.asked != (filterAsk{w, n, p.Query}) {
		cmd = p.runFilter()
	}
	switch {
	case w == p.builtWalk && pages == p.builtPages && p.hitsVer == p.builtVer:
		if w != nil && w.Done && p.Pending() {
			// The walk ended without the picked tool: it is gone.
			p.reselect()
		}
		return cmd
	case w == p.builtWalk && p.hits == nil && p.hitsVer == p.builtVer && pages > p.builtPages:
		// Pages arrived and nothing is filtered: append them.
		for i := p.builtPages; i < pages; i++ {
			p.appendPage(&w.Pages[i], w)
		}
	default:
		p.rows, p.toolRows = p.rows[:0], 0
		p.rowsVer++
		if w != nil {
			for _, i := range p.pageOrder(w) {
				p.appendPage(&w.Pages[i], w)
			}
		}
	}
	p.builtWalk, p.builtPages, p.builtVer = w, pages, p.hitsVer
	p.reselect()
	return cmd
}

func (p *toolsPane) appendPage(pg *fold.Page, w *fold.Walk) {
	if w.Tools == nil {
		return
	}
	tools := w.Tools[pg.First : pg.First+pg.Count]
	if p.hits == nil {
		p.rows = append(p.rows, toolRow{page: pg, hits: len(tools)})
		for _, t := range tools {
			p.rows = append(p.rows, toolRow{tool: t})
		}
		p.toolRows += len(tools)
		return
	}
	sep := len(p.rows)
	p.rows = append(p.rows, toolRow{page: pg})
	for _, t := range tools {
		if _, ok := p.hits[t]; ok {
			p.rows = append(p.rows, toolRow{tool: t})
		}
	}
	// The best matches of the page first; equals keep the server's order.
	slices.SortStableFunc(p.rows[sep+1:], func(a, b toolRow) int { return int(p.hits[a.tool].Rank - p.hits[b.tool].Rank) })
	if n := len(p.rows) - sep - 1; n == 0 {
		p.rows = p.rows[:sep]
	} else {
		p.rows[sep].hits = n
		p.toolRows += n
	}
}

// pageOrder returns the indexes of w's pages in the order shown: the
// server's, or under a filter the page with the best match first (equals
// in the server's order), so the first row is the best match.
func (p *toolsPane) pageOrder(w *fold.Walk) []int {
	order := make([]int, len(w.Pages))
	for i := range order {
		order[i] = i
	}
	if p.hits == nil || w.Tools == nil {
		return order
	}
	best := make([]match.Rank, len(w.Pages))
	for i, pg := range w.Pages {
		best[i] = match.Fuzzy + 1
		for _, t := range w.Tools[pg.First : pg.First+pg.Count] {
			if h, ok := p.hits[t]; ok && h.Rank < best[i] {
				best[i] = h.Rank
			}
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return int(best[a] - best[b]) })
	return order
}

// reselect puts the cursor back on the picked tool; while the walk is
// still reading pages the pick is kept (see [toolsPane.Pending]).
func (p *toolsPane) reselect() {
	w := p.builtWalk
	p.repick(w != nil && !w.Done)
}

// Focus gives the pane the keys, or takes them.
func (p *toolsPane) Focus(on bool) { p.focused = on }

// Picked names the tool the cursor was put on, kept across rebuilds.
func (p *toolsPane) Picked() string { return p.picked }

// Pending says the picked tool has not arrived in the walk being read.
func (p *toolsPane) Pending() bool {
	t := p.Selected()
	return p.picked != "" && (t == nil || t.Name != p.picked)
}

func (p *toolsPane) clearFilter() {
	p.Clear()
	p.setHits(nil)
	p.Sync()
}

// applyHits takes a filter result. For a new query the cursor goes to
// the first match; for new pages under the same query it stays put.
func (p *toolsPane) applyHits(h map[*fold.Tool]match.Hit) {
	if p.hitsQuery != p.Query {
		p.hitsQuery, p.picked, p.cursor = p.Query, "", 0
	}
	p.setHits(h)
}

func (p *toolsPane) setHits(h map[*fold.Tool]match.Hit) {
	if h == nil {
		p.Query, p.hitsQuery, p.asked = "", "", filterAsk{}
		p.filterSeq++ // drop results still on their way
	}
	p.hits = h
	p.hitsVer++
}

func (p *toolsPane) runFilter() tea.Cmd {
	p.filterSeq++
	w := p.St.Shown()
	n := 0
	if w != nil {
		n = len(w.Tools)
	}
	p.asked = filterAsk{w, n, p.Query}
	if w == nil || w.Tools == nil {
		return nil
	}
	cmd := filterCmd(p.filterSeq, w, w.Tools[:n:n], p.Query)
	if n <= syncFilterMax {
		// Small enough to filter at once, so keys typed right after
		// the query act on the filtered list.
		if msg, ok := cmd().(filterDoneMsg); ok {
			p.applyHits(msg.hits)
		}
		return nil
	}
	return cmd
}

// Update handles keys while the pane has focus and filter results.
func (p toolsPane) Update(msg tea.Msg) (toolsPane, tea.Cmd) {
	if msg, ok := msg.(filterDoneMsg); ok {
		if msg.seq != p.filterSeq || msg.query != p.Query {
			return p, nil // a result for a query no longer asked
		}
		p.applyHits(msg.hits)
		return p, p.Sync()
	}
	ev, cmd := p.FilterInput.Update(msg, &p)
	switch {
	case ev == panes.FilterCleared, ev == panes.FilterChanged && p.Query == "":
		p.setHits(nil)
		p.Sync()
	case ev == panes.FilterChanged:
		cmd = tea.Batch(cmd, p.runFilter())
	}
	return p, cmd
}

// ShortHelp returns the bindings shown in the help line for this pane.
func (p *toolsPane) ShortHelp() []key.Binding {
	k := p.keys
	if p.Typing {
		return p.TypingHelp()
	}
	g := p.Global
	return []key.Binding{k.Call, k.Filter, g.Walk, g.NextPane, g.Wire, g.Copy, k.Held, g.Export, g.Help, g.Quit}
}
