package ui

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"mcpwitness/record"
)

// In `mcpwitness open`, > and < stop at every request the session made,
// as they stop at calls: reads, prompt gets, completions, pings and
// subscriptions, where each starts and where it ends.
func TestScrubberStopsAtEveryRequest(t *testing.T) {
	b := &evs{}
	evs := append([]record.Event{b.connect()}, recordedWalk(b, 1, 1, 3, 0)...)
	var want []string
	for i, r := range []struct{ method, about string }{{record.MethodRead, "demo://readme"}, {record.MethodGetPrompt, "greet"},
		{record.MethodComplete, "ref/prompt greet name"}, {record.MethodPing, ""}, {record.MethodSubscribe, "demo://readme"}} {
		id := int64(i + 1)
		for _, phase := range []record.Phase{record.PhaseStart, record.PhaseDone} {
			info := &record.RequestInfo{ID: id, Method: r.method, About: r.about, State: phase}
			if phase == record.PhaseDone {
				info.Sent, info.Result = true, json.RawMessage(`{}`)
			}
			evs = append(evs, b.ev(record.Event{Kind: record.KindRequest, Method: r.method, Request: info}),
				b.ev(record.Event{Kind: record.KindStderr, Text: "between"}))
			want = append(want, r.method)
		}
	}
	h := replayHarness(t, writeSession(t, "requests.jsonl", evs), 120, 40, "dark")
	h.press("{")
	var got []string
	for last := h.m.replay.Pos(); ; last = h.m.replay.Pos() {
		h.press(">")
		if h.m.replay.Pos() == last {
			break // the end
		}
		if what := h.m.replay.What(); strings.Contains(what, "#") && !strings.Contains(what, "walk") {
			got = append(got, strings.Fields(what)[0])
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("> stopped at %q, want %q", got, want)
	}
}
