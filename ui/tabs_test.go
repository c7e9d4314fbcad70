package ui

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"mcpwitness/finding"
	"mcpwitness/fold"
	"mcpwitness/paging"
	"mcpwitness/record"

	"mcpwitness/ui/panes"
)

// selectItem switches to the tab of tabKey and filters its list for
// query, leaving the filter with the best match selected.
func (h *harness) selectItem(tabKey, query, want string) *fold.Item {
	h.t.Helper()
	h.key(tabKey)
	h.key("/")
	h.typeText(query)
	h.key("enter")
	it := h.m.items[h.m.tab.item()].Selected()
	if it == nil || it.Key != want {
		h.t.Fatalf("selected %v, want %s; screen:\n%s", it, want, h.screen())
	}
	return it
}

// latest waits for the newest request of method about about to end.
func (h *harness) latest(method, about string) *fold.Request {
	h.t.Helper()
	var got *fold.Request
	h.until(method+" "+about, func() bool {
		reqs := h.m.St.Requests()
		for i := len(reqs) - 1; i >= 0; i-- {
			if r := reqs[i]; r.Method == method && r.About == about && r.Done && h.m.ops.request == nil {
				got = r
				return true
			}
		}
		return false
	})
	return got
}

func TestTabsShowEveryListTheDemoDeclares(t *testing.T) {
	h, _ := demoHarness(t)
	if got := h.m.tabs(); !slices.Equal(got, []tab{tabTools, tabResources, tabTemplates, tabPrompts}) {
		t.Fatalf("tabs %v", got)
	}
	strip := strings.Split(h.screen(), "\n")[3]
	if !strings.Contains(strip, "Tools 53") || !strings.Contains(strip, "3") {
		t.Errorf("the tab strip: %q", strip)
	}
	// One walk each, tools first, every one complete.
	var lists []string
	for _, w := range h.m.St.Walks() {
		if !w.Complete() {
			t.Errorf("walk #%d of %s: %+v", w.ID, w.Method, w)
		}
		lists = append(lists, w.Method)
	}
	want := []string{"tools/list", "resources/list", "resources/templates/list", "prompts/list"}
	if !slices.Equal(lists, want) {
		t.Errorf("walks %v, want %v", lists, want)
	}
	for key, tb := range map[string]tab{"2": tabResources, "3": tabTemplates, "4": tabPrompts, "1": tabTools} {
		h.key(key)
		if h.m.tab != tb {
			t.Errorf("key %s shows tab %d, want %d", key, h.m.tab, tb)
		}
	}
	h.key("2")
	s := h.screen()
	for _, want := range []string{"Resources 30", "page 1 · 10 resources", "page 3", "demo://changelog", "278 B"} {
		if !strings.Contains(s, want) {
			t.Errorf("the resources tab lacks %q:\n%s", want, s)
		}
	}
	if !strings.Contains(h.headerLines()[1], "✓ 3 pages · 30 resources") {
		t.Errorf("the header names the tab's walk: %q", h.headerLines()[1])
	}
}

func TestEachTabKeepsItsSelectionAndFilter(t *testing.T) {
	h, _ := demoHarness(t)
	h.selectItem("2", "notepad", "demo://notepad")
	h.key("4")
	h.key("j")
	prompt := h.m.items[tabPrompts.item()].Selected()
	h.key("1")
	h.key("/")
	h.typeText("divide")
	h.key("enter")
	h.key("2")
	if it := h.m.items[tabResources.item()].Selected(); it == nil || it.Key != "demo://notepad" || !strings.Contains(h.screen(), "/notepad") {
		t.Errorf("back on resources: selected %v, screen:\n%s", it, h.screen())
	}
	h.key("4")
	if it := h.m.items[tabPrompts.item()].Selected(); it != prompt {
		t.Errorf("back on prompts: selected %v, want %v", it, prompt)
	}
	h.key("1")
	if sel := h.m.tools.Selected(); sel == nil || sel.Name != "divide" || !h.m.tools.Filtered() {
		t.Errorf("back on tools: selected %v, filtered %v", sel, h.m.tools.Filtered())
	}
}

func TestEnterReadsAResourceWithItsVerdicts(t *testing.T) {
	h, _ := demoHarness(t)
	h.selectItem("2", "changelog", "demo://changelog")
	h.key("enter")
	r := h.latest(record.MethodRead, "demo://changelog")
	if len(r.Verdicts) != 1 || r.Verdicts[0].Status != finding.Pass {
		t.Errorf("verdicts %+v", r.Verdicts)
	}
	h.key("tab")
	s := h.screen()
	for _, want := range []string{"Latest resources/read", "✓ pass", "Contents (1)", "demo://changelog  text/plain"} {
		if !strings.Contains(s, want) {
			t.Errorf("the detail lacks %q:\n%s", want, s)
		}
	}

	// The resource that breaks the rules: a failing verdict, shown.
	h.key("esc")
	h.selectItem("2", "broken", "demo://broken/contents")
	h.key("enter")
	r = h.latest(record.MethodRead, "demo://broken/contents")
	if len(r.Verdicts) != 1 || r.Verdicts[0].Status != finding.Fail {
		t.Errorf("verdicts of the broken read %+v", r.Verdicts)
	}
}

func TestPromptFormRefusesAMissingRequiredArgumentUnlessForced(t *testing.T) {
	h, _ := demoHarness(t)
	it := h.selectItem("4", "summarize", "summarize")
	h.key("enter")
	if h.m.mode != modeForm || h.m.formItem != it {
		t.Fatalf("mode %v after enter on a prompt with arguments", h.m.mode)
	}
	h.key("enter") // text is required and empty
	if h.m.mode != modeForm || !strings.Contains(h.screen(), `required: "text"`) {
		t.Fatalf("a missing required argument was not refused:\n%s", h.screen())
	}
	h.key("alt+enter")
	r := h.latest(record.MethodGetPrompt, "summarize")
	if !r.Forced || !r.Sent || r.Verdicts[0].Status != finding.Refused {
		t.Errorf("forced get: sent %v forced %v verdicts %+v", r.Sent, r.Forced, r.Verdicts)
	}

	h.key("enter")
	h.typeText("The tide came in.")
	h.key("enter")
	h.until("the second get", func() bool { l := h.m.item.Latest(); return l != r && l.Done && h.m.ops.request == nil })
	r = h.m.item.Latest()
	if r.Forced || r.Verdicts[0].Status != finding.Pass {
		t.Errorf("get with its argument: forced %v verdicts %+v", r.Forced, r.Verdicts)
	}
	h.key("tab")
	if s := h.screen(); !strings.Contains(s, "prompt-messages") {
		t.Errorf("the detail does not show the get:\n%s", s)
	}
	h.key("enter") // from the detail: the form again, with what was sent
	if v := h.m.form.Values(); h.m.mode != modeForm || v["text"] != "The tide came in." {
		t.Errorf("the form again: mode %v values %v", h.m.mode, v)
	}
}

func TestFormCompletesAsTheUserTypes(t *testing.T) {
	h, _ := demoHarness(t)
	h.selectItem("4", "code_review", "code_review")
	h.key("enter")
	h.key("tab") // language
	h.typeText("Ru")
	h.until("completions for language", func() bool { return slices.Contains(h.m.form.Suggestions(), "Rust") })
	h.key("down")
	h.key("enter") // picks Rust
	if v := h.m.form.Values()["language"]; v != "Rust" {
		t.Errorf("language %q after picking, want Rust", v)
	}
	// The suggestions come in the answer's message; the request's events
	// reach the fold through the log, in messages of their own.
	var asked []string
	h.until("the completion requests in the fold", func() bool {
		asked = asked[:0]
		for _, r := range h.m.St.Requests() {
			if r.Method == record.MethodComplete {
				asked = append(asked, r.About)
			}
		}
		return len(asked) > 0
	})
	if asked[0] != "ref/prompt code_review" {
		t.Errorf("completion requests %v", asked)
	}
}

func TestTemplateFormReadsTheExpandedURI(t *testing.T) {
	h, _ := demoHarness(t)
	h.selectItem("3", "weather", "demo://weather/{city}")
	h.key("enter")
	if h.m.mode != modeForm || len(h.m.form.Options().Fields) != 1 || h.m.form.Options().Fields[0].Name != "city" {
		t.Fatalf("template form: mode %v fields %+v", h.m.mode, h.m.form.Options().Fields)
	}
	h.typeText("Lisbon")
	h.key("enter")
	r := h.latest(record.MethodRead, "demo://weather/Lisbon")
	if r.Verdicts[0].Status != finding.Pass {
		t.Errorf("verdicts %+v", r.Verdicts)
	}
	if h.m.item.Latest() != r {
		t.Errorf("the template's detail does not show the read of its expansion")
	}
	h.key("enter") // the form again starts from what was read
	if v := h.m.form.Values(); h.m.mode != modeForm || v["city"] != "Lisbon" {
		t.Errorf("the form again: mode %v values %v", h.m.mode, v)
	}
}

func TestSubscriptionMarksTheRowWhenTheResourceChanges(t *testing.T) {
	h, _ := demoHarness(t)
	h.selectItem("2", "notepad", "demo://notepad")
	h.key("s")
	h.latest(record.MethodSubscribe, "demo://notepad")
	row := func() string {
		for _, l := range strings.Split(h.screen(), "\n") {
			if left, _, _ := strings.Cut(l, "│"); strings.Contains(left, "demo://notepad") {
				return left
			}
		}
		return ""
	}
	if !strings.Contains(row(), "sub") || strings.Contains(row(), "upd") {
		t.Fatalf("subscribed row %q", row())
	}
	h.key("1")
	h.call("note_add", "milk")
	h.key("2")
	h.until("the update", func() bool { _, ok := h.m.St.Updated("demo://notepad"); return ok })
	if !strings.Contains(row(), "upd") {
		t.Errorf("updated row %q", row())
	}
	h.key("enter") // read again: no longer marked
	h.latest(record.MethodRead, "demo://notepad")
	if strings.Contains(row(), "upd") {
		t.Errorf("row after the re-read %q", row())
	}
	h.key("s")
	h.latest(record.MethodUnsubscribe, "demo://notepad")
	if strings.Contains(row(), "sub") {
		t.Errorf("unsubscribed row %q", row())
	}
}

func TestPingShowsItsRoundTripInTheHeader(t *testing.T) {
	h, _ := demoHarness(t)
	if strings.Contains(h.headerLines()[1], "ping") {
		t.Fatalf("a ping before any: %q", h.headerLines()[1])
	}
	h.key("p")
	h.until("the ping", func() bool { return h.m.ops.ping == nil && h.m.lastPing() != nil })
	if got := h.headerLines()[1]; !strings.Contains(got, "ping ") || !strings.Contains(got, " ms") {
		t.Errorf("header %q", got)
	}
}

func TestLogLevelPickerSetsTheLevel(t *testing.T) {
	h, _ := demoHarness(t)
	h.key("L")
	if h.m.mode != modeLevel || !strings.Contains(h.screen(), "log level") {
		t.Fatalf("mode %v:\n%s", h.m.mode, h.screen())
	}
	h.key("right")
	h.key("right")
	h.key("enter")
	r := h.latest(record.MethodSetLevel, "notice")
	// The demo speaks 2026-07-28, which has no logging/setLevel: nothing
	// is sent, and the request says why.
	if r.Sent || !strings.Contains(r.Err, "no logging/setLevel") {
		t.Errorf("set level: sent %v err %q", r.Sent, r.Err)
	}
	if !strings.Contains(h.screen(), "no logging/setLevel") {
		t.Errorf("the status line does not say why:\n%s", h.screen())
	}
}

// TestListChangedWalksThatListAgain: a resources list_changed walks the
// resources and their templates again, a prompts one the prompts, and
// tools stay as they are.
func TestListChangedWalksThatListAgain(t *testing.T) {
	f := &fakeBackend{info: record.ServerInfo{Capabilities: []byte(`{"tools":{},"resources":{"listChanged":true},"prompts":{"listChanged":true}}`)}}
	h := newHarness(t, options{Backend: f})
	h.until("the first walks", func() bool { return f.walks.Load() == 4 && !h.m.ops.walking() })
	b := &evs{}
	for _, n := range []struct {
		method string
		want   int32
	}{{"notifications/resources/list_changed", 6}, {"notifications/prompts/list_changed", 7}} {
		h.feed(b.ev(record.Event{Kind: record.KindNotification, Method: n.method}))
		h.until("the walks after "+n.method, func() bool { return f.walks.Load() == n.want && !h.m.ops.walking() })
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	want := []string{"tools/list", "resources/list", "resources/templates/list", "prompts/list",
		"resources/list", "resources/templates/list", "prompts/list"}
	if !slices.Equal(f.lists[:4], want[:4]) || !slices.Equal(sorted(f.lists[4:6]), sorted(want[4:6])) || f.lists[6] != want[6] {
		t.Errorf("walked %v, want %v", f.lists, want)
	}
}

func sorted(s []string) []string { s = slices.Clone(s); slices.Sort(s); return s }

// TestEventsFilterByLogLevel: v cycles the events pane through every row,
// then log messages at debug, info, warning and error or above, following
// new ones as they come.
func TestEventsFilterByLogLevel(t *testing.T) {
	h := newHarness(t, options{Backend: &fakeBackend{}})
	b := &evs{}
	h.feed(b.connect())
	for _, l := range []string{"debug", "info", "warning", "error", "debug", "critical"} {
		h.feed(b.ev(record.Event{Kind: record.KindNotification, Method: "notifications/message", Level: l, Text: "said at " + l}))
	}
	h.key("tab")
	h.key("tab") // the events pane
	visible := func() []string {
		var out []string
		for _, l := range strings.Split(h.screen(), "\n") {
			if _, said, ok := strings.Cut(l, "said at "); ok {
				out = append(out, strings.TrimSpace(said))
			}
		}
		return out
	}
	for _, want := range [][]string{
		{"debug", "info", "warning", "error", "debug", "critical"}, // debug and above
		{"info", "warning", "error", "critical"},
		{"warning", "error", "critical"},
		{"error", "critical"},
	} {
		h.key("v")
		if got := visible(); !slices.Equal(got, want) {
			t.Errorf("at %s: %v, want %v", panes.LogFloors()[h.m.events.Filter.Floor], got, want)
		}
	}
	h.feed(b.ev(record.Event{Kind: record.KindNotification, Method: "notifications/message", Level: "alert", Text: "said at alert"}))
	if got := visible(); !slices.Equal(got, []string{"error", "critical", "alert"}) {
		t.Errorf("a new message: %v", got)
	}
	if !strings.Contains(h.screen(), "3 log messages at error or above") {
		t.Errorf("the title does not say what is filtered:\n%s", h.screen())
	}
	h.key("v") // every row again
	if s := h.screen(); !strings.Contains(s, "Events 8 ") || strings.Contains(s, "log messages at") || len(visible()) != 7 {
		t.Errorf("unfiltered:\n%s", s)
	}
}

// TestItemsGoStaleOnTheirListChanged: a resources list_changed marks the
// resources listed stale until the walk it starts lists them again.
func TestItemsGoStaleOnTheirListChanged(t *testing.T) {
	h := newHarness(t, options{Backend: &fakeBackend{}})
	b := &evs{}
	con := b.connect()
	con.Server.Capabilities = []byte(`{"tools":{},"resources":{"listChanged":true}}`)
	h.feed(con)
	m := paging.Resources().Name
	walk := func(id int64) {
		p := paging.Page{Number: 1, Count: 1, Generation: id}
		h.feed(b.ev(record.Event{Kind: record.KindWalk, Method: m, Walk: &record.WalkInfo{ID: id, Method: m, State: record.PhaseStart}}),
			b.ev(record.Event{Kind: record.KindPage, Method: m, Page: &p, Items: []json.RawMessage{json.RawMessage(`{"uri":"file:///a","name":"a"}`)},
				Walk: &record.WalkInfo{ID: id, Method: m, State: record.PhasePage}}),
			b.ev(record.Event{Kind: record.KindWalk, Method: m, Walk: &record.WalkInfo{ID: id, Method: m, State: record.PhaseDone, Pages: 1, Items: 1}}))
	}
	walk(1)
	h.key("2")
	row := func() string {
		for _, l := range strings.Split(h.screen(), "\n") {
			if left, _, _ := strings.Cut(l, "│"); strings.Contains(left, "file:///a") {
				return left
			}
		}
		return ""
	}
	if strings.Contains(row(), "stale") {
		t.Fatalf("stale before any change: %q", row())
	}
	h.feed(b.ev(record.Event{Kind: record.KindNotification, Method: "notifications/resources/list_changed"}))
	if !strings.Contains(row(), "stale") {
		t.Errorf("not stale after the change: %q", row())
	}
	walk(2)
	if strings.Contains(row(), "stale") {
		t.Errorf("stale after the walk again: %q", row())
	}
}

// TestRequestsEndingOutOfOrderStillShow: a subscribe and a read that end
// after a later request started (a ping) still mark the row and fill the
// detail.
func TestRequestsEndingOutOfOrderStillShow(t *testing.T) {
	h := newHarness(t, options{Backend: &fakeBackend{}})
	b := &evs{}
	con := b.connect()
	con.Server.Capabilities = []byte(`{"tools":{},"resources":{"subscribe":true}}`)
	h.feed(con)
	m, uri := paging.Resources().Name, "file:///a"
	p := paging.Page{Number: 1, Count: 1, Generation: 1}
	h.feed(b.ev(record.Event{Kind: record.KindWalk, Method: m, Walk: &record.WalkInfo{ID: 1, Method: m, State: record.PhaseStart}}),
		b.ev(record.Event{Kind: record.KindPage, Method: m, Page: &p, Items: []json.RawMessage{json.RawMessage(`{"uri":"file:///a","name":"a"}`)},
			Walk: &record.WalkInfo{ID: 1, Method: m, State: record.PhasePage}}),
		b.ev(record.Event{Kind: record.KindWalk, Method: m, Walk: &record.WalkInfo{ID: 1, Method: m, State: record.PhaseDone, Pages: 1, Items: 1}}))
	h.key("2")
	req := func(id int64, method, about string, state record.Phase) record.Event {
		info := &record.RequestInfo{ID: id, Method: method, About: about, State: state}
		if state == record.PhaseDone {
			info.Sent, info.Result = true, json.RawMessage(`{"contents":[{"uri":"file:///a","text":"hello there"}]}`)
		}
		return b.ev(record.Event{Kind: record.KindRequest, Method: method, Request: info})
	}
	h.feed(req(1, record.MethodSubscribe, uri, record.PhaseStart), req(2, record.MethodRead, uri, record.PhaseStart),
		req(3, record.MethodPing, "", record.PhaseStart))
	h.m.item.Latest() // worked out while the read is out
	h.feed(req(1, record.MethodSubscribe, uri, record.PhaseDone), req(2, record.MethodRead, uri, record.PhaseDone))
	if !h.m.items[tabResources.item()].Subscribed(uri) {
		t.Error("the subscription that ended after the ping started is not seen")
	}
	if r := h.m.item.Latest(); r == nil || !r.Done {
		t.Errorf("the detail shows %+v, not the read that ended", r)
	}
	if s := h.screen(); !strings.Contains(s, "hello there") {
		t.Errorf("the read's contents are not shown:\n%s", s)
	}
}
