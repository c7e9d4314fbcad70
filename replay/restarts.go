package replay

import (
	"slices"

	"mcpwitness/fold"
)

// Restart is a restart of the server in the file: the connection was
// restarted with event Pos (from 1), and the walks up to OldWalk came
// from the connection it ended.
type Restart struct {
	Pos     int
	OldWalk int64
}

// Restarts are the file's restarts, in order, once the first pass has
// read past them.
func (r *Replay) Restarts() []Restart { return r.restarts }

// OldWalk is the newest walk of the connection that the last restart
// within the first pos events ended: a list shown from that walk or an
// older one is from before the restart. 0 when no restart came before
// pos.
func (r *Replay) OldWalk(pos int) int64 {
	i, _ := slices.BinarySearchFunc(r.restarts, pos+1, func(rs Restart, p int) int { return rs.Pos - p })
	if i == 0 {
		return 0
	}
	return r.restarts[i-1].OldWalk
}

// newestWalk is the highest walk number st holds, 0 for none.
func newestWalk(st *fold.State) int64 {
	var n int64
	for _, w := range st.Walks() {
		n = max(n, w.ID)
	}
	return n
}
