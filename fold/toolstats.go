package fold

import "maps"

// ToolStats is how the calls of one tool went: how many were made, how
// many of them ended, and what the newest to end came to. It counts every
// call the state saw, including calls it no longer keeps.
type ToolStats struct {
	Calls int
	Ended int
	// Last is the outcome of the newest call that ended; LastID its id
	// (0 while none has ended).
	Last   Outcome
	LastID int64
}

// toolStatsTable holds the [ToolStats] of every tool called. Its map is
// never changed in place (a clone of the state shares it): a change makes
// a new one. Calls are rare next to frames, and few tools are called.
type toolStatsTable struct {
	rev int
	m   map[string]ToolStats
}

// ToolStats returns the summary of the calls of the tool named name: a
// lookup, kept up to date as calls start and end, never a scan of calls.
func (s *State) ToolStats(name string) ToolStats { return s.toolStats.m[name] }

// ToolStatsRev changes whenever any tool's [ToolStats] changes.
func (s *State) ToolStatsRev() int { return s.toolStats.rev }

// setToolStats records st for the tool named name.
func (s *State) setToolStats(name string, st ToolStats) {
	next := make(map[string]ToolStats, len(s.toolStats.m)+1)
	maps.Copy(next, s.toolStats.m)
	next[name] = st
	s.toolStats = toolStatsTable{rev: s.toolStats.rev + 1, m: next}
}

// countCall counts a call of tool seen for the first time.
func (s *State) countCall(tool string) {
	st := s.toolStats.m[tool]
	st.Calls++
	s.setToolStats(tool, st)
}

// settleCall records how c ended as its tool's newest outcome.
func (s *State) settleCall(c *Call) {
	st := s.toolStats.m[c.Tool]
	if st.LastID != c.ID {
		st.Ended++
	}
	st.Last, st.LastID = c.Outcome(), c.ID
	s.setToolStats(c.Tool, st)
}
