package ui

import (
	"slices"

	"mcpwitness/fold"
	"mcpwitness/session"
)

// logFloors returns the stops of the events pane's level filter, in the
// order its key cycles through them: every row (""), then only log
// messages at each of these levels or above.
func logFloors() []string { return []string{"", "debug", "info", "warning", "error"} }

// rowFilter is the events pane's level filter: which rows it keeps, and
// the stream numbers of those it kept so far (a list over them, numbered
// from dropped, the kept rows that rolled off the ring since).
type rowFilter struct {
	floor   int // an index of logFloors(); 0 keeps every row
	st      *fold.State
	scanned int64 // rows before this stream number were looked at
	kept    []int64
	dropped int64
}

// on says whether the filter keeps only some rows.
func (f *rowFilter) on() bool { return f.floor > 0 }

// next moves to the next stop, and starts over.
func (f *rowFilter) next() {
	f.floor = (f.floor + 1) % len(logFloors())
	f.st, f.scanned, f.kept, f.dropped = nil, 0, nil, 0
}

// keeps says whether r is a log message at the floor or above.
func (f *rowFilter) keeps(r *fold.Row) bool {
	if r == nil || r.Kind != fold.RowLog {
		return false
	}
	levels := session.LogLevels()
	at := slices.Index(levels, r.LogLevel)
	return at < 0 || at >= slices.Index(levels, logFloors()[f.floor]) // an unknown level is shown
}

// sync looks at the rows added since, and forgets those rolled off. A new
// state (a replay moved) is looked at again from its start.
func (f *rowFilter) sync(st *fold.State) {
	rows := st.Rows()
	if st != f.st || rows.Total() < f.scanned {
		f.st, f.scanned, f.kept, f.dropped = st, 0, nil, 0
	}
	for n := max(f.scanned, rows.First()); n < rows.Total(); n++ {
		if f.keeps(rows.Abs(n)) {
			f.kept = append(f.kept, n)
		}
	}
	f.scanned = rows.Total()
	gone := 0
	for gone < len(f.kept) && f.kept[gone] < rows.First() {
		gone++
	}
	f.kept, f.dropped = f.kept[gone:], f.dropped+int64(gone)
}

// bounds are the list's numbers: [first, total).
func (f *rowFilter) bounds() (first, total int64) { return f.dropped, f.dropped + int64(len(f.kept)) }

// row returns the row at list number n, or nil.
func (f *rowFilter) row(n int64) *fold.Row {
	i := n - f.dropped
	if f.st == nil || i < 0 || i >= int64(len(f.kept)) {
		return nil
	}
	return f.st.Rows().Abs(f.kept[i])
}
