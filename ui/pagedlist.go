package ui

// pagedRow is one row of a paged list: a page separator, or an entry
// with the key the list picks it by.
type pagedRow interface {
	// entryKey returns the entry's key; ok is false on a separator.
	entryKey() (key string, ok bool)
}

func (r toolRow) entryKey() (string, bool) {
	if r.tool == nil {
		return "", false
	}
	return r.tool.Name, true
}

func (r itemRow) entryKey() (string, bool) {
	if r.item == nil {
		return "", false
	}
	return r.item.Key, true
}

// pagedList is the rows of a list pane, a separator per page before its
// entries, and the cursor over them; the tools and items panes embed it.
type pagedList[R pagedRow] struct {
	rows   []R
	cursor int // index in rows; always an entry when there is one
	offset int
	picked string // key of the selected entry, kept across rebuilds
	height int    // rows shown
}

// listHeight is the number of rows shown.
func (l *pagedList[R]) listHeight() int { return l.height }

// setHeight shows h rows, and scrolls to keep the cursor among them.
func (l *pagedList[R]) setHeight(h int) {
	l.height = max(h, 0)
	l.follow()
}

func (l *pagedList[R]) MoveBy(n int)  { l.move(n) }
func (l *pagedList[R]) PageSize() int { return l.height }

// Wheel moves the cursor by n rows.
func (l *pagedList[R]) Wheel(n int) { l.move(n) }

// Top moves the cursor to the first entry.
func (l *pagedList[R]) Top() { l.cursor = 0; l.move(0) }

// Bottom moves the cursor to the last entry.
func (l *pagedList[R]) Bottom() { l.cursor = len(l.rows) - 1; l.move(0) }

func (l *pagedList[R]) isEntry(i int) bool {
	_, ok := l.rows[i].entryKey()
	return ok
}

// move moves the cursor by n entries, skipping separators, and scrolls
// to show it.
func (l *pagedList[R]) move(n int) {
	if len(l.rows) == 0 {
		l.cursor, l.offset = 0, 0
		return
	}
	c := max(min(l.cursor, len(l.rows)-1), 0)
	dir := 1
	if n < 0 {
		dir, n = -1, -n
	}
	for moved := 0; moved < n; moved++ {
		next := c + dir
		for next >= 0 && next < len(l.rows) && !l.isEntry(next) {
			next += dir
		}
		if next < 0 || next >= len(l.rows) {
			break
		}
		c = next
	}
	if !l.isEntry(c) { // on a separator: take the nearest entry
		for i := c; i < len(l.rows); i++ {
			if l.isEntry(i) {
				c = i
				break
			}
		}
	}
	l.cursor = c
	if k, ok := l.rows[c].entryKey(); ok {
		l.picked = k
	}
	l.follow()
}

// follow scrolls so the cursor (and its page separator, near the top)
// shows.
func (l *pagedList[R]) follow() {
	h := l.height
	if h <= 0 {
		return
	}
	if l.cursor < l.offset {
		l.offset = l.cursor
		if l.offset > 0 && !l.isEntry(l.offset-1) {
			l.offset--
		}
	}
	if l.cursor >= l.offset+h {
		l.offset = l.cursor - h + 1
	}
	l.offset = max(min(l.offset, len(l.rows)-h), 0)
}

// repick puts the cursor back on the picked entry. While the rows may
// still grow (waiting) the picked entry may not have arrived yet: the
// cursor waits on the nearest row and the pick is kept.
func (l *pagedList[R]) repick(waiting bool) {
	if l.picked != "" {
		for i, r := range l.rows {
			if k, ok := r.entryKey(); ok && k == l.picked {
				l.cursor = i
				l.follow()
				return
			}
		}
	}
	picked := l.picked
	l.cursor = min(l.cursor, len(l.rows)-1)
	l.move(0)
	if picked != "" && waiting {
		l.picked = picked
	}
}
