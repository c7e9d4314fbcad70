package fold

import (
	"time"

	"mcpwitness/finding"
	"mcpwitness/paging"
	"mcpwitness/record"
)

// Walk is one walk of a list and its pages in arrival order.
type Walk struct {
	ID         int64
	Method     string
	Start, End time.Time
	// Done says the walk's done event arrived; what follows it is from
	// that event.
	Done       bool
	Pages      []Page
	Tools      []*Tool
	Incomplete paging.Incomplete
	Err        string
	// Asking is the number of the page last asked for (0 if unknown).
	Asking     int
	Findings   []finding.Finding
	Ms         float64
	Items      int
	Generation int64
	// AfterChange says the walk started after a list_changed.
	AfterChange bool
	// Changed says a list_changed arrived after the walk started: what it
	// listed may be stale.
	Changed bool
}

// Complete reports whether the walk finished and read every page.
func (w *Walk) Complete() bool {
	return w.Done && w.Incomplete == paging.Complete && w.Err == ""
}

// Stopped reports whether the walk ended where the client chose to stop
// ([paging.Stopped]): it read what it needed, which is no finding, though
// it did not read the list to its end (it is not [Walk.Complete]).
func (w *Walk) Stopped() bool {
	return w.Done && w.Incomplete == paging.Stopped && w.Err == ""
}

// Generations returns the generations of the walk's first and last pages
// (0, 0 when it accepted none).
func (w *Walk) Generations() (first, last int64) {
	if len(w.Pages) == 0 {
		return 0, 0
	}
	return w.Pages[0].Generation, w.Pages[len(w.Pages)-1].Generation
}

// Stale reports whether the definitions w listed may be out of date: the
// server said its list changed after w started.
func (w *Walk) Stale() bool { return w != nil && w.Changed }

// Page is one accepted page, without its items; its tools are
// Tools[First:First+Count] of its walk.
type Page struct {
	paging.Page
	First int
}

// Walks returns the walks kept, oldest first.
func (s *State) Walks() []*Walk { return s.walks }

// Shown returns the tools walk to show: the newest that has a page, or the
// newest at all while none has.
func (s *State) Shown() *Walk { return s.shown }

// ShownRev returns a number that changes whenever [State.Shown] or what it
// holds changes.
func (s *State) ShownRev() int { return s.shownRev }

// LatestTools returns the newest tools walk, or nil.
func (s *State) LatestTools() *Walk {
	for i := len(s.walks) - 1; i >= 0; i-- {
		if s.walks[i].Method == paging.Tools().Name {
			return s.walks[i]
		}
	}
	return nil
}

// walk returns walk id, made on first sight, ready to change.
func (s *State) walk(id int64, method string, t time.Time) *Walk {
	if w := s.walkByID[id]; w != nil {
		return s.ownWalk(w)
	}
	w := &Walk{ID: id, Method: method, Start: t}
	s.made.walks += walkWeight
	if s.pendingChange >= 0 && method == paging.Tools().Name {
		w.AfterChange = true
		if r := s.rows.Abs(s.pendingChange); r != nil {
			row := *r
			row.Walk = &WalkRow{ID: id}
			s.rows.set(s.pendingChange, &row)
		}
		s.pendingChange = -1
	}
	s.walks = append(s.walks, w)
	s.walkByID[id] = w
	s.forgetWalks()
	s.trimWalks()
	if method == paging.Tools().Name && (s.shown == nil || len(s.shown.Pages) == 0) {
		s.shown = w
		s.shownRev++
	}
	return w
}

// forgetWalks keeps the newest [maxWalks] walks, and the shown one.
func (s *State) forgetWalks() {
	for len(s.walks) > maxWalks && !s.keepAll {
		i := 0
		if s.walks[0] == s.shown {
			i = 1
		}
		delete(s.walkByID, s.walks[i].ID)
		s.walks = append(s.walks[:i], s.walks[i+1:]...)
	}
}

// trimWalks drops the tool definitions of old walks: not the shown one,
// nor the newest complete one.
func (s *State) trimWalks() {
	kept := 0
	var complete *Walk
	for i := len(s.walks) - 1; i >= 0; i-- {
		w := s.walks[i]
		if complete == nil && w.Method == paging.Tools().Name && w.Complete() {
			complete = w
		}
		if w.Tools == nil {
			continue
		}
		kept++
		if kept > keepWalkTools && w != s.shown && w != complete {
			s.ownWalk(w).Tools = nil
		}
	}
}

func (s *State) applyPage(ev record.Event) {
	if ev.Page == nil {
		return
	}
	method := ev.Method
	var id int64
	if ev.Walk != nil {
		id = ev.Walk.ID
		if method == "" {
			method = ev.Walk.Method
		}
	}
	w := s.walk(id, method, ev.T)
	p := Page{Page: *ev.Page, First: len(w.Tools)}
	p.Items, p.Keys = nil, nil
	tools := method == paging.Tools().Name || method == ""
	if tools {
		for _, raw := range ev.Items {
			// A page's items are valid JSON: the walk read them out of a
			// frame the tap validated (or out of a session file's line).
			t := readTool(raw, true)
			t.Walk, t.Page, t.Gen = w.ID, p.Number, p.Generation
			w.Tools = append(w.Tools, t)
			s.made.walks += toolWeight(t)
		}
	}
	if tools {
		p.Count = len(w.Tools) - p.First
	}
	w.Pages = append(w.Pages, p)
	s.made.walks += pageWeight
	if tools {
		s.shown = w
		s.shownRev++
	}
}

func (s *State) applyWalk(ev record.Event) {
	info := ev.Walk
	if info == nil {
		return
	}
	method := info.Method
	if method == "" {
		method = ev.Method
	}
	w := s.walk(info.ID, method, ev.T)
	if info.State != record.PhaseDone {
		return
	}
	s.gen, s.out = ev.Gen, ev.Out
	w.Done, w.End = true, ev.T
	w.Incomplete, w.Err, w.Findings, w.Ms, w.Items = paging.Incomplete(info.Incomplete), info.Error, info.Findings, info.Ms, info.Items
	w.Generation = info.Generation
	if w == s.shown {
		s.shownRev++
	}
	level := LevelInfo
	if w.Incomplete.Finding() {
		level = LevelWarn
	}
	wr := &WalkRow{ID: w.ID, Method: method, Pages: len(w.Pages), Items: w.Items, Ms: w.Ms,
		Incomplete: w.Incomplete, Err: w.Err, AfterChange: w.AfterChange}
	s.row(&Row{T: ev.T, Kind: RowWalk, Level: level, Walk: wr})
	for _, f := range w.Findings {
		lvl := LevelWarn
		if f.Severity == finding.SeverityInfo {
			lvl = LevelNone
		}
		s.row(&Row{T: ev.T, Kind: RowFinding, Level: lvl, Walk: wr, Finding: &f})
	}
}

// Walk returns the walk numbered id, or nil when it is not kept.
func (s *State) Walk(id int64) *Walk { return s.walkByID[id] }
