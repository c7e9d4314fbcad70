package ui

import (
	"encoding/json"
	"strings"
	"testing"

	"mcpwitness/record"
)

// Each pause in typing asks for completions: the events pane folds
// consecutive completions of one form into one row that counts them,
// while the record keeps every request; a failed completion, and every
// other row, stands alone.
func TestEventsFoldConsecutiveCompletions(t *testing.T) {
	h := newHarness(t, options{Backend: &fakeBackend{}})
	b := &evs{}
	h.feed(b.connect())
	id := int64(0)
	req := func(method, about string, failed bool) {
		id++
		h.feed(b.ev(record.Event{Kind: record.KindRequest, Method: method, Request: &record.RequestInfo{ID: id, Method: method, About: about, State: record.PhaseStart}}))
		done := &record.RequestInfo{ID: id, Method: method, About: about, State: record.PhaseDone, Sent: true, Ms: 2,
			Result: json.RawMessage(`{"completion":{"values":[]}}`)}
		if failed {
			done.Result, done.RPCError = nil, json.RawMessage(`{"code":-32602,"message":"no such argument"}`)
		}
		h.feed(b.ev(record.Event{Kind: record.KindRequest, Method: method, Request: done}))
	}
	for range 5 {
		req(record.MethodComplete, "ref/prompt greet", false)
	}
	req(record.MethodComplete, "ref/prompt greet", true)
	req(record.MethodComplete, "ref/prompt greet", false)
	req(record.MethodComplete, "ref/prompt greet", false)
	req(record.MethodComplete, "ref/resource demo://weather/{city}", false)
	req(record.MethodPing, "", false)
	req(record.MethodPing, "", false)

	if n := h.m.St.Rows().Total(); n != 12 {
		t.Errorf("the record holds %d rows, want all 12 (connect, 9 completions, 2 pings)", n)
	}
	s := h.screen()
	for _, want := range []string{
		"completion/complete ref/prompt greet · 5 asks · the last answered in 2.0 ms",
		"completion/complete ref/prompt greet: no such argument (code -32602)",
		"completion/complete ref/prompt greet · 2 asks",
		"completion/complete ref/resource demo://weather/{city}: answered",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the events pane lacks %q:\n%s", want, s)
		}
	}
	if n := strings.Count(s, "ping: answered"); n != 2 {
		t.Errorf("%d ping rows, want 2: only completions fold:\n%s", n, s)
	}
	if first, total := h.m.events.Filter.Bounds(); total-first != 7 {
		t.Errorf("the pane lists %d entries, want 7", total-first)
	}
	// The level filter lists log messages alone, as before.
	h.feed(b.ev(record.Event{Kind: record.KindNotification, Method: "notifications/message", Level: "error", Text: "boom"}))
	h.m.setFocus(paneEvents)
	for range 4 {
		h.key("v")
	}
	if s := h.screen(); !strings.Contains(s, "boom") || strings.Contains(s, "asks") {
		t.Errorf("the error floor shows other rows, or not the log:\n%s", s)
	}
}
