package record

import (
	"slices"
	"sync"
	"time"
)

// Log is the append-only event log of one session. Events get a sequence
// number and a time when appended, are handed to every sink in order, kept
// in memory when the log was made with history, and delivered to every
// subscriber. Appending never blocks on a slow subscriber.
type Log struct {
	mu      sync.Mutex
	seq     int64
	keep    bool
	history []Event
	sinks   []func(Event)
	// masks are the secret registries every event is masked with before
	// any sink or subscriber sees it: the one choke point for the record,
	// the spool, --ndjson and the screen alike.
	masks  []*Redactor
	subs   map[*Subscription]struct{}
	closed bool
	now    func() time.Time
}

// LogOptions tune a [Log]. nil means defaults.
type LogOptions struct {
	// History keeps every event in memory, readable with [Log.Events].
	History bool
}

// NewLog returns an empty log.
func NewLog(opts *LogOptions) *Log {
	l := &Log{subs: map[*Subscription]struct{}{}, now: time.Now}
	if opts != nil {
		l.keep = opts.History
	}
	return l
}

// AddSink adds a function called with every event appended from now on, in
// order, masked (see [Log.MaskWith]), while the log is locked: it must be
// quick and must not append.
func (l *Log) AddSink(sink func(Event)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sinks = append(l.sinks, sink)
}

// MaskWith masks every event appended from now on with the secrets r
// knows, then and later: a registry shared with the session that adds
// credentials as it obtains them.
func (l *Log) MaskWith(r *Redactor) {
	if r == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if !slices.Contains(l.masks, r) {
		l.masks = append(l.masks, r)
	}
}

// Append stamps ev with the next sequence number and, when unset, the time,
// and delivers it. It returns the stamped event. Appending to a closed log
// does nothing.
func (l *Log) Append(ev Event) Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return ev
	}
	l.seq++
	ev.Seq = l.seq
	if ev.T.IsZero() {
		ev.T = l.now()
	}
	for _, r := range l.masks {
		ev = r.Event(ev)
	}
	for _, sink := range l.sinks {
		sink(ev)
	}
	if l.keep {
		l.history = append(l.history, ev)
	}
	for s := range l.subs {
		s.push(ev)
	}
	return ev
}

// Events returns a copy of the events kept so far (none unless the log
// keeps history).
func (l *Log) Events() []Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]Event(nil), l.history...)
}

// Subscribe returns a subscription receiving every event appended from now
// on. Call [Subscription.Close] when done.
func (l *Log) Subscribe() *Subscription {
	s := &Subscription{c: make(chan Event), wake: make(chan struct{}, 1), done: make(chan struct{}), log: l}
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		s.closeQueue()
		go s.run()
		return s
	}
	l.subs[s] = struct{}{}
	l.mu.Unlock()
	go s.run()
	return s
}

// Close ends the log: subscribers receive what is queued, then their
// channels close. Later appends are dropped.
func (l *Log) Close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return
	}
	l.closed = true
	for s := range l.subs {
		s.closeQueue()
	}
	clear(l.subs)
}

// Subscription delivers a log's events on a channel, buffering without bound
// so the log never waits for it.
type Subscription struct {
	c    chan Event
	wake chan struct{}
	done chan struct{}
	log  *Log

	mu     sync.Mutex
	queue  []Event
	ended  bool // no more events will be queued
	closer sync.Once
}

// C returns the channel of events. It is closed after the log closes and
// the queue drains, or when the subscription is closed.
func (s *Subscription) C() <-chan Event { return s.c }

// Close stops the subscription; its channel closes soon after.
func (s *Subscription) Close() {
	s.log.mu.Lock()
	delete(s.log.subs, s)
	s.log.mu.Unlock()
	s.closer.Do(func() { close(s.done) })
}

func (s *Subscription) push(ev Event) {
	s.mu.Lock()
	s.queue = append(s.queue, ev)
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *Subscription) closeQueue() {
	s.mu.Lock()
	s.ended = true
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *Subscription) run() {
	defer close(s.c)
	for {
		s.mu.Lock()
		batch := s.queue
		s.queue = nil
		ended := s.ended
		s.mu.Unlock()
		for _, ev := range batch {
			select {
			case s.c <- ev:
			case <-s.done:
				return
			}
		}
		if len(batch) > 0 {
			continue
		}
		if ended {
			return
		}
		select {
		case <-s.wake:
		case <-s.done:
			return
		}
	}
}
