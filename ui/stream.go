package ui

// streamList is the cursor and window of a list over a ring: entries are
// numbered from the start of the stream, the oldest roll off, and while
// following, the cursor stays on the newest entry.
type streamList struct {
	first, total int64 // the kept entries are [first, total)
	cursor       int64
	offset       int64
	h            int
	follow       bool
}

func newStreamList() streamList { return streamList{follow: true} }

// Sync takes the ring's current bounds.
func (l *streamList) Sync(first, total int64) {
	l.first, l.total = first, total
	if l.follow {
		l.cursor = total - 1
	}
	l.clamp()
}

func (l *streamList) SetHeight(h int) {
	l.h = max(h, 0)
	l.clamp()
}

// Move moves the cursor by n; reaching the newest entry follows again.
func (l *streamList) Move(n int) {
	l.cursor += int64(n)
	l.follow = false
	l.clamp()
	if l.cursor >= l.total-1 {
		l.follow = true
	}
}

func (l *streamList) Top() {
	l.cursor, l.follow = l.first, false
	l.clamp()
}

func (l *streamList) Bottom() {
	l.follow = true
	l.Sync(l.first, l.total)
}

// Scroll moves the window by n rows without moving the cursor past it.
func (l *streamList) Scroll(n int) { l.Move(n) }

func (l *streamList) clamp() {
	l.cursor = max(min(l.cursor, l.total-1), l.first)
	if l.h <= 0 {
		return
	}
	if l.cursor < l.offset {
		l.offset = l.cursor
	}
	if l.cursor >= l.offset+int64(l.h) {
		l.offset = l.cursor - int64(l.h) + 1
	}
	l.offset = max(min(l.offset, l.total-int64(l.h)), l.first)
}

// Selected returns the cursor's stream number, or -1 when the list is empty.
func (l *streamList) Selected() int64 {
	if l.total == l.first {
		return -1
	}
	return l.cursor
}

func (l *streamList) MoveBy(n int)  { l.Move(n) }
func (l *streamList) PageSize() int { return l.h }
