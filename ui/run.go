// Package ui is the terminal UI of mcpwitness: a Bubble Tea program that
// shows a server's lists arriving page by page, calls its tools with their
// verdicts, and shows the wire and the session's events.
//
// Everything the panes show is folded from session events, so a recorded
// session replays into the same screens. Actions go through a [Backend].
package ui

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"

	"mcpwitness/record"
	"mcpwitness/session"
)

// Config is what [Run] needs. The caller resolves the command line: it
// makes the session log (wired to --record, when there is one) and the
// spool that export copies, checks the theme name and reads NO_COLOR.
type Config struct {
	Target session.Target // the server (the demo-server child by default)
	// Session is how to dial: Timeout, Protocol, Roots, MaxPages, and Log,
	// the session's log. Run subscribes to the log and neither adds to its
	// sinks nor closes it: the caller closes it after Run returns. A nil Log
	// gets a log of Run's own, closed by Run.
	Session session.Options
	// Export writes the session so far to a new file and says where, how
	// many lines it holds and whether the spool stopped before (see
	// [record.Spool.Export]); nil offers no export.
	Export  func(ctx context.Context) (record.Exported, error)
	Theme   string // a theme name [themes.Lookup] knows, or "" to choose: dark, light on a light background, mono with NoColor
	NoColor bool   // colour is off (NO_COLOR): "" Theme means mono
	// LogLevel, when set, is the level (one of [session.LogLevels]) the
	// server is asked to log at once connected, as the L picker asks:
	// --log-level.
	LogLevel string
}

// Run opens the UI at once, connects to the server in the background and
// walks its tools. It returns when the user quits, after cancelling what is
// in flight, closing the session (which stops a stdio child) and ending
// every goroutine it started. A failed connection is shown and returned.
func Run(ctx context.Context, cfg Config) error {
	return run(ctx, cfg, terminal())
}

func run(ctx context.Context, cfg Config, progOpts ...tea.ProgramOption) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	opts := cfg.Session
	if opts.Log == nil {
		opts.Log = record.NewLog(nil)
		defer opts.Log.Close()
	}
	sub := opts.Log.Subscribe()

	conn := &conn{}
	tasks := newTasks()
	target := cfg.Target
	target.NoAuthBrowser = true // o on the authorization screen opens it
	dial := func(ctx context.Context) (Backend, error) {
		s, err := session.Dial(ctx, target, &opts)
		if err != nil {
			return nil, err
		}
		if !conn.set(s) {
			s.Close()
			return nil, errors.New("closed while connecting")
		}
		return s, nil
	}
	var wg sync.WaitGroup
	m := newModel(liveOptions(ctx, cfg, tasks, dialEarly(ctx, &wg, dial)))
	go Warm()
	p := tea.NewProgram(m, append([]tea.ProgramOption{tea.WithContext(ctx)}, progOpts...)...)

	wg.Go(func() { bridge(sub.C(), p.Send) })

	final, runErr := p.Run()

	// Shut down in order: cancel what is in flight, close the session (and
	// its child), wait for the commands, end the subscription, wait for the
	// bridge. The log is the caller's to close.
	cancel()
	if s := conn.close(); s != nil {
		s.Close()
	}
	tasks.closeAndWait()
	sub.Close()
	wg.Wait()

	if errors.Is(runErr, tea.ErrProgramKilled) && ctx.Err() != nil {
		runErr = nil
	}
	if runErr != nil {
		return runErr
	}
	if fm, ok := final.(*model); ok && fm.dialErr != nil {
		return fm.dialErr
	}
	return nil
}

// dialEarly begins dial now, under ctx, on a goroutine of wg, and
// returns the model's dial, whose first call takes its result: the
// server starts while the program sets the terminal up and draws.
func dialEarly(ctx context.Context, wg *sync.WaitGroup, dial func(context.Context) (Backend, error)) func(context.Context) (Backend, error) {
	e := &earlyDial{done: make(chan struct{})}
	wg.Go(func() { e.run(ctx, dial) })
	// The new goroutine waits for this one's processor, which goes on to
	// build the model (some 5 ms) while another may be busy (Warm): on two
	// cores the server was spawned 5-10 ms late. Yielding lets the dial
	// run until it blocks starting the server.
	runtime.Gosched()
	return e.then(dial)
}

// earlyDial is a dial begun before the program starts, whose result the
// model's first dial takes.
type earlyDial struct {
	done    chan struct{} // closed once run has the result
	backend Backend
	err     error
	taken   atomic.Bool
}

// run dials with dial under ctx and keeps what came of it.
func (e *earlyDial) run(ctx context.Context, dial func(context.Context) (Backend, error)) {
	defer close(e.done)
	e.backend, e.err = dial(ctx)
}

// then is the model's dial: its first call waits for the early one (or
// for ctx), later ones (another try after a failure) call dial.
func (e *earlyDial) then(dial func(context.Context) (Backend, error)) func(context.Context) (Backend, error) {
	return func(ctx context.Context) (Backend, error) {
		if e.taken.Swap(true) {
			return dial(ctx)
		}
		select {
		case <-e.done:
			return e.backend, e.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// liveOptions are the model's options for a live session on cfg's target,
// dialled by dial: the theme and colour as the caller resolved them.
func liveOptions(ctx context.Context, cfg Config, tasks *tasks, dial func(context.Context) (Backend, error)) options {
	return options{
		Dial:     dial,
		Target:   cfg.Target.Describe().String(),
		Loopback: cfg.Target.Loopback(),
		Theme:    cfg.Theme,
		NoColor:  cfg.NoColor,
		Export:   cfg.Export,
		Ctx:      ctx,
		LogLevel: cfg.LogLevel,
		Tasks:    tasks,
	}
}

// bridge delivers events to the program in batches: what arrives within
// a frame (16 ms, at Bubble Tea's 60 frames a second) of the first goes
// in one message, so a server that floods (stderr, logs, notifications)
// or a walk of a page every few milliseconds costs one update, and one
// drawing of the screen, per frame rather than per event; keys still get
// their turn. The screen could not show the events sooner.
func bridge(events <-chan record.Event, send func(tea.Msg)) {
	const most, window = 1000, 16 * time.Millisecond
	timer := time.NewTimer(window)
	defer timer.Stop()
	for ev := range events {
		batch := []record.Event{ev}
		timer.Reset(window)
	collect:
		for len(batch) < most {
			select {
			case ev, ok := <-events:
				if !ok {
					break collect
				}
				batch = append(batch, ev)
			case <-timer.C:
				break collect
			}
		}
		send(eventsMsg(batch))
	}
}

// conn holds the session once dialled, so Run can close it whatever the
// UI is doing.
type conn struct {
	mu     sync.Mutex
	s      *session.Session
	closed bool
}

// set keeps s; false means Run is already shutting down.
func (c *conn) set(s *session.Session) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return false
	}
	c.s = s
	return true
}

func (c *conn) close() *session.Session {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	return c.s
}

// tasks counts the commands that run session work, so shutdown can wait
// for them. A command started after shutdown does nothing.
type tasks struct {
	mu     sync.Mutex
	cond   *sync.Cond
	n      int
	closed bool
}

func newTasks() *tasks {
	t := &tasks{}
	t.cond = sync.NewCond(&t.mu)
	return t
}

// cmd wraps f as a command counted by t.
func (t *tasks) cmd(f func() tea.Msg) tea.Cmd {
	return func() tea.Msg {
		t.mu.Lock()
		if t.closed {
			t.mu.Unlock()
			return nil
		}
		t.n++
		t.mu.Unlock()
		defer func() {
			t.mu.Lock()
			t.n--
			t.cond.Broadcast()
			t.mu.Unlock()
		}()
		return f()
	}
}

func (t *tasks) closeAndWait() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.closed = true
	for t.n > 0 {
		t.cond.Wait()
	}
}
