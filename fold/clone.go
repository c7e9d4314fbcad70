package fold

// Snapshots. A replay keeps states along the file and starts folds from
// them, so a state must copy cheaply: what no longer changes is shared, not
// copied. Frames, rows and tools never change once made; a finished walk or
// call is changed only through ownWalk and own, which copy it first. Clone
// copies the rest: the lists that point at them, and the walks and calls
// still going on.

// Clone returns a copy of s that can go on folding events without changing
// s, and the other way round.
func (s *State) Clone() *State {
	c := *s
	c.cloneWalks(s)
	c.cloneCalls(s)
	c.wire = s.wire.clone()
	c.rows = s.rows.clone()
	return &c
}

// cloneWalks gives c, a shallow copy of s, lists of walks of its own: a walk
// still going on is copied, a finished one shared.
func (c *State) cloneWalks(s *State) {
	walks := make(map[*Walk]*Walk)
	c.walks = make([]*Walk, len(s.walks))
	c.walkByID = make(map[int64]*Walk, len(s.walks))
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
}

// cloneCalls gives c, a shallow copy of s, lists of calls of its own: a
// call running or not done is copied (once, wherever it is listed), a
// finished one shared.
func (c *State) cloneCalls(s *State) {
	calls := make(map[*Call]*Call)
	mapped := func(old *Call) *Call {
		if n, ok := calls[old]; ok {
			return n
		}
		return old
	}
	for _, old := range s.running {
		calls[old] = copyCall(old)
	}
	c.calls = make(map[int64]*Call, len(s.calls))
	c.callOrder = make([]*Call, len(s.callOrder))
	for i, old := range s.callOrder {
		if !old.Done {
			if _, ok := calls[old]; !ok {
				calls[old] = copyCall(old)
			}
		}
		c.callOrder[i] = mapped(old)
		c.calls[old.ID] = c.callOrder[i]
	}
	c.toolCalls = make(map[string][]*Call, len(s.toolCalls))
	for tool, list := range s.toolCalls {
		nl := make([]*Call, len(list))
		for i, old := range list {
			nl[i] = mapped(old)
		}
		c.toolCalls[tool] = nl
	}
	c.running = make([]*Call, len(s.running))
	for i, old := range s.running {
		c.running[i] = mapped(old)
	}
}

// copyCall returns a copy of old whose verdicts are clipped, so an append
// by either copies instead of writing where the other might.
func copyCall(old *Call) *Call {
	nc := *old
	nc.Verdicts = clip(old.Verdicts)
	return &nc
}

// ownWalk returns w ready to change: a finished walk may be shared with
// snapshots, so it is copied first and the copy takes its place here.
func (s *State) ownWalk(w *Walk) *Walk {
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
	rowWeight     = 80  // a row, besides its text
	walkWeight    = 240
	pageWeight    = 160
	callWeight    = 360 // a call, besides its arguments and answer
	verdictWeight = 200
	listWeight    = 8 // a pointer in one of a state's own lists
	mapWeight     = 48
)

// weights are bytes by kind of thing held.
type weights struct{ frames, rows, walks, calls int }

func toolWeight(t *Tool) int { return 300 + 2*len(t.Raw) }

// holds returns the bytes of what s holds now, by kind, and of its own
// lists of pointers.
func (s *State) holds() (w weights, lists int) {
	w = weights{frames: s.wire.Len()*frameWeight + s.wireBytes, rows: s.rows.Len() * rowWeight, calls: s.callBytes}
	for i := range s.rows.Len() {
		r := s.rows.At(i)
		w.rows += len(r.Text) + len(r.Data)
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
	lists = 1024 + (s.wire.Len()+s.rows.Len())*listWeight + len(s.walks)*(listWeight+mapWeight) +
		len(s.callOrder)*(2*listWeight+mapWeight)
	return w, lists
}

// Weight is a snapshot's weight in bytes, estimated when it was taken:
// what the state had made so far and what it held.
type Weight struct {
	made, held weights
	lists      int
}

// Weigh returns the weight of s now.
func (s *State) Weigh() Weight {
	h, l := s.holds()
	return Weight{made: s.made, held: h, lists: l}
}

// Over estimates the bytes a snapshot holds that one taken earlier, of
// weight prev, does not: its own lists, plus of each kind what it holds or
// what was made since, whichever is less.
func (w Weight) Over(prev Weight) int {
	return w.lists + min(w.held.frames, w.made.frames-prev.made.frames) + min(w.held.rows, w.made.rows-prev.made.rows) +
		min(w.held.walks, w.made.walks-prev.made.walks) + min(w.held.calls, w.made.calls-prev.made.calls)
}
