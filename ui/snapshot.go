package ui

// Snapshots. A replay keeps states along the file and starts folds from
// them, so a state must copy cheaply: what no longer changes is shared, not
// copied. Frames, events-pane rows and tool entries never change once made;
// a finished walk or call is changed only through ownWalk and own, which
// copy it first. clone copies the rest: the lists that point at them, and
// the walks and calls still going on.

// clone returns a copy of s that can go on folding events without changing
// s, and the other way round.
func (s *state) clone() *state {
	c := *s
	walks := make(map[*walkState]*walkState)
	c.walks = make([]*walkState, len(s.walks))
	c.walkByID = make(map[int64]*walkState, len(s.walks))
	for i, w := range s.walks {
		if !w.Done {
			nw := *w
			// Clipped, so an append by either copies instead of writing
			// where the other might.
			nw.Pages, nw.Tools, nw.Findings = clip(w.Pages), clip(w.Tools), clip(w.Findings)
			walks[w] = &nw
			w = &nw
		}
		c.walks[i] = w
		c.walkByID[w.ID] = w
	}
	if w, ok := walks[s.shown]; ok {
		c.shown = w
	}

	calls := make(map[*callState]*callState)
	mapped := func(old *callState) *callState {
		if n, ok := calls[old]; ok {
			return n
		}
		return old
	}
	for _, old := range s.running {
		nc := *old
		nc.Verdicts = clip(old.Verdicts)
		calls[old] = &nc
	}
	c.calls = make(map[int64]*callState, len(s.calls))
	c.callOrder = make([]*callState, len(s.callOrder))
	for i, old := range s.callOrder {
		if !old.Done {
			if _, ok := calls[old]; !ok {
				nc := *old
				nc.Verdicts = clip(old.Verdicts)
				calls[old] = &nc
			}
		}
		c.callOrder[i] = mapped(old)
		c.calls[old.ID] = c.callOrder[i]
	}
	c.toolCalls = make(map[string][]*callState, len(s.toolCalls))
	for tool, list := range s.toolCalls {
		nl := make([]*callState, len(list))
		for i, old := range list {
			nl[i] = mapped(old)
		}
		c.toolCalls[tool] = nl
	}
	c.running = make([]*callState, len(s.running))
	for i, old := range s.running {
		c.running[i] = mapped(old)
	}
	c.wire = s.wire.clone()
	c.events = s.events.clone()
	return &c
}

// ownWalk returns w ready to change: a finished walk may be shared with
// snapshots, so it is copied first and the copy takes its place here.
func (s *state) ownWalk(w *walkState) *walkState {
	if !w.Done {
		return w
	}
	n := *w
	n.Pages, n.Tools, n.Findings = clip(w.Pages), clip(w.Tools), clip(w.Findings)
	for i, x := range s.walks {
		if x == w {
			s.walks[i] = &n
			break
		}
	}
	if s.walkByID[n.ID] == w {
		s.walkByID[n.ID] = &n
	}
	if s.shown == w {
		s.shown = &n
	}
	return &n
}

func clip[T any](s []T) []T { return s[:len(s):len(s)] }

// Weights in bytes, estimated, of what a state holds.
const (
	frameWeight   = 160 // a wire frame, besides its bytes
	rowWeight     = 80  // an events-pane row, besides its text
	walkWeight    = 240
	pageWeight    = 160
	callWeight    = 360 // a call, besides its arguments and answer
	verdictWeight = 200
	listWeight    = 8 // a pointer in one of a state's own lists
	mapWeight     = 48
)

// weights are bytes by kind of thing held.
type weights struct{ frames, rows, walks, calls int }

func toolWeight(t *toolEntry) int { return 300 + 2*len(t.Raw) }

// holds returns the bytes of what s holds now, by kind, and of its own
// lists of pointers.
func (s *state) holds() (w weights, lists int) {
	w = weights{frames: s.wire.len()*frameWeight + s.wireBytes, rows: s.events.len() * rowWeight, calls: s.callBytes}
	for i := range s.events.len() {
		w.rows += len(s.events.at(i).Text)
	}
	for _, wk := range s.walks {
		w.walks += walkWeight + len(wk.Pages)*pageWeight
		for _, t := range wk.Tools {
			w.walks += toolWeight(t)
		}
	}
	for _, c := range s.callOrder {
		w.calls += callWeight + len(c.Verdicts)*verdictWeight
	}
	lists = 1024 + (s.wire.len()+s.events.len())*listWeight + len(s.walks)*(listWeight+mapWeight) +
		len(s.callOrder)*(2*listWeight+mapWeight)
	return w, lists
}

// weighed is a snapshot's weight, as [state.holds] and [state.made] gave
// it when it was taken.
type weighed struct {
	made, held weights
	lists      int
}

func weigh(s *state) weighed {
	h, l := s.holds()
	return weighed{made: s.made, held: h, lists: l}
}

// over estimates the bytes a snapshot holds that one taken earlier, which
// had made prev, does not: its own lists, plus of each kind what it holds
// or what was made since, whichever is less.
func (w weighed) over(prev weighed) int {
	return w.lists + min(w.held.frames, w.made.frames-prev.made.frames) + min(w.held.rows, w.made.rows-prev.made.rows) +
		min(w.held.walks, w.made.walks-prev.made.walks) + min(w.held.calls, w.made.calls-prev.made.calls)
}
