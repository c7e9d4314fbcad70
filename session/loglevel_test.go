package session

import (
	"context"
	"testing"

	"mcpwitness/internal/hostiletest"
	"mcpwitness/paging"
)

// On a connection, logging/setLevel goes out first and is not waited for:
// against a server that never answers it, the session connects, walks
// its tools with the level sent before the first request, and ends with
// no error about the level (it ended before its timeout).
func TestDebugLevelIsNotWaitedFor(t *testing.T) {
	log := NewLog(&LogOptions{History: true})
	s := dial(t, hostile(t, hostiletest.ModeHangSetLevel), &Options{Log: log, Protocol: "2025-11-25"})
	_, res := s.Walk(context.Background(), paging.Tools())
	if res.Incomplete != paging.Complete || len(res.Pages) == 0 {
		t.Fatalf("walk: %v %v; want every page", res.Incomplete, res.Err)
	}
	var order []string
	for _, ev := range log.Events() {
		if ev.Kind == KindWire && ev.Dir == Send && (ev.Method == MethodSetLevel || ev.Method == "tools/list") {
			order = append(order, ev.Method)
		}
		if ev.Kind == KindError {
			t.Errorf("error event before Close: %s", ev.Text)
		}
	}
	if len(order) < 2 || order[0] != MethodSetLevel || order[1] != "tools/list" {
		t.Errorf("requests sent: %v; want logging/setLevel, then tools/list", order)
	}
	if len(wireFrames(log, Recv, MethodSetLevel)) != 0 {
		t.Fatal("the server answered logging/setLevel; this test needs one that never does")
	}
	s.Close()
	for _, ev := range log.Events() {
		if ev.Kind == KindError && ev.Method == MethodSetLevel {
			t.Errorf("Close recorded the unanswered level as a failure: %s", ev.Text)
		}
	}
}
