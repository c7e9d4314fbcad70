package replay

import (
	"context"
	"errors"
	"fmt"
	"time"

	"mcpwitness/fold"
	"mcpwitness/record"
)

// Job is one fold of a replay's events into a state it owns while it runs.
// [Replay.Load], [Replay.MoveTo] and [Replay.Folded] give jobs out; the
// caller runs each with [Job.Run], off the goroutine that holds the
// replay, and hands it back to [Replay.Folded].
type Job struct {
	id    int
	base  *fold.State // copied by Run when st is nil
	baseW fold.Weight
	st    *fold.State
	what  string // the last event folded in, described
	pos   int
	to    int
	// first is the pass that reads the whole file once: it finds the
	// moments and leaves marks every gap events.
	first bool
	gap   int
	// nearEvery leaves snapshots every so many events (0: none).
	nearEvery int

	moments  []int
	restarts []Restart
	marks    []mark
	near     []mark
	err      error
}

// Run folds events of f, the replay's file, until the job's target, until
// ctx ends, or for about turn, whichever comes first.
func (j *Job) Run(ctx context.Context, f *record.File, turn time.Duration) {
	if j.st == nil {
		j.st, j.baseW = j.base.Clone(), j.base.Weigh()
		j.base = nil
	}
	end := time.Now().Add(turn)
	var last record.Event
	defer func() {
		if last.Kind != "" {
			j.what = Describe(last)
		}
	}()
	for j.pos < j.to {
		if ctx.Err() != nil {
			j.err = ctx.Err()
			return
		}
		ev, err := f.Event(j.pos)
		if err != nil {
			j.err = err
			return
		}
		j.st.ApplyAt(ev, j.pos+1)
		j.pos++
		last = ev
		if j.first {
			if IsMoment(ev) {
				j.moments = append(j.moments, j.pos)
			}
			if ev.Kind == record.KindRestart {
				j.restarts = append(j.restarts, Restart{Pos: j.pos, OldWalk: newestWalk(j.st)})
			}
			if j.pos%j.gap == 0 && j.pos < j.to {
				j.marks = append(j.marks, j.snapshot(ev))
			}
		}
		if j.nearEvery > 0 && len(j.near) < nearMarks && j.pos < j.to && (j.to-j.pos)%j.nearEvery == 0 {
			j.near = append(j.near, j.snapshot(ev))
		}
		if j.pos%32 == 0 && time.Now().After(end) {
			return
		}
	}
}

func (j *Job) snapshot(last record.Event) mark {
	j.what = Describe(last)
	return mark{pos: j.pos, st: j.st.Clone(), w: j.st.Weigh(), what: j.what}
}

// Outcome is what a fold's turn came to.
type Outcome struct {
	// Next is the fold to run next: this one going on, or a new one from a
	// better place. Nil when there is none.
	Next *Job
	// Loaded is true when the first pass has just read the whole file.
	Loaded bool
	// Err is why reading the file failed. When the first pass failed, the
	// file is cut there (see [Replay.Len]) and what was read is shown.
	Err error
	// Cut is true when the first pass failed: the file ends where it did.
	Cut bool
}

// Folded takes j back after its turn: it keeps what the first pass found,
// shows the state when the fold got where the user wants to be, and says
// what to run next. A job that is not the newest is dropped.
func (r *Replay) Folded(j *Job) Outcome {
	if j.id != r.jobID {
		return Outcome{} // only the newest fold is ever out; this is not it
	}
	r.running, r.done = false, j.pos
	if j.first {
		r.read = j.pos
		r.moments = append(r.moments, j.moments...)
		r.restarts = append(r.restarts, j.restarts...)
		for _, mk := range j.marks {
			r.addMark(mk)
		}
		j.moments, j.restarts, j.marks = nil, nil, nil
	}
	if j.err != nil {
		return r.failed(j)
	}
	if !j.first && r.target >= j.pos {
		j.to = r.target // follow the user forward
	}
	if j.pos < j.to {
		if j.first || r.target >= j.pos {
			j.gap = r.gap
			return Outcome{Next: r.start(j)}
		}
		// The user went back past where this fold is: start again.
		return Outcome{Next: r.MoveTo(r.target)}
	}
	if len(j.near) > 0 {
		r.setNear(j.near, j.baseW)
	}
	if j.first {
		r.loaded = true
		r.addMark(mark{pos: j.pos, st: j.st, w: j.st.Weigh(), what: j.what})
		r.show(j.st, j.pos, j.what)
		return Outcome{Loaded: true, Next: r.MoveTo(r.target)}
	}
	r.show(j.st, j.pos, j.what)
	return Outcome{Next: r.MoveTo(r.target)}
}

// failed says where j could not read the file. A first pass shows what it
// read, and the file ends there.
func (r *Replay) failed(j *Job) Outcome {
	if errors.Is(j.err, context.Canceled) || errors.Is(j.err, context.DeadlineExceeded) {
		return Outcome{Err: j.err} // the caller is stopping
	}
	err := fmt.Errorf("reading event %d of %s: %w", j.pos+1, r.name, j.err)
	if j.first {
		r.loaded, r.n = true, j.pos
		r.target = j.pos
		r.show(j.st, j.pos, j.what)
	}
	return Outcome{Err: err, Cut: j.first}
}
