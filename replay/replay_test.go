package replay_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"mcpwitness/fold"
	"mcpwitness/record"
	"mcpwitness/replay"
	"mcpwitness/session"
)

// sessionFile writes a session file of a connection and then, walks times,
// a walk starting, a line of stderr and a list change; it returns the
// file's path and its events.
func sessionFile(t *testing.T, walks int) (string, []record.Event) {
	t.Helper()
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	var evs []record.Event
	add := func(ev record.Event) {
		ev.T = t0.Add(time.Duration(len(evs)) * time.Millisecond)
		evs = append(evs, ev)
	}
	add(record.Event{Kind: record.KindConnect})
	for id := int64(1); id <= int64(walks); id++ {
		w := &record.WalkInfo{ID: id, Method: "tools/list"}
		add(record.Event{Kind: record.KindWalk, Walk: w, Method: "tools/list"})
		add(record.Event{Kind: record.KindStderr, Text: "working"})
		add(record.Event{Kind: record.KindNotification, Method: "notifications/tools/list_changed"})
	}
	path := filepath.Join(t.TempDir(), "s.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	bw := bufio.NewWriter(f)
	h := record.NewHeader("mcpwitness test", session.Target{Name: "fake"}.Describe())
	h.Started = t0
	for _, v := range append([]any{h}, anys(evs)...) {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		bw.Write(append(b, '\n'))
	}
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	return path, evs
}

func anys(evs []record.Event) []any {
	out := make([]any, len(evs))
	for i := range evs {
		out[i] = evs[i]
	}
	return out
}

// settle runs the jobs the replay gives out until none is left, as a UI
// does in its commands, and says whether the first pass ended.
func settle(t *testing.T, r *replay.Replay, j *replay.Job) (loaded bool) {
	t.Helper()
	for range 10000 {
		if j == nil {
			return loaded
		}
		j.Run(context.Background(), r.File(), replay.Turn)
		o := r.Folded(j)
		if o.Err != nil {
			t.Fatal(o.Err)
		}
		loaded = loaded || o.Loaded
		j = o.Next
	}
	t.Fatal("the replay never settled")
	return false
}

func foldTo(evs []record.Event, p int) *fold.State {
	st := fold.New(&fold.Options{Lean: true})
	for i, ev := range evs[:p] {
		st.ApplyAt(ev, i+1)
	}
	return st
}

func TestLoadThenMoveAnywhereMatchesAFoldFromTheStart(t *testing.T) {
	path, evs := sessionFile(t, 40)
	r, err := replay.Open(path, &replay.Options{Gap: 9})
	if err != nil {
		t.Fatal(err)
	}
	defer r.File().Close()
	if r.Loaded() || r.Len() != len(evs) || r.State() == nil || r.Pos() != 0 {
		t.Fatalf("before loading: loaded %v, %d of %d events, at %d", r.Loaded(), r.Len(), len(evs), r.Pos())
	}
	if j := r.MoveTo(5); j != nil {
		t.Fatal("MoveTo before the file is read gave a fold")
	}
	if !settle(t, r, r.Load()) {
		t.Fatal("the first pass never said it loaded")
	}
	// It goes where it was asked while reading.
	if !r.Loaded() || r.Read() != len(evs) || r.Pos() != 5 || r.Running() {
		t.Fatalf("after loading: loaded %v, read %d, at %d, running %v", r.Loaded(), r.Read(), r.Pos(), r.Running())
	}
	if n := len(r.Snapshots()); n < len(evs)/9 {
		t.Errorf("%d snapshots; want one every 9 events", n)
	}
	// Every walk's start and every list change is a moment.
	if got, want := len(r.Moments()), 1+2*40; got != want {
		t.Errorf("%d moments, want %d", got, want)
	}
	for _, p := range []int{len(evs), 3, 100, 0, 64, 63, 65, 9, 18, len(evs) - 1} {
		settle(t, r, r.MoveTo(p))
		checkAt(t, r, evs, p)
	}
	settle(t, r, r.MoveTo(len(evs)+50))
	if r.Pos() != len(evs) {
		t.Errorf("MoveTo past the end is at %d, want the end %d", r.Pos(), len(evs))
	}
}

// checkAt checks that r shows the state after p of evs: where it is, what
// it holds, and how it describes the last event.
func checkAt(t *testing.T, r *replay.Replay, evs []record.Event, p int) {
	t.Helper()
	if r.Pos() != p || r.Target() != p {
		t.Fatalf("MoveTo(%d) is at %d, target %d", p, r.Pos(), r.Target())
	}
	want := foldTo(evs, p)
	if got := r.State(); got.Applied() != want.Applied() || len(got.Walks()) != len(want.Walks()) || got.Gen() != want.Gen() {
		t.Errorf("at %d: applied %d, %d walks, gen %d; a fold from the start: %d, %d, %d",
			p, got.Applied(), len(got.Walks()), got.Gen(), want.Applied(), len(want.Walks()), want.Gen())
	}
	if p > 0 && r.What() != replay.Describe(evs[p-1]) {
		t.Errorf("at %d the last event is described %q, want %q", p, r.What(), replay.Describe(evs[p-1]))
	}
}

func TestAStaleFoldIsDropped(t *testing.T) {
	path, _ := sessionFile(t, 100)
	r, err := replay.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.File().Close()
	settle(t, r, r.Load())
	old := r.MoveTo(10)
	// The user moves again while that fold is out: the model gets nothing
	// new until the fold comes back, which then follows the user.
	if j := r.MoveTo(200); j != nil {
		t.Fatal("a second fold went out while one was running")
	}
	settle(t, r, old)
	if r.Pos() != 200 {
		t.Errorf("the fold did not follow the user to 200: at %d", r.Pos())
	}
	// A job given back twice is not the newest any more.
	if o := r.Folded(old); o.Next != nil || o.Loaded || o.Err != nil {
		t.Errorf("a stale fold was taken: %+v", o)
	}
}

func TestACutFileShowsWhatWasRead(t *testing.T) {
	path, evs := sessionFile(t, 5)
	r, err := replay.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.File().Close()
	j := r.Load()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	j.Run(ctx, r.File(), replay.Turn)
	if o := r.Folded(j); o.Err == nil || o.Next != nil || o.Cut {
		t.Errorf("a cancelled first pass: %+v; want its context's error, nothing next, the file not cut", o)
	}
	if r.Len() != len(evs) {
		t.Errorf("a cancelled pass cut the file to %d events", r.Len())
	}
}

func TestIsMoment(t *testing.T) {
	for _, c := range []struct {
		ev   record.Event
		want bool
	}{
		{record.Event{Kind: record.KindPage}, true},
		{record.Event{Kind: record.KindCall, Call: &record.CallInfo{State: record.PhaseStart}}, true},
		{record.Event{Kind: record.KindCall, Call: &record.CallInfo{State: record.PhaseDone}}, true},
		{record.Event{Kind: record.KindCall}, false},
		{record.Event{Kind: record.KindNotification, Method: "notifications/prompts/list_changed"}, true},
		{record.Event{Kind: record.KindNotification, Method: "notifications/progress"}, false},
		{record.Event{Kind: record.KindStderr}, false},
		{record.Event{Kind: record.KindNotification, Method: "notifications/resources/updated"}, true},
		{record.Event{Kind: record.KindRestart}, true},
	} {
		if got := replay.IsMoment(c.ev); got != c.want {
			t.Errorf("IsMoment(%s %s) = %v, want %v", c.ev.Kind, c.ev.Method, got, c.want)
		}
	}
	// Every request the UI sends, not only calls, starts and ends a moment;
	// its verdicts do not.
	for _, method := range []string{record.MethodRead, record.MethodGetPrompt, record.MethodComplete, record.MethodPing,
		record.MethodSubscribe, record.MethodUnsubscribe, record.MethodSetLevel} {
		for phase, want := range map[record.Phase]bool{record.PhaseStart: true, record.PhaseDone: true, record.PhaseVerdict: false} {
			ev := record.Event{Kind: record.KindRequest, Method: method, Request: &record.RequestInfo{Method: method, State: phase}}
			if got := replay.IsMoment(ev); got != want {
				t.Errorf("IsMoment(%s %s) = %v, want %v", method, phase, got, want)
			}
		}
	}
	read := record.Event{Kind: record.KindRequest, Request: &record.RequestInfo{ID: 4, Method: record.MethodRead, About: "demo://readme", State: record.PhaseDone}}
	if got, want := replay.Describe(read), "resources/read #4 demo://readme ended"; got != want {
		t.Errorf("Describe(read) = %q, want %q", got, want)
	}
	if replay.IsMoment(record.Event{Kind: record.KindRequest}) {
		t.Error("a request event without its request is a moment")
	}
}
