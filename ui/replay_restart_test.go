package ui

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mcpwitness/internal/hostiletest"
	"mcpwitness/paging"
	"mcpwitness/record"
	"mcpwitness/session"
)

// recordRestart records a session with the hostile server over stdio: a
// walk of its tools, a restart (a new process) and a walk on the new
// connection; it returns the file's path.
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
	n.Close()
	log.Close()
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// The scrubber stops at a restart, the status line says what it was, and
// until the new connection's walk the tools shown are said to be from
// before it.
func TestReplayStopsAtARestart(t *testing.T) {
	h := replayHarness(t, recordRestart(t), 120, 40, "dark")
	rs := h.m.replay.Restarts()
	if len(rs) != 1 {
		t.Fatalf("restarts %+v, want one", rs)
	}
	at := rs[0].Pos
	if s := h.statusText(); strings.Contains(s, "before the restart") {
		t.Errorf("at the end, after the new walk, the status line says the tools are old: %q", s)
	}
	h.press("{")
	for range 200 {
		if h.m.replay.Pos() >= at {
			break
		}
		h.press(">")
	}
	if h.m.replay.Pos() != at {
		t.Fatalf("the scrubber's moments pass the restart at event %d: at %d", at, h.m.replay.Pos())
	}
	if s := h.statusText(); !strings.Contains(s, "tools from before the restart") {
		t.Errorf("at the restart the status line does not say the tools are from before it: %q", s)
	}
	// What the status line says once it is free of messages.
	if what := h.m.replay.What(); !strings.Contains(what, "restarting") || !strings.Contains(what, "as a new process") {
		t.Errorf("the restart is described as %q", what)
	}
	if w := h.m.St.Shown(); w == nil || len(w.Tools) == 0 {
		t.Errorf("at the restart no tools are shown")
	}
	h.press("<")
	if s := h.statusText(); strings.Contains(s, "before the restart") {
		t.Errorf("before the restart the status line says the tools are old: %q", s)
	}
}
