package panes

// StreamList is the cursor and window of a list over a ring: entries are
// numbered from the start of the stream, the oldest roll off, and while
// following, the cursor stays on the newest entry.
type StreamList struct {
	first, total int64 // the kept entries are [first, total)
	Cursor       int64
	Offset       int64
	H            int
	Follow       bool
}

func NewStreamList() StreamList { return StreamList{Follow: true} }

// Sync takes the ring's current bounds.
func (l *StreamList) Sync(first, total int64) {
	l.first, l.total = first, total
	if l.Follow {
		l.Cursor = total - 1
	}
	l.clamp()
}

func (l *StreamList) SetHeight(h int) {
	l.H = max(h, 0)
	l.clamp()
}

// Move moves the cursor by n; reaching the newest entry follows again.
func (l *StreamList) Move(n int) {
	l.Cursor += int64(n)
	l.Follow = false
	l.clamp()
	if l.Cursor >= l.total-1 {
		l.Follow = true
	}
}

func (l *StreamList) Top() {
	l.Cursor, l.Follow = l.first, false
	l.clamp()
}

func (l *StreamList) Bottom() {
	l.Follow = true
	l.Sync(l.first, l.total)
}

// Scroll moves the window by n rows without moving the cursor past it.
func (l *StreamList) Scroll(n int) { l.Move(n) }

func (l *StreamList) clamp() {
	l.Cursor = max(min(l.Cursor, l.total-1), l.first)
	if l.H <= 0 {
		return
	}
	if l.Cursor < l.Offset {
		l.Offset = l.Cursor
	}
	if l.Cursor >= l.Offset+int64(l.H) {
		l.Offset = l.Cursor - int64(l.H) + 1
	}
	l.Offset = max(min(l.Offset, l.total-int64(l.H)), l.first)
}

// Selected returns the cursor's stream number, or -1 when the list is empty.
func (l *StreamList) Selected() int64 {
	if l.total == l.first {
		return -1
	}
	return l.Cursor
}

func (l *StreamList) MoveBy(n int)  { l.Move(n) }
func (l *StreamList) PageSize() int { return l.H }
