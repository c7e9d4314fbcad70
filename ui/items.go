package ui

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"mcpwitness/fold"
	"mcpwitness/match"
	"mcpwitness/record"
	"mcpwitness/ui/panes"
)

// itemRow is one row of an items pane: a page separator or an item.
type itemRow struct {
	page *fold.Page // set on a separator
	hits int        // on a separator: items of the page shown
	item *fold.Item
}

// itemsBuilt is what an items pane's rows were built from.
type itemsBuilt struct {
	walk  *fold.Walk
	pages int
	items int
	query string
}

// itemsPane lists the items of one list other than tools (resources,
// templates or prompts) in page order, with a separator row per page,
// and filters them. It shows the newest walk of its list that accepted a
// page.
type itemsPane struct {
	*panes.Common
	keys   *panes.ItemsKeyMap
	method string
	w, h   int

	focused bool
	panes.PagedList[itemRow]
	count int // item rows in rows
	built itemsBuilt
	hits  map[*fold.Item]match.Hit // nil: no filter

	panes.FilterInput

	// subs are the uris subscribed to, worked out from the requests when
	// they change (subsFor).
	subs    map[string]bool
	subsFor **fold.Request // the fold's array of requests: a new one on every change
	pt      panes.ToolPaints
	// muted and subtle paint a row's uri and plain badges.
	muted, subtle panes.Paint
	// drawn is the pane as Predraw drew it (see itemsdraw.go).
	drawn itemsDrawn

	// own says the pane lists the session's own tasks rather than a walk
	// (the tasks extension has no tasks/list; see tasks_own.go), and
	// ownBuilt what its rows were built from.
	own      bool
	ownBuilt ownTasksKey
}

func newItemsPane(c *panes.Common, keys *panes.ItemsKeyMap, method string) itemsPane {
	p := itemsPane{Common: c, keys: keys, method: method, FilterInput: panes.NewFilterInput(&keys.MoveKeyMap, &keys.Filter)}
	p.restyle()
	return p
}

func (p *itemsPane) restyle() {
	p.FilterInput.Restyle(p.Sty)
	p.pt = panes.NewToolPaints(p.Sty)
	p.pt.Badge["sub"] = p.Sty.BadgeHeld.Render("sub")
	p.pt.Badge["upd"] = p.Sty.BadgeStale.Render("upd")
	p.muted, p.subtle = panes.NewPaint(p.Sty.Muted.Render), panes.NewPaint(p.Sty.Subtle.Render)
}

// SetSize sizes the pane: a title row, then the list.
func (p *itemsPane) SetSize(w, h int) {
	p.w, p.h = w, h
	p.SetWidth(w)
	p.SetHeight(h - 1)
}

// Walk returns the walk shown: the newest of the list that accepted a
// page, or the newest at all while none has.
func (p *itemsPane) Walk() *fold.Walk {
	if p.own {
		return nil
	}
	walks := p.St.Walks()
	for i := len(walks) - 1; i >= 0; i-- {
		if w := walks[i]; w.Method == p.method && len(w.Pages) > 0 {
			return w
		}
	}
	return p.St.Latest(p.method)
}

// Count is the number of items the shown walk listed.
func (p *itemsPane) Count() int {
	if p.own {
		return len(ownTasks(p.St))
	}
	return len(p.St.Items(p.Walk()))
}

// SetOwn makes the pane list the session's own tasks (on) or its walks.
func (p *itemsPane) SetOwn(on bool) {
	if p.own != on {
		p.own, p.built, p.ownBuilt, p.Rows = on, itemsBuilt{}, ownTasksKey{}, nil
	}
}

// Selected returns the selected item, or nil.
func (p *itemsPane) Selected() *fold.Item {
	if p.Cursor >= 0 && p.Cursor < len(p.Rows) {
		return p.Rows[p.Cursor].item
	}
	return nil
}

// Sync rebuilds the rows when the shown walk, its items or the filter
// changed, and the subscriptions when the requests did.
func (p *itemsPane) Sync() {
	p.syncSubs()
	if p.own {
		p.syncOwn()
		return
	}
	w := p.Walk()
	items := p.St.Items(w)
	b := itemsBuilt{walk: w, items: len(items), query: p.Query}
	if w != nil {
		b.pages = len(w.Pages)
	}
	if b == p.built {
		return
	}
	p.built = b
	p.hits = nil
	if p.Query != "" {
		p.hits = map[*fold.Item]match.Hit{}
		for _, it := range items {
			if h, ok := findItem(p.Query, it); ok {
				p.hits[it] = h
			}
		}
	}
	p.Rows, p.count = p.Rows[:0], 0
	if w != nil {
		p.appendPages(w, items)
	}
	p.reselect()
}

// findItem matches query against an item's name, then its key.
func findItem(query string, it *fold.Item) (match.Hit, bool) {
	h, ok := match.Find(query, it.Name)
	if k, kok := match.Find(query, it.Key); kok && (!ok || k.Rank < h.Rank) {
		return match.Hit{Rank: k.Rank}, true // the name is what is drawn: no marks
	}
	return h, ok
}

// appendPages adds a separator per page of w and its items (those the
// filter keeps, best first).
func (p *itemsPane) appendPages(w *fold.Walk, items []*fold.Item) {
	next := 0
	for i := range w.Pages {
		pg := &w.Pages[i]
		sep := len(p.Rows)
		p.Rows = append(p.Rows, itemRow{page: pg})
		for next < len(items) && items[next].Page == pg.Number {
			if it := items[next]; p.hits == nil || p.kept(it) {
				p.Rows = append(p.Rows, itemRow{item: it})
			}
			next++
		}
		n := len(p.Rows) - sep - 1
		if p.hits != nil {
			slices.SortStableFunc(p.Rows[sep+1:], func(a, b itemRow) int { return int(p.hits[a.item].Rank - p.hits[b.item].Rank) })
			if n == 0 {
				p.Rows = p.Rows[:sep]
				continue
			}
		}
		p.Rows[sep].hits = n
		p.count += n
	}
}

func (p *itemsPane) kept(it *fold.Item) bool { _, ok := p.hits[it]; return ok }

// syncSubs works out which uris are subscribed to: those whose newest
// answered subscribe or unsubscribe is a subscribe.
func (p *itemsPane) syncSubs() {
	reqs := p.St.Requests()
	var base **fold.Request
	if len(reqs) > 0 {
		base = &reqs[0]
	}
	if base == p.subsFor && p.subs != nil {
		return
	}
	p.subsFor, p.subs = base, map[string]bool{}
	for _, r := range reqs {
		if !r.Done || !r.Sent || r.Err != "" || len(r.RPCError) > 0 {
			continue
		}
		switch r.Method {
		case record.MethodSubscribe:
			p.subs[r.About] = true
		case record.MethodUnsubscribe:
			delete(p.subs, r.About)
		}
	}
}

// Subscribed says whether uri is subscribed to.
func (p *itemsPane) Subscribed(uri string) bool { return p.subs[uri] }

// reselect puts the cursor back on the picked item, or the nearest row.
func (p *itemsPane) reselect() {
	w := p.built.walk
	p.Repick(w != nil && !w.Done)
}

// Focus gives the pane the keys, or takes them.
func (p *itemsPane) Focus(on bool) { p.focused = on }

func (p *itemsPane) clearFilter() {
	p.Clear()
	p.Sync()
}

// Update handles keys while the pane has focus, and what its filter
// input is given; a new query puts the cursor on the best match.
func (p itemsPane) Update(msg tea.Msg) (itemsPane, tea.Cmd) {
	ev, cmd := p.FilterInput.Update(msg, &p)
	switch ev {
	case panes.FilterCleared:
		p.Sync()
	case panes.FilterChanged:
		p.PickedKey, p.Cursor = "", 0
		p.Sync()
	}
	return p, cmd
}

// ShortHelp returns the bindings shown in the help line for this pane.
func (p *itemsPane) ShortHelp() []key.Binding {
	if p.Typing {
		return p.TypingHelp()
	}
	k, g := p.keys, p.Global
	open := k.Open
	open.SetHelp("enter", p.verb())
	out := []key.Binding{open}
	if p.method == tabResources.method().Name {
		sub := k.Subscribe
		if it := p.Selected(); it != nil && p.Subscribed(it.URI) {
			sub.SetHelp(sub.Help().Key, "unsubscribe")
		}
		out = append(out, sub)
	}
	return append(out, k.Filter, g.Tabs, g.Walk, g.NextPane, g.Ping, g.Help, g.Quit)
}

// verb says what Enter does to an item of the list.
func (p *itemsPane) verb() string {
	switch p.method {
	case tabResources.method().Name:
		return "read"
	case tabTemplates.method().Name:
		return "fill & read"
	case tabTasks.method().Name:
		if p.own {
			return "open call"
		}
		return "result"
	}
	return "get"
}

func (r itemRow) EntryKey() (string, bool) {
	if r.item == nil {
		return "", false
	}
	return r.item.Key, true
}
