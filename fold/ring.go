package fold

// A Ring keeps the newest entries of an unbounded stream, at most limit of
// them. Entries are numbered from the start of the stream, so a position
// stays valid while older entries roll off. Its buffer grows as entries
// arrive, so a short stream costs little.
type Ring[T any] struct {
	buf   []T
	limit int
	start int   // index in buf of the oldest kept entry
	n     int   // entries kept
	gone  int64 // entries that rolled off
}

func newRing[T any](limit int) Ring[T] {
	return Ring[T]{limit: max(limit, 1)}
}

// push appends v, dropping the oldest entry when full.
func (r *Ring[T]) push(v T) {
	switch {
	case r.n < len(r.buf):
		// Room left by drop.
		r.buf[(r.start+r.n)%len(r.buf)] = v
		r.n++
	case len(r.buf) < r.limit:
		if r.start != 0 {
			// Put the entries back in order before growing; the full
			// slice expression makes append copy to a new array.
			r.buf = append(r.buf[r.start:len(r.buf):len(r.buf)], r.buf[:r.start]...)
			r.start = 0
		}
		r.buf = append(r.buf, v)
		r.n++
	default:
		r.buf[r.start] = v
		r.start = (r.start + 1) % len(r.buf)
		r.gone++
	}
}

// drop lets the oldest kept entry roll off.
func (r *Ring[T]) drop() {
	if r.n == 0 {
		return
	}
	var zero T
	r.buf[r.start] = zero
	r.start = (r.start + 1) % len(r.buf)
	r.n--
	r.gone++
}

// clone returns a copy that can take and drop entries without changing r.
func (r *Ring[T]) clone() Ring[T] {
	c := *r
	c.buf = append([]T(nil), r.buf...)
	return c
}

// Len returns the number of entries kept.
func (r *Ring[T]) Len() int { return r.n }

// First returns the stream number of the oldest kept entry.
func (r *Ring[T]) First() int64 { return r.gone }

// Total returns the number of entries ever pushed.
func (r *Ring[T]) Total() int64 { return r.gone + int64(r.n) }

// At returns the kept entry i (0 is the oldest kept).
func (r *Ring[T]) At(i int) T {
	return r.buf[(r.start+i)%len(r.buf)]
}

// Abs returns the entry with stream number n, or the zero T if it is not
// kept.
func (r *Ring[T]) Abs(n int64) T {
	i := n - r.gone
	if i < 0 || i >= int64(r.n) {
		var zero T
		return zero
	}
	return r.At(int(i))
}

// set replaces the entry with stream number n, if it is kept.
func (r *Ring[T]) set(n int64, v T) {
	if i := n - r.gone; i >= 0 && i < int64(r.n) {
		r.buf[(r.start+int(i))%len(r.buf)] = v
	}
}
