package replay_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"mcpwitness/internal/hostiletest"
	"mcpwitness/paging"
	"mcpwitness/record"
	"mcpwitness/replay"
	"mcpwitness/session"
)

// recordRestart records a session with the hostile server over stdio: a
// walk of its tools, a restart (a new process), and a walk on the new
// connection. It returns the file's path.
func recordRestart(t *testing.T) string {
	t.Helper()
	bin := hostiletest.Build(t)
	target := session.Target{Command: hostiletest.Command(bin, hostiletest.ModeNormal).Args}
	path := filepath.Join(t.TempDir(), "restart.jsonl")
	rec, err := record.CreateRecord(path, record.NewHeader("mcpwitness test", target.Describe()), target.Secrets())
	if err != nil {
		t.Fatal(err)
	}
	log := record.NewLog(nil)
	log.AddSink(rec.Write)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := session.Dial(ctx, target, &session.Options{Log: log, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if _, res := s.Walk(ctx, paging.Tools()); res.Err != nil {
		t.Fatalf("the walk before the restart: %v", res.Err)
	}
	n, err := s.Restart(ctx)
	if err != nil {
		t.Fatalf("Restart: %v", err)
	}
	if _, res := n.Walk(ctx, paging.Tools()); res.Err != nil {
		t.Fatalf("the walk after the restart: %v", res.Err)
	}
	if err := n.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	log.Close()
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// A restart is a moment: the scrubber stops at it, and until the walk on
// the new connection the tools shown are from the one it ended.
func TestARecordedRestartIsAMoment(t *testing.T) {
	r, err := replay.Open(recordRestart(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.File().Close()
	if !settle(t, r, r.Load()) {
		t.Fatal("the first pass did not end")
	}
	rs := r.Restarts()
	if len(rs) != 1 {
		t.Fatalf("restarts %+v, want one", rs)
	}
	at := rs[0].Pos
	ev, err := r.File().Event(at - 1)
	if err != nil || ev.Kind != record.KindRestart {
		t.Fatalf("event %d is %q (%v), want the restart", at, ev.Kind, err)
	}
	if !slices.Contains(r.Moments(), at) {
		t.Errorf("moments %v lack the restart at %d", r.Moments(), at)
	}
	if r.OldWalk(at-1) != 0 || r.OldWalk(0) != 0 {
		t.Errorf("OldWalk before the restart: %d, %d; want 0", r.OldWalk(at-1), r.OldWalk(0))
	}
	if rs[0].OldWalk == 0 || r.OldWalk(at) != rs[0].OldWalk || r.OldWalk(r.Len()) != rs[0].OldWalk {
		t.Errorf("OldWalk at and after the restart: %d, %d; want the walk before it, %d", r.OldWalk(at), r.OldWalk(r.Len()), rs[0].OldWalk)
	}

	// At the restart the tools shown are the old connection's walk; at
	// the end, the new one's.
	settle(t, r, r.MoveTo(at))
	if w := r.State().Shown(); w == nil || w.ID > rs[0].OldWalk || len(w.Tools) == 0 {
		t.Errorf("at the restart the tools shown are from walk %v, want walk %d's", w, rs[0].OldWalk)
	}
	if got := r.What(); got == "" || got == string(record.KindRestart) {
		t.Errorf("the restart is described as %q", got)
	}
	settle(t, r, r.MoveTo(r.Len()))
	if w := r.State().Shown(); w == nil || w.ID <= rs[0].OldWalk {
		t.Errorf("at the end the tools shown are from walk %v, want one after the restart", w)
	}
	// The scrubber's next moment after the one before the restart is the
	// restart itself.
	i := slices.Index(r.Moments(), at)
	if i < 1 || r.Moments()[i-1] >= at {
		t.Errorf("moments %v around the restart at %d", r.Moments(), at)
	}
}
