package panes

// Click puts the cursor on row i of the window; it says whether the row
// was there already.
func (l *StreamList) Click(i int) (was bool) {
	n := l.Offset + int64(i)
	if i < 0 || i >= l.H || n < l.first || n >= l.total {
		return false
	}
	was = n == l.Selected()
	l.Cursor, l.Follow = n, n == l.total-1
	l.clamp()
	return was
}

// Click selects the event at row i of the list; it says whether it was
// selected already.
func (p *EventsPane) Click(i int) bool {
	was := p.List.Click(i)
	p.say()
	return was
}

// Click puts the cursor on the entry at row i of the window; a separator
// keeps it where it was.
func (l *PagedList[R]) Click(i int) {
	n := l.Offset + i
	if i < 0 || i >= l.Height || n >= len(l.Rows) || !l.IsEntry(n) {
		return
	}
	l.Cursor = n
	if k, ok := l.Rows[n].EntryKey(); ok {
		l.PickedKey = k
	}
	l.Follow()
}

// Click selects the frame at row i of the list.
func (p *WirePane) Click(i int) { p.List.Click(i) }
