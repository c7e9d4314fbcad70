package session

import (
	"context"
	"strings"
	"testing"
	"time"

	"mcpwitness/internal/hostiletest"
	"mcpwitness/paging"
	"mcpwitness/record"
)

// On a connection, logging/setLevel goes out first and is not waited for:
// against a server that never answers it, the session connects, walks
// its tools with the level sent before the first request, and ends with
// no error about the level (it ended before its timeout).
func TestDebugLevelIsNotWaitedFor(t *testing.T) {
	t.Parallel()
	log := record.NewLog(&record.LogOptions{History: true})
	s := dial(t, hostile(t, hostiletest.ModeHangSetLevel), &Options{Log: log, Protocol: "2025-11-25"})
	_, res := s.Walk(context.Background(), paging.Tools())
	if res.Incomplete != paging.Complete || len(res.Pages) == 0 {
		t.Fatalf("walk: %v %v; want every page", res.Incomplete, res.Err)
	}
	var order []string
	for _, ev := range log.Events() {
		if ev.Kind == record.KindWire && ev.Dir == record.Send && (ev.Method == record.MethodSetLevel || ev.Method == "tools/list") {
			order = append(order, ev.Method)
		}
		if ev.Kind == record.KindError {
			t.Errorf("error event before Close: %s", ev.Text)
		}
	}
	if len(order) < 2 || order[0] != record.MethodSetLevel || order[1] != "tools/list" {
		t.Errorf("requests sent: %v; want logging/setLevel, then tools/list", order)
	}
	if len(wireFrames(log, record.Recv, record.MethodSetLevel)) != 0 {
		t.Fatal("the server answered logging/setLevel; this test needs one that never does")
	}
	// A level asked for while that one is in flight waits for it, here in
	// vain: nothing more is sent.
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if r := s.SetLogLevel(ctx, "warning"); r.Sent || r.Err == nil || !strings.Contains(r.Err.Error(), "no answer yet") {
		t.Errorf("SetLogLevel while the first level is unanswered: sent %v, err %v; want nothing sent", r.Sent, r.Err)
	}
	if n := len(wireFrames(log, record.Send, record.MethodSetLevel)); n != 1 {
		t.Errorf("%d logging/setLevel sent, want 1", n)
	}
	s.Close()
	for _, ev := range log.Events() {
		if ev.Kind == record.KindError && ev.Method == record.MethodSetLevel {
			t.Errorf("Close recorded the unanswered level as a failure: %s", ev.Text)
		}
	}
}

// A level asked for right after connecting is sent once the debug level
// asked for at connect is answered, so that the server, which may handle
// the two at once, ends at the level asked for last.
func TestLogLevelWaitsForTheDebugLevel(t *testing.T) {
	t.Parallel()
	log := record.NewLog(&record.LogOptions{History: true})
	s := dial(t, demoStdio(t), &Options{Log: log, Protocol: "2025-11-25"})
	defer s.Close()
	if r := s.SetLogLevel(context.Background(), "warning"); !r.Sent || r.Err != nil {
		t.Fatalf("SetLogLevel: sent %v, err %v", r.Sent, r.Err)
	}
	var order []string
	for _, ev := range log.Events() {
		if ev.Kind == record.KindWire && ev.Method == record.MethodSetLevel {
			order = append(order, ev.Dir)
		}
	}
	if want := []string{record.Send, record.Recv, record.Send, record.Recv}; strings.Join(order, " ") != strings.Join(want, " ") {
		t.Errorf("logging/setLevel frames %v; want %v (the second sent after the first's answer)", order, want)
	}
}
