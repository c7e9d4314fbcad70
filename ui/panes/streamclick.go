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
