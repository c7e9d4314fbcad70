package ui

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"mcpwitness/session"

	"mcpwitness/fold"
)

// A replay shows a session file as it was after any number of its events:
// its position. States are built by folding events in commands, never in
// Update; a state once shown is never changed again, so a command may copy
// it while the UI draws it. Snapshots of states along the file (marks) make
// moving back cheap: a fold starts from the nearest state before where it
// goes.
const (
	foldSlice   = 40 * time.Millisecond // a fold command's turn before it reports
	maxMarks    = 64                    // snapshots along the whole file
	minMarkGap  = 500                   // events between two snapshots, at least
	markBudget  = 32 << 20              // bytes of snapshots at most …
	markShare   = 4                     // … and at most a quarter of the file's size
	nearMarks   = 4                     // snapshots near the last place moved to
	nearMinSpan = 64                    // a fold shorter than this leaves none
)

// replay is what a model replaying a session file holds besides its state.
type replay struct {
	file *session.File
	meta session.ReplayInfo
	name string      // the file's base name
	n    int         // events in the file
	base *fold.State // before the first event: the file's warnings

	loaded  bool
	read    int // events read by the first pass so far
	moments []int

	marks   []mark // along the file, in order, thinned to the budget
	gap     int    // events between two marks
	budget  int
	near    []mark // near the last place moved to
	running bool   // a fold is in flight
	jobID   int    // the newest fold's
	from    int    // where the fold in flight started
	done    int    // how far it got

	pos    int    // events folded into the state shown
	what   string // the last of them, described
	target int    // where the user asked to be
}

// mark is a snapshot: the state after pos events.
type mark struct {
	pos  int
	st   *fold.State
	w    fold.Weight
	what string // the last event folded in, described
}

func newReplay(f *session.File, size int64) *replay {
	r := &replay{file: f, meta: f.Meta(), name: filepath.Base(f.Name()), n: f.Len()}
	r.gap = max(r.n/maxMarks, minMarkGap)
	r.budget = int(min(int64(markBudget), max(size/markShare, 1<<20)))
	t := r.started()
	r.base = fold.New(&fold.Options{Lean: true, At: t})
	for _, w := range f.Warnings() {
		r.base.Warn(t, r.name+": "+w)
	}
	r.target = r.n
	return r
}

// foldJob folds events of the file into a state it owns while its command
// runs; the model gets it back in a [foldedMsg].
type foldJob struct {
	id    int
	base  *fold.State // copied by the command when st is nil
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

	moments []int
	marks   []mark
	near    []mark
	err     error
}

// foldedMsg reports a fold's turn.
type foldedMsg struct{ job *foldJob }

// run folds events until the target or the end of its turn.
func (j *foldJob) run(ctx context.Context, f *session.File, turn time.Duration) {
	if j.st == nil {
		j.st, j.baseW = j.base.Clone(), j.base.Weigh()
		j.base = nil
	}
	end := time.Now().Add(turn)
	var last session.Event
	defer func() {
		if last.Kind != "" {
			j.what = describe(last)
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
			if isMoment(ev) {
				j.moments = append(j.moments, j.pos)
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

func (j *foldJob) snapshot(last session.Event) mark {
	j.what = describe(last)
	return mark{pos: j.pos, st: j.st.Clone(), w: j.st.Weigh(), what: j.what}
}

// isMoment says whether the scrubber stops after ev: a walk starts or
// ends, a list request goes out, a page arrives, a call starts or ends, a
// list changes, the session connects or closes.
func isMoment(ev session.Event) bool {
	switch ev.Kind {
	case session.KindWalk, session.KindListRequest, session.KindPage, session.KindConnect, session.KindClosed:
		return true
	case session.KindCall:
		return ev.Call != nil && (ev.Call.State == session.PhaseStart || ev.Call.State == session.PhaseDone)
	case session.KindNotification:
		return strings.HasSuffix(ev.Method, "/list_changed")
	}
	return false
}

// startLoad starts the first pass over the file.
func (m *model) startLoad() tea.Cmd {
	r := m.replay
	return m.runFold(&foldJob{base: r.base, to: r.n, first: true, gap: r.gap})
}

// runFold gives j its next turn in a command.
func (m *model) runFold(j *foldJob) tea.Cmd {
	r := m.replay
	if j.id == 0 {
		r.jobID++
		j.id = r.jobID
		r.from = j.pos
	}
	r.running, r.done = true, j.pos
	ctx, f := m.o.Ctx, r.file
	return m.o.Tasks.cmd(func() tea.Msg {
		j.run(ctx, f, foldSlice)
		return foldedMsg{job: j}
	})
}

// folded takes a fold back after its turn: it keeps what the first pass
// found, shows the state when the fold got where the user wants to be, and
// otherwise goes on, or starts again from a better place.
func (m *model) folded(j *foldJob) tea.Cmd {
	r := m.replay
	if j.id != r.jobID {
		return nil // only the newest fold is ever in flight; this is not it
	}
	r.running, r.done = false, j.pos
	if j.first {
		r.read = j.pos
		r.moments = append(r.moments, j.moments...)
		for _, mk := range j.marks {
			r.addMark(mk)
		}
		j.moments, j.marks = nil, nil
	}
	if j.err != nil {
		if m.o.Ctx.Err() != nil {
			return nil
		}
		msg := fmt.Sprintf("reading event %d of %s: %v", j.pos+1, r.name, j.err)
		if j.first {
			// Show what was read.
			r.loaded, r.n = true, j.pos
			r.target = j.pos
			m.show(j.st, j.pos, j.what)
			msg += fmt.Sprintf("; showing the first %s", plural64(int64(j.pos)))
		}
		return m.setStatus(msg, levelError)
	}
	if !j.first && r.target >= j.pos {
		j.to = r.target // follow the user forward
	}
	if j.pos < j.to {
		if j.first || r.target >= j.pos {
			j.gap = r.gap
			return m.runFold(j)
		}
		// The user went back past where this fold is: start again.
		return m.moveTo(r.target)
	}
	if len(j.near) > 0 {
		r.setNear(j.near, j.baseW)
	}
	if j.first {
		r.loaded = true
		r.addMark(mark{pos: j.pos, st: j.st, w: j.st.Weigh(), what: j.what})
		m.show(j.st, j.pos, j.what)
		return tea.Batch(m.loadedStatus(), m.moveTo(r.target))
	}
	m.show(j.st, j.pos, j.what)
	return m.moveTo(r.target)
}

// moveTo asks for the state after t events: shown at once when it is the
// one shown, else folded from the nearest state before it.
func (m *model) moveTo(t int) tea.Cmd {
	r := m.replay
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
	consider(m.st, r.pos, r.what)
	if pos == r.target {
		// A snapshot is never changed: it can be shown as it is.
		m.show(base, pos, what)
		return nil
	}
	j := &foldJob{base: base, pos: pos, to: r.target, what: what}
	if span := r.target - pos; span >= nearMinSpan {
		j.nearEvery = max(span/(nearMarks+1), 1)
	}
	return m.runFold(j)
}

// addMark keeps mk, taken on the grid of every gap events (or at the end
// of the file), unless the marks would weigh more than their share of the
// budget: then the gap doubles and the marks off the new grid go.
func (r *replay) addMark(mk mark) {
	if mk.pos%r.gap != 0 && mk.pos != r.n {
		return // taken before the gap last doubled
	}
	r.marks = append(r.marks, mk)
	for len(r.marks) > 1 && (len(r.marks) > maxMarks || weighMarks(r.marks, r.base.Weigh()) > r.budget*3/4) {
		r.gap *= 2
		kept := r.marks[:0]
		for _, m := range r.marks {
			if m.pos%r.gap == 0 || m.pos == r.n {
				kept = append(kept, m)
			}
		}
		clear(r.marks[len(kept):])
		r.marks = kept
	}
}

// setNear keeps the snapshots a fold left near where it went, as many as
// the rest of the budget allows, nearest last.
func (r *replay) setNear(near []mark, base fold.Weight) {
	room := r.budget - weighMarks(r.marks, r.base.Weigh())
	for len(near) > 0 && weighMarks(near, base) > room {
		near = near[1:]
	}
	r.near = near
}

// weighMarks is the weight of marks, each over the one before, the first
// over first.
func weighMarks(marks []mark, first fold.Weight) int {
	total, prev := 0, first
	for _, m := range marks {
		total += m.w.Over(prev)
		prev = m.w
	}
	return total
}

// show makes st, the state after pos events, the one on screen; what
// describes the last of them.
func (m *model) show(st *fold.State, pos int, what string) {
	r := m.replay
	r.pos, r.what = pos, what
	m.st = st // the panes share it
}

// loadedStatus says the file is read, and what was forgiven.
func (m *model) loadedStatus() tea.Cmd {
	r := m.replay
	ws := r.file.Warnings()
	if len(ws) == 0 {
		return m.setStatus(fmt.Sprintf("read %s from %s", pluralEvents(r.n), r.name), levelOK)
	}
	msg := fmt.Sprintf("%s: %s", r.name, ws[0])
	if len(ws) > 1 {
		msg += fmt.Sprintf(" (and %d more warnings in the events pane)", len(ws)-1)
	}
	return m.setStatus(msg, levelWarn)
}

func pluralEvents(n int) string {
	if n == 1 {
		return "1 event"
	}
	return thousands(int64(n)) + " events"
}

// thousands writes n with separators: 45,678.
func thousands(n int64) string {
	s := itoa64(n)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	out := make([]byte, 0, len(s)+len(s)/3)
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}
