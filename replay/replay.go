// Package replay shows a session file as it was after any number of its
// events: its position. It folds the file's events into [fold.State]s, in
// turns a caller runs off its own goroutine, and keeps snapshots (marks)
// along the file so that moving back is cheap: a fold starts from the
// nearest state before where it goes.
//
// A state once shown is never changed again, so a caller may draw it while
// the next fold runs. The package has no UI: the ui package runs each
// [Job] in a command and hands it back to [Replay.Folded].
package replay

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"mcpwitness/fold"
	"mcpwitness/record"
)

const (
	// Turn is how long a fold runs before it reports.
	Turn        = 40 * time.Millisecond
	maxMarks    = 64       // snapshots along the whole file
	minMarkGap  = 500      // events between two snapshots, at least
	markBudget  = 32 << 20 // bytes of snapshots at most …
	markShare   = 4        // … and at most a quarter of the file's size
	nearMarks   = 4        // snapshots near the last place moved to
	nearMinSpan = 64       // a fold shorter than this leaves none
)

// Replay is a session file being replayed: the state shown, where the user
// asked to be, and the snapshots that get there. Its methods are called
// from one goroutine; a [Job] runs on another while it is out.
type Replay struct {
	file *record.File
	meta record.ReplayInfo
	name string      // the file's base name
	n    int         // events in the file
	base *fold.State // before the first event: the file's warnings

	loaded  bool
	read    int // events read by the first pass so far
	moments []int
	// restarts are the file's restarts, in order, as the first pass
	// found them.
	restarts []Restart

	marks   []mark // along the file, in order, thinned to the budget
	gap     int    // events between two marks
	budget  int
	near    []mark // near the last place moved to
	running bool   // a fold is out
	jobID   int    // the newest fold's
	from    int    // where the fold out started
	done    int    // how far it got

	st     *fold.State // the state shown
	pos    int         // events folded into it
	what   string      // the last of them, described
	target int         // where the user asked to be
}

// mark is a snapshot: the state after pos events.
type mark struct {
	pos  int
	st   *fold.State
	w    fold.Weight
	what string // the last event folded in, described
}

// Options tune a [Replay]; nil means the defaults.
type Options struct {
	// Size is the file's size in bytes: snapshots weigh at most a quarter
	// of it (and at most 32 MiB, at least 1 MiB). 0 means 1 MiB.
	Size int64
	// Gap is the number of events between two snapshots along the file at
	// first; 0 means the file's length over 64, at least 500. It doubles
	// when the snapshots outgrow their budget.
	Gap int
}

// Open opens and indexes the session file at path. The caller closes the
// replay's [Replay.File] when done.
func Open(path string, opts *Options) (*Replay, error) {
	f, err := record.OpenFile(path)
	if err != nil {
		return nil, err
	}
	o := Options{}
	if opts != nil {
		o = *opts
	}
	if o.Size == 0 {
		if st, err := os.Stat(path); err == nil {
			o.Size = st.Size()
		}
	}
	return New(f, &o), nil
}

// New replays f, which it does not read until the first [Replay.Load]. It
// shows the state before the first event, holding the file's warnings.
func New(f *record.File, opts *Options) *Replay {
	var o Options
	if opts != nil {
		o = *opts
	}
	r := &Replay{file: f, meta: f.Meta(), name: filepath.Base(f.Name()), n: f.Len()}
	r.gap = max(r.n/maxMarks, minMarkGap)
	if o.Gap > 0 {
		r.gap = o.Gap
	}
	r.budget = int(min(int64(markBudget), max(o.Size/markShare, 1<<20)))
	t := r.Started()
	r.base = fold.New(&fold.Options{Lean: true, At: t})
	for _, w := range f.Warnings() {
		r.base.Warn(t, r.name+": "+w)
	}
	r.st, r.target = r.base, r.n
	return r
}

// File is the session file replayed.
func (r *Replay) File() *record.File { return r.file }

// Name is the file's base name.
func (r *Replay) Name() string { return r.name }

// Meta is what the file says of its recording.
func (r *Replay) Meta() record.ReplayInfo { return r.meta }

// Started is when the recording started, or its first event.
func (r *Replay) Started() time.Time {
	if !r.meta.Started.IsZero() {
		return r.meta.Started
	}
	return r.meta.First
}

// Len is the number of events in the file: fewer than indexed when the
// first pass could not read them all.
func (r *Replay) Len() int { return r.n }

// Loaded reports whether the first pass has read the file.
func (r *Replay) Loaded() bool { return r.loaded }

// Read is the number of events the first pass has read so far.
func (r *Replay) Read() int { return r.read }

// Moments are the positions a scrubber stops at (see [IsMoment]), in order.
func (r *Replay) Moments() []int { return r.moments }

// Running reports whether a fold is out.
func (r *Replay) Running() bool { return r.running }

// Progress is where the fold out started and how far it got.
func (r *Replay) Progress() (from, done int) { return r.from, r.done }

// State is the state shown: after [Replay.Pos] events. It never changes.
func (r *Replay) State() *fold.State { return r.st }

// Pos is the number of events folded into the state shown.
func (r *Replay) Pos() int { return r.pos }

// What describes the last event folded into the state shown ("" at the
// start).
func (r *Replay) What() string { return r.what }

// Target is where the user asked to be.
func (r *Replay) Target() int { return r.target }

// Snapshot is a state kept along the file: the state after Pos events.
type Snapshot struct {
	Pos   int
	State *fold.State
}

// Snapshots are the states kept to move quickly: along the file, then
// near the last place moved to.
func (r *Replay) Snapshots() []Snapshot {
	var out []Snapshot
	for _, mk := range append(append([]mark(nil), r.marks...), r.near...) {
		out = append(out, Snapshot{Pos: mk.pos, State: mk.st})
	}
	return out
}

// IsMoment says whether a scrubber stops after ev: a walk starts or ends,
// a list request goes out, a page arrives, a call or another request (a
// read, a prompt get, a completion, a ping, a subscription, a log level)
// starts or ends, a list or a subscribed resource changes, the session
// connects, closes or is restarted.
func IsMoment(ev record.Event) bool {
	switch ev.Kind {
	case record.KindWalk, record.KindListRequest, record.KindPage, record.KindConnect, record.KindClosed, record.KindRestart:
		return true
	case record.KindCall:
		return ev.Call != nil && (ev.Call.State == record.PhaseStart || ev.Call.State == record.PhaseDone)
	case record.KindRequest:
		return ev.Request != nil && (ev.Request.State == record.PhaseStart || ev.Request.State == record.PhaseDone)
	case record.KindNotification:
		return strings.HasSuffix(ev.Method, "/list_changed") || ev.Method == "notifications/resources/updated"
	}
	return false
}

// Load starts the first pass over the file, which finds its moments and
// leaves snapshots along it. Run the job, then hand it to [Replay.Folded].
func (r *Replay) Load() *Job {
	return r.start(&Job{base: r.base, to: r.n, first: true, gap: r.gap})
}

// start makes j the fold out: a new fold gets the newest id.
func (r *Replay) start(j *Job) *Job {
	if j.id == 0 {
		r.jobID++
		j.id = r.jobID
		r.from = j.pos
	}
	r.running, r.done = true, j.pos
	return j
}

// show makes st, the state after pos events, the one shown; what
// describes the last of them.
func (r *Replay) show(st *fold.State, pos int, what string) {
	r.st, r.pos, r.what = st, pos, what
}

// MoveTo asks for the state after t events (kept within the file). The
// state is shown at once when a snapshot holds it, and MoveTo returns nil;
// otherwise it returns the fold that gets there from the nearest state
// before it. Before the file is read, or while a fold is out, it only
// notes where to go: the fold out follows.
func (r *Replay) MoveTo(t int) *Job {
	r.target = max(min(t, r.n), 0)
	if !r.loaded || r.running || r.target == r.pos {
		return nil
	}
	base, pos, what := r.base, 0, ""
	consider := func(st *fold.State, p int, w string) {
		if st != nil && p <= r.target && p >= pos {
			base, pos, what = st, p, w
		}
	}
	for _, mk := range r.marks {
		consider(mk.st, mk.pos, mk.what)
	}
	for _, mk := range r.near {
		consider(mk.st, mk.pos, mk.what)
	}
	consider(r.st, r.pos, r.what)
	if pos == r.target {
		// A snapshot is never changed: it can be shown as it is.
		r.show(base, pos, what)
		return nil
	}
	j := &Job{base: base, pos: pos, to: r.target, what: what}
	if span := r.target - pos; span >= nearMinSpan {
		j.nearEvery = max(span/(nearMarks+1), 1)
	}
	return r.start(j)
}
