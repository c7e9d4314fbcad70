package panes

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"mcpwitness/fold"
	"mcpwitness/match"
	"mcpwitness/themes"
)

// syncFilterMax is the most tools filtered in Update; longer lists are
// filtered in a command.
const syncFilterMax = 1000

// toolRow is one row of the tools pane: a page separator or a tool.
type toolRow struct {
	Page *fold.Page // set on a separator
	Hits int        // on a separator: tools of the page the filter kept
	Tool *fold.Tool
}

// ToolsPane lists the tools of the shown walk in page order, with a
// separator row per page, and filters them.
type ToolsPane struct {
	*Common
	keys *ToolsKeyMap
	w, h int

	focused bool
	PagedList[toolRow]
	toolRows int // tool rows in rows (the others are separators)

	// What rows were built from.
	builtWalk  *fold.Walk
	builtPages int
	builtVer   int

	FilterInput
	// Hits are the tools the last filter result kept (nil: no filter
	// applied), hitsVer counts results applied.
	Hits      map[*fold.Tool]match.Hit
	hitsQuery string // the query hits are for
	hitsVer   int
	filterSeq int
	asked     filterAsk // the newest filter run started

	pt ToolPaints
	// hideHeld hides the held/own column and its legend (see legend.go).
	hideHeld bool
	// rowsVer counts the rebuilds of rows in place; drawn is the pane as
	// Predraw drew it, for drawnKey in the styles drawnSty.
	rowsVer  int
	drawn    string
	drawnKey toolsDrawKey
	drawnSty *themes.Styles
}

// ToolPaints are the pane's styles as paints, and its badges pre-drawn.
type ToolPaints struct {
	Text, sel, selBlur, marker, sep Paint
	Badge                           map[string]string // badge text → drawn
}

// filterAsk is what one filter run was started for.
type filterAsk struct {
	w *fold.Walk
	n int
	q string
}

func NewToolsPane(c *Common, keys *ToolsKeyMap) ToolsPane {
	p := ToolsPane{Common: c, keys: keys, FilterInput: NewFilterInput(&keys.MoveKeyMap, &keys.Filter)}
	p.Restyle()
	return p
}

func (p *ToolsPane) Restyle() {
	p.FilterInput.Restyle(p.Sty)
	p.pt = NewToolPaints(p.Sty)
}

// NewToolPaints paints the styles st of a list pane.
func NewToolPaints(st *themes.Styles) ToolPaints {
	pt := ToolPaints{Text: NewPaint(st.Text.Render), sel: NewPaint(st.Selected.Render), selBlur: NewPaint(st.SelectedBlurred.Render),
		marker: NewPaint(st.Title.Render), sep: NewPaint(st.Separator.Render), Badge: map[string]string{}}
	for text, style := range map[string]lipgloss.Style{"bad": st.Fail, "hidden": st.Warn, "task": st.BadgeTask, "out": st.BadgeOut, "destr": st.BadgeDestr,
		"ro": st.BadgeRO, "stale": st.BadgeStale, "held": st.Subtle, "own": st.Subtle} {
		pt.Badge[text] = style.Render(text)
	}
	// The marks of how a tool's calls went (see [ToolsPane.callsCell]).
	for mark, style := range map[string]lipgloss.Style{"✓": st.Pass, "✗": st.Fail, "!": st.Warn, "⊘": st.Warn, "?": st.Warn, "⋯": st.Muted} {
		pt.Badge[mark] = style.Render(mark)
	}
	return pt
}

func (p *ToolsPane) SetSize(w, h int) {
	p.w, p.h = w, h
	p.SetWidth(w)
	p.SetHeight(h - 1 - p.legendRows())
}

// Selected returns the selected tool, or nil.
func (p *ToolsPane) Selected() *fold.Tool {
	if p.Cursor >= 0 && p.Cursor < len(p.Rows) {
		return p.Rows[p.Cursor].Tool
	}
	return nil
}

// Sync rebuilds the rows when the shown walk or the filter result changed,
// and starts a filter run when tools arrived under an active filter.
func (p *ToolsPane) Sync() tea.Cmd {
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
			p.Reselect()
		}
		return cmd
	case w == p.builtWalk && p.Hits == nil && p.hitsVer == p.builtVer && pages > p.builtPages:
		// Pages arrived and nothing is filtered: append them.
		for i := p.builtPages; i < pages; i++ {
			p.appendPage(&w.Pages[i], w)
		}
	default:
		p.Rows, p.toolRows = p.Rows[:0], 0
		p.rowsVer++
		if w != nil {
			for _, i := range p.pageOrder(w) {
				p.appendPage(&w.Pages[i], w)
			}
		}
	}
	p.builtWalk, p.builtPages, p.builtVer = w, pages, p.hitsVer
	p.Reselect()
	return cmd
}

func (p *ToolsPane) appendPage(pg *fold.Page, w *fold.Walk) {
	if w.Tools == nil {
		return
	}
	tools := w.Tools[pg.First : pg.First+pg.Count]
	if p.Hits == nil {
		p.Rows = append(p.Rows, toolRow{Page: pg, Hits: len(tools)})
		for _, t := range tools {
			p.Rows = append(p.Rows, toolRow{Tool: t})
		}
		p.toolRows += len(tools)
		return
	}
	sep := len(p.Rows)
	p.Rows = append(p.Rows, toolRow{Page: pg})
	for _, t := range tools {
		if _, ok := p.Hits[t]; ok {
			p.Rows = append(p.Rows, toolRow{Tool: t})
		}
	}
	// The best matches of the page first; equals keep the server's order.
	slices.SortStableFunc(p.Rows[sep+1:], func(a, b toolRow) int { return int(p.Hits[a.Tool].Rank - p.Hits[b.Tool].Rank) })
	if n := len(p.Rows) - sep - 1; n == 0 {
		p.Rows = p.Rows[:sep]
	} else {
		p.Rows[sep].Hits = n
		p.toolRows += n
	}
}

// pageOrder returns the indexes of w's pages in the order shown: the
// server's, or under a filter the page with the best match first (equals
// in the server's order), so the first row is the best match.
func (p *ToolsPane) pageOrder(w *fold.Walk) []int {
	order := make([]int, len(w.Pages))
	for i := range order {
		order[i] = i
	}
	if p.Hits == nil || w.Tools == nil {
		return order
	}
	best := make([]match.Rank, len(w.Pages))
	for i, pg := range w.Pages {
		best[i] = match.Fuzzy + 1
		for _, t := range w.Tools[pg.First : pg.First+pg.Count] {
			if h, ok := p.Hits[t]; ok && h.Rank < best[i] {
				best[i] = h.Rank
			}
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return int(best[a] - best[b]) })
	return order
}

// Reselect puts the cursor back on the picked tool; while the walk is
// still reading pages the pick is kept (see [ToolsPane.Pending]).
func (p *ToolsPane) Reselect() {
	w := p.builtWalk
	p.Repick(w != nil && !w.Done)
}

// Focus gives the pane the keys, or takes them.
func (p *ToolsPane) Focus(on bool) { p.focused = on }

// Picked names the tool the cursor was put on, kept across rebuilds.
func (p *ToolsPane) Picked() string { return p.PickedKey }

// Pending says the picked tool has not arrived in the walk being read.
func (p *ToolsPane) Pending() bool {
	t := p.Selected()
	return p.PickedKey != "" && (t == nil || t.Name != p.PickedKey)
}

func (p *ToolsPane) ClearFilter() {
	p.Clear()
	p.setHits(nil)
	p.Sync()
}

// applyHits takes a filter result. For a new query the cursor goes to
// the first match; for new pages under the same query it stays put.
func (p *ToolsPane) applyHits(h map[*fold.Tool]match.Hit) {
	if p.hitsQuery != p.Query {
		p.hitsQuery, p.PickedKey, p.Cursor = p.Query, "", 0
	}
	p.setHits(h)
}

func (p *ToolsPane) setHits(h map[*fold.Tool]match.Hit) {
	if h == nil {
		p.Query, p.hitsQuery, p.asked = "", "", filterAsk{}
		p.filterSeq++ // drop results still on their way
	}
	p.Hits = h
	p.hitsVer++
}

func (p *ToolsPane) runFilter() tea.Cmd {
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
	cmd := FilterCmd(p.filterSeq, w, w.Tools[:n:n], p.Query)
	if n <= syncFilterMax {
		// Small enough to filter at once, so keys typed right after
		// the query act on the filtered list.
		if msg, ok := cmd().(FilterDoneMsg); ok {
			p.applyHits(msg.Hits)
		}
		return nil
	}
	return cmd
}

// Update handles keys while the pane has focus and filter results.
func (p ToolsPane) Update(msg tea.Msg) (ToolsPane, tea.Cmd) {
	if msg, ok := msg.(FilterDoneMsg); ok {
		if msg.seq != p.filterSeq || msg.query != p.Query {
			return p, nil // a result for a query no longer asked
		}
		p.applyHits(msg.Hits)
		return p, p.Sync()
	}
	ev, cmd := p.FilterInput.Update(msg, &p)
	switch {
	case ev == FilterCleared, ev == FilterChanged && p.Query == "":
		p.setHits(nil)
		p.Sync()
	case ev == FilterChanged:
		cmd = tea.Batch(cmd, p.runFilter())
	}
	return p, cmd
}

// ShortHelp returns the bindings shown in the help line for this pane.
func (p *ToolsPane) ShortHelp() []key.Binding {
	k := p.keys
	if p.Typing {
		return p.TypingHelp()
	}
	g := p.Global
	return []key.Binding{k.Call, k.Filter, g.Walk, g.NextPane, g.Wire, g.Copy, k.Held, g.Export, g.Help, g.Quit}
}
