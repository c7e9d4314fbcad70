package panes

import (
	"fmt"
	"slices"
	"strings"

	"mcpwitness/fold"
	"mcpwitness/record"
	"mcpwitness/session"
)

// LogFloors returns the stops of the events pane's level filter, in the
// order its key cycles through them: every row (""), then only log
// messages at each of these levels or above.
func LogFloors() []string { return []string{"", "debug", "info", "warning", "error"} }

// rowFilter is what the events pane lists: every row, or with a level
// floor only log messages at it or above; consecutive completions of one
// form, each answered alike, are one entry that counts them. It keeps the
// stream numbers of its entries so far (a list numbered from dropped, the
// entries that rolled off the ring since), each entry the newest row it
// stands for.
type rowFilter struct {
	Floor   int // an index of LogFloors(); 0 keeps every row
	st      *fold.State
	scanned int64 // rows before this stream number were looked at
	kept    []int64
	asks    []int32 // beside kept: how many completions the entry stands for
	dropped int64
}

// on says whether the filter keeps only log messages.
func (f *rowFilter) on() bool { return f.Floor > 0 }

// next moves to the next stop, and starts over.
func (f *rowFilter) next() {
	f.Floor = (f.Floor + 1) % len(LogFloors())
	f.st, f.scanned, f.kept, f.asks, f.dropped = nil, 0, nil, nil, 0
}

// keeps says whether r is listed: any row with no floor, else a log
// message at the floor or above.
func (f *rowFilter) keeps(r *fold.Row) bool {
	if r == nil {
		return false
	}
	if !f.on() {
		return true
	}
	if r.Kind != fold.RowLog {
		return false
	}
	levels := session.LogLevels()
	at := slices.Index(levels, r.LogLevel)
	return at < 0 || at >= slices.Index(levels, LogFloors()[f.Floor]) // an unknown level is shown
}

// sync looks at the rows added since, and forgets those rolled off. A new
// state (a replay moved) is looked at again from its start.
func (f *rowFilter) sync(st *fold.State) {
	rows := st.Rows()
	if st != f.st || rows.Total() < f.scanned {
		f.st, f.scanned, f.kept, f.asks, f.dropped = st, 0, f.kept[:0], f.asks[:0], 0
	}
	for n := max(f.scanned, rows.First()); n < rows.Total(); n++ {
		r := rows.Abs(n)
		if !f.keeps(r) {
			continue
		}
		if last := len(f.kept) - 1; last >= 0 && sameAsk(rows.Abs(f.kept[last]), r) {
			f.kept[last] = n
			f.asks[last]++
			continue
		}
		f.kept, f.asks = append(f.kept, n), append(f.asks, 1)
	}
	f.scanned = rows.Total()
	gone := 0
	for gone < len(f.kept) && f.kept[gone] < rows.First() {
		gone++
	}
	if gone > 0 {
		f.kept, f.asks, f.dropped = f.kept[gone:], f.asks[gone:], f.dropped+int64(gone)
	}
}

// Bounds are the list's numbers: [first, total).
func (f *rowFilter) Bounds() (first, total int64) { return f.dropped, f.dropped + int64(len(f.kept)) }

// row returns the row at list number n and how many completions it
// stands for (1 for any other row), or nil.
func (f *rowFilter) row(n int64) (*fold.Row, int32) {
	i := n - f.dropped
	if f.st == nil || i < 0 || i >= int64(len(f.kept)) {
		return nil, 0
	}
	return f.st.Rows().Abs(f.kept[i]), f.asks[i]
}

// sameAsk says whether b is one more completion of what a asked: both
// completion/complete rows of the same reference, ended alike. A
// completion that failed, or any other row, stands alone.
func sameAsk(a, b *fold.Row) bool {
	if a == nil || a.Kind != fold.RowRequest || b.Kind != fold.RowRequest ||
		a.Method != record.MethodComplete || b.Method != record.MethodComplete || a.Level != b.Level ||
		b.Level == fold.LevelWarn || b.Level == fold.LevelError {
		return false
	}
	wa, _, _ := strings.Cut(a.Text, ": ")
	wb, _, _ := strings.Cut(b.Text, ": ")
	return wa == wb
}

// asksText is the text of an entry that stands for n completions of one
// reference: "completion/complete ref/prompt x · 5 asks · the last
// answered in 2.0 ms".
func asksText(text string, n int32) string {
	if n <= 1 {
		return text
	}
	what, how, ok := strings.Cut(text, ": ")
	if !ok {
		return fmt.Sprintf("%s · %d asks", text, n)
	}
	return fmt.Sprintf("%s · %d asks · the last %s", what, n, how)
}
