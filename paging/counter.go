package paging

import "sync"

// A Counter counts list generations for one connection. A list request is
// "out" from [Counter.Begin] until it settles; each settle, answered or
// failed, starts a new generation. The zero value is ready to use, and a
// Counter is safe for concurrent use.
//
// Callers poll [Counter.Snapshot], or set a callback with
// [Counter.SetOnChange] to hear of every change.
type Counter struct {
	mu  sync.Mutex
	gen int64 // latest settled generation; 0 before the first settle
	out int   // requests begun and not yet settled

	onChange   func(gen int64, out int)
	pending    []change // changes not yet passed to onChange, oldest first
	delivering bool     // a goroutine is passing pending changes to onChange
}

// change is the state of a [Counter] right after one Begin or Settle.
type change struct {
	gen int64
	out int
}

// A Request is one list request counted by a [Counter], from
// [Counter.Begin] until [Request.Settle].
type Request struct {
	c       *Counter
	settled bool  // guarded by c.mu
	gen     int64 // guarded by c.mu; the generation its settle started
}

// NewCounter returns a Counter at generation 0 with nothing out.
func NewCounter() *Counter { return &Counter{} }

// SetOnChange sets f to be called after every [Counter.Begin] and
// [Request.Settle] with the generation and the number of requests out right
// after that change; nil stops the calls.
//
// Calls are made outside the Counter's lock, so f may call the Counter's
// methods. They are made one at a time and in the order of the changes, so
// the last call always reports the current state; to keep that order, a call
// may be made on the goroutine of a later change, after the earlier change's
// method has returned. f must not block for long.
func (c *Counter) SetOnChange(f func(gen int64, out int)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.onChange = f
	if f == nil {
		c.pending = nil
	}
}

// Begin counts one list request as out and returns it; call
// [Request.Settle] when it is answered or fails.
func (c *Counter) Begin() *Request {
	c.mu.Lock()
	c.out++
	c.record()
	c.mu.Unlock()
	c.deliver()
	return &Request{c: c}
}

// Settle marks the request as settled, answered or failed, and returns the
// generation that this starts. Settle is idempotent: later calls return the
// same generation and change nothing.
func (r *Request) Settle() int64 {
	c := r.c
	c.mu.Lock()
	if r.settled {
		gen := r.gen
		c.mu.Unlock()
		return gen
	}
	r.settled = true
	c.gen++
	c.out--
	r.gen = c.gen
	gen := r.gen
	c.record()
	c.mu.Unlock()
	c.deliver()
	return gen
}

// Snapshot returns the latest settled generation (0 before any) and the
// number of list requests out.
func (c *Counter) Snapshot() (gen int64, out int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen, c.out
}

// IsLatest reports whether gen is the latest settled generation and no list
// request is out.
func (c *Counter) IsLatest(gen int64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return gen > 0 && gen == c.gen && c.out == 0
}

// Held reports whether the items of the walk r are "held": the walk read
// exactly one page, completely and without error, and that page's generation
// [Counter.IsLatest]. This is the case in which a typical client keeps its
// per-tool call checks; for any other walk it does not.
func (c *Counter) Held(r *Result) bool {
	if r == nil || len(r.Pages) == 0 {
		return false
	}
	gen, out := c.Snapshot()
	return Holds(len(r.Pages), r.Pages[0].Generation, r.Incomplete == Complete && r.Err == nil, gen, out)
}

// Holds is the held/own rule, the one place it is decided: the items of a
// walk are held when the walk was complete (every page read, no error),
// read exactly pages == 1 page, and that page's generation first is still
// the latest settled generation gen with out == 0 list requests out. A
// typical client keeps its per-tool call checks for held items only.
func Holds(pages int, first int64, complete bool, gen int64, out int) bool {
	return complete && pages == 1 && first > 0 && first == gen && out == 0
}

// record queues the current state for onChange. c.mu must be held.
func (c *Counter) record() {
	if c.onChange != nil {
		c.pending = append(c.pending, change{gen: c.gen, out: c.out})
	}
}

// deliver passes queued changes to onChange, outside the lock, unless another
// goroutine is already doing so (it will pass ours too, in order).
func (c *Counter) deliver() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.delivering {
		return
	}
	c.delivering = true
	defer func() { c.delivering = false }()
	for len(c.pending) > 0 && c.onChange != nil {
		ch, f := c.pending[0], c.onChange
		c.pending = c.pending[1:]
		if len(c.pending) == 0 {
			c.pending = nil
		}
		c.mu.Unlock()
		func() {
			defer c.mu.Lock() // held again even if f panics
			f(ch.gen, ch.out)
		}()
	}
}
