package ui

// ring keeps the newest entries of an unbounded stream, at most cap of
// them. Entries are numbered from the start of the stream, so a position
// stays valid while older entries roll off.
type ring[T any] struct {
	buf   []T
	start int   // index in buf of the oldest kept entry
	n     int   // entries kept
	gone  int64 // entries that rolled off
}

func newRing[T any](capacity int) ring[T] {
	return ring[T]{buf: make([]T, 0, max(capacity, 1))}
}

// push appends v, dropping the oldest entry when full.
func (r *ring[T]) push(v T) {
	switch {
	case len(r.buf) < cap(r.buf):
		r.buf = append(r.buf, v)
		r.n++
	case r.n < len(r.buf):
		// Room left by drop.
		r.buf[(r.start+r.n)%len(r.buf)] = v
		r.n++
	default:
		r.buf[r.start] = v
		r.start = (r.start + 1) % len(r.buf)
		r.gone++
	}
}

// drop lets the oldest kept entry roll off.
func (r *ring[T]) drop() {
	if r.n == 0 {
		return
	}
	var zero T
	r.buf[r.start] = zero
	r.start = (r.start + 1) % len(r.buf)
	r.n--
	r.gone++
}

// len returns the number of entries kept.
func (r *ring[T]) len() int { return r.n }

// first returns the stream number of the oldest kept entry.
func (r *ring[T]) first() int64 { return r.gone }

// total returns the number of entries ever pushed.
func (r *ring[T]) total() int64 { return r.gone + int64(r.n) }

// at returns the kept entry i (0 is the oldest kept).
func (r *ring[T]) at(i int) *T {
	return &r.buf[(r.start+i)%len(r.buf)]
}

// abs returns the entry with stream number n, or nil if it is not kept.
func (r *ring[T]) abs(n int64) *T {
	i := n - r.gone
	if i < 0 || i >= int64(r.n) {
		return nil
	}
	return r.at(int(i))
}
