package panes

// PagedRow is one row of a paged list: a page separator, or an entry
// with the key the list picks it by.
type PagedRow interface {
	// EntryKey returns the entry's key; ok is false on a separator.
	EntryKey() (key string, ok bool)
}

func (r toolRow) EntryKey() (string, bool) {
	if r.Tool == nil {
		return "", false
	}
	return r.Tool.Name, true
}

// PagedList is the rows of a list pane, a separator per page before its
// entries, and the cursor over them; the tools and items panes embed it.
type PagedList[R PagedRow] struct {
	Rows      []R
	Cursor    int // index in rows; always an entry when there is one
	Offset    int
	PickedKey string // key of the selected entry, kept across rebuilds
	Height    int    // rows shown
}

// ListHeight is the number of rows shown.
func (l *PagedList[R]) ListHeight() int { return l.Height }

// SetHeight shows h rows, and scrolls to keep the cursor among them.
func (l *PagedList[R]) SetHeight(h int) {
	l.Height = max(h, 0)
	l.Follow()
}

func (l *PagedList[R]) MoveBy(n int)  { l.Move(n) }
func (l *PagedList[R]) PageSize() int { return l.Height }

// Wheel moves the cursor by n rows.
func (l *PagedList[R]) Wheel(n int) { l.Move(n) }

// Top moves the cursor to the first entry.
func (l *PagedList[R]) Top() { l.Cursor = 0; l.Move(0) }

// Bottom moves the cursor to the last entry.
func (l *PagedList[R]) Bottom() { l.Cursor = len(l.Rows) - 1; l.Move(0) }

func (l *PagedList[R]) IsEntry(i int) bool {
	_, ok := l.Rows[i].EntryKey()
	return ok
}

// Move moves the cursor by n entries, skipping separators, and scrolls
// to show it.
func (l *PagedList[R]) Move(n int) {
	if len(l.Rows) == 0 {
		l.Cursor, l.Offset = 0, 0
		return
	}
	c := max(min(l.Cursor, len(l.Rows)-1), 0)
	dir := 1
	if n < 0 {
		dir, n = -1, -n
	}
	for moved := 0; moved < n; moved++ {
		next := c + dir
		for next >= 0 && next < len(l.Rows) && !l.IsEntry(next) {
			next += dir
		}
		if next < 0 || next >= len(l.Rows) {
			break
		}
		c = next
	}
	if !l.IsEntry(c) { // on a separator: take the nearest entry
		for i := c; i < len(l.Rows); i++ {
			if l.IsEntry(i) {
				c = i
				break
			}
		}
	}
	l.Cursor = c
	if k, ok := l.Rows[c].EntryKey(); ok {
		l.PickedKey = k
	}
	l.Follow()
}

// Follow scrolls so the cursor (and its page separator, near the top)
// shows.
func (l *PagedList[R]) Follow() {
	h := l.Height
	if h <= 0 {
		return
	}
	if l.Cursor < l.Offset {
		l.Offset = l.Cursor
		if l.Offset > 0 && !l.IsEntry(l.Offset-1) {
			l.Offset--
		}
	}
	if l.Cursor >= l.Offset+h {
		l.Offset = l.Cursor - h + 1
	}
	l.Offset = max(min(l.Offset, len(l.Rows)-h), 0)
}

// Repick puts the cursor back on the picked entry. While the rows may
// still grow (waiting) the picked entry may not have arrived yet: the
// cursor waits on the nearest row and the pick is kept.
func (l *PagedList[R]) Repick(waiting bool) {
	if l.PickedKey != "" {
		for i, r := range l.Rows {
			if k, ok := r.EntryKey(); ok && k == l.PickedKey {
				l.Cursor = i
				l.Follow()
				return
			}
		}
	}
	picked := l.PickedKey
	l.Cursor = min(l.Cursor, len(l.Rows)-1)
	l.Move(0)
	if picked != "" && waiting {
		l.PickedKey = picked
	}
}
