package ui

import (
	"strings"
	"testing"

	"mcpwitness/paging"
	"mcpwitness/record"
)

// A walk the client stopped once it found what it needed (`mcpwitness
// call` stops at the tool's page) read no further by choice: opened from
// its record it shows where it stopped, as a pass, nowhere as a warning.
func TestStoppedWalkIsNoWarning(t *testing.T) {
	b := &evs{}
	evs := append(recordedWalk(b, 1, 2, 3, 0), callEvents(b, 1, "tool_0004", true, `{"content":[]}`)...)
	for i, ev := range evs {
		if w := ev.Walk; w != nil && w.State == "done" {
			// What call records: page 2 named a next cursor the walk did
			// not follow.
			evs[i].Walk.Incomplete = string(paging.Stopped)
		}
	}
	h := replayHarness(t, writeSession(t, "stopped.jsonl", append(evs[:0:0], append(
		[]record.Event{b.connect()}, evs...)...)), 120, 40, "dark")
	h.press("end")
	head := h.headerLines()[1]
	if !strings.Contains(head, "✓ stopped at page 2") || strings.Contains(head, "⚠") {
		t.Errorf("header line = %q, want the stopped walk without a warning", head)
	}
	raw := h.m.View().Content
	if want := h.m.Sty.Pass.Render("✓ stopped at page 2"); !strings.Contains(raw, want) {
		t.Errorf("the stopped walk is not drawn as a pass %q:\n%q", want, h.m.drawn.header)
	}
	if strings.Contains(raw, h.m.Sty.Warn.Render("✓ stopped at page 2")) {
		t.Error("the stopped walk is drawn as a warning")
	}
}
