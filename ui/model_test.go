package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"mcpwitness/finding"
	"mcpwitness/fold"
	"mcpwitness/paging"
	"mcpwitness/record"
	"mcpwitness/session"
)

func TestWalkShowsPagesAsTheyArrive(t *testing.T) {
	h := newHarness(t, options{})
	b := &evs{}
	h.feed(b.connect(), b.walkStart(1))
	if s := h.screen(); !strings.Contains(s, "walking page 1…") || !strings.Contains(s, "waiting for page 1") {
		t.Fatalf("before any page, want the walk in progress; screen:\n%s", s)
	}
	h.feed(b.ev(record.Event{Kind: record.KindListRequest, Method: "tools/list", Gen: 0, Out: 1}))
	if s := h.screen(); !strings.Contains(s, "gen 0 · out 1") {
		t.Errorf("want gen 0 · out 1 with a request out; screen:\n%s", s)
	}
	h.feed(b.page(1, 1, 1, "c1", tools("tool_", 1, 10)...))
	s := h.screen()
	for _, want := range []string{"page 1 · 10 tools · 4.0 ms · ttl 30 s", "tool_0001", "tool_0010", "walking page 2…", "gen 1 · out 0"} {
		if !strings.Contains(s, want) {
			t.Errorf("after page 1, screen lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "page 2 ·") {
		t.Errorf("page 2 shown before it arrived:\n%s", s)
	}
	h.feed(b.page(1, 2, 2, "", tools("tool_", 11, 5)...), b.walkDone(1, 2, 15, 2, ""))
	s = h.screen()
	for _, want := range []string{"page 2 · 5 tools", "✓ 2 pages · 15 tools", "Tools 15"} {
		if !strings.Contains(s, want) {
			t.Errorf("after the walk, screen lacks %q:\n%s", want, s)
		}
	}
	w := h.m.St.LatestTools()
	if got := []int{w.Pages[0].Number, w.Pages[1].Number}; got[0] != 1 || got[1] != 2 {
		t.Errorf("pages in arrival order = %v, want [1 2]", got)
	}
}

func TestIncompleteWalkIsShownWithWhatWasRead(t *testing.T) {
	h := newHarness(t, options{})
	b := &evs{}
	h.feed(b.connect(), b.walkStart(1), b.page(1, 1, 1, "same", tools("t", 1, 3)...),
		b.page(1, 2, 2, "same", tools("t", 4, 3)...), b.walkDone(1, 2, 6, 2, string(paging.CursorRepeated)))
	s := h.screen()
	for _, want := range []string{"⚠ incomplete: cursor-repeated", "t0006", "page 2"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
}

func TestHeldOnlyForALatestOnePageListing(t *testing.T) {
	h := newHarness(t, options{})
	b := &evs{}
	h.feed(b.connect(), b.walkStart(1), b.page(1, 1, 1, "", tool("solo")), b.walkDone(1, 1, 1, 1, ""))
	if s := h.screen(); !strings.Contains(s, "solo") || !strings.Contains(s, "held") {
		t.Fatalf("a latest one-page listing is held; screen:\n%s", s)
	}
	// Another list request goes out: the listing is no longer the latest
	// with nothing out.
	h.feed(b.ev(record.Event{Kind: record.KindListRequest, Method: "tools/list", Gen: 1, Out: 1}))
	if s := h.screen(); strings.Contains(s, " held ") || !strings.Contains(s, "own") {
		t.Errorf("with a request out the listing is own; screen:\n%s", s)
	}
}

func TestCallRunsInACommand(t *testing.T) {
	f := &fakeBackend{}
	h, _ := callScreen(t, f, tool("weather", `"inputSchema":{"type":"object","properties":{"city":{"type":"string"},"units":{"type":"string","enum":["celsius","fahrenheit"],"default":"celsius"}},"required":["city"]}`))
	h.key("enter")
	if h.m.mode != modeEditor || h.m.editor.Raw {
		t.Fatal("enter did not open the form editor")
	}
	h.typeText("Lisbon")
	h.until("the live check", func() bool { return h.m.editor.Checked != nil && len(h.m.editor.Checked.Errs) == 0 })
	if s := h.screen(); !strings.Contains(s, "✓ arguments match the input schema") || !strings.Contains(s, "‹ celsius ›") {
		t.Errorf("editor screen:\n%s", s)
	}
	_, cmd := h.m.Update(keyMsg("ctrl+s"))
	if n := f.calls.Load(); n != 0 {
		t.Fatalf("Update called the backend %d times itself; it must return a command", n)
	}
	h.exec(cmd)
	h.until("the call", func() bool { return f.calls.Load() == 1 && h.m.ops.call == nil })
	if got := string(f.args[0]); got != `{"city":"Lisbon","units":"celsius"}` {
		t.Errorf("args = %s", got)
	}
}

func TestVerdictsAreShown(t *testing.T) {
	f := &fakeBackend{}
	h, b := callScreen(t, f, tool("forecast", `"outputSchema":{"type":"object"}`))
	h.feed(callEvents(b, 1, "forecast", true, `{"content":[{"type":"text","text":"sunny"}],"structuredContent":{"temperature":"warm"}}`,
		finding.Verdict{Check: finding.TaskSupport, Status: finding.Pass, Message: "plain calls are allowed"},
		finding.Verdict{Check: finding.OutputSchema, Status: finding.Fail, Message: "Structured content does not match the tool's output schema: /temperature: not a number",
			Errors: []finding.SchemaError{{InstancePath: "/temperature", Keyword: "type", Message: "Value is string but should be number"}}},
		finding.Verdict{Check: finding.StructuredContent, Status: finding.Unchecked, Message: "output schema unchecked: $ref"},
		finding.Verdict{Check: "extra", Status: finding.Skipped, Message: "skipped"},
	)...)
	h.key("[")
	s := h.screen()
	for _, want := range []string{"Call #1", "✓ pass", "✗ fail", "/temperature", "type: Value is string but should be number", "? unchecked", "– skipped", "sunny", "isError false"} {
		if !strings.Contains(s, want) {
			t.Errorf("result screen lacks %q:\n%s", want, s)
		}
	}
}

func TestRefusedCallCanBeSentAnywayAfterConfirming(t *testing.T) {
	f := &fakeBackend{}
	h, b := callScreen(t, f, tool("render", `"execution":{"taskSupport":"required"}`))
	if s := h.screen(); !strings.Contains(s, "Plain calls are refused") {
		t.Errorf("detail of a task-required tool does not say plain calls are refused:\n%s", s)
	}
	h.feed(callEvents(b, 1, "render", false, "", finding.Verdict{Check: finding.TaskSupport, Status: finding.Refused,
		Message: `Tool "render" requires task-based execution.`})...)
	h.key("[")
	if s := h.screen(); !strings.Contains(s, "⊘ refused") || !strings.Contains(s, "nothing was sent") {
		t.Fatalf("refused call screen:\n%s", s)
	}
	h.key("f")
	if s := h.screen(); !strings.Contains(s, "anyway") || h.m.mode != modeConfirm {
		t.Fatalf("f did not ask first:\n%s", s)
	}
	if f.calls.Load() != 0 {
		t.Fatal("sent before confirming")
	}
	var forced bool
	f.call = func(_ context.Context, name string, _ json.RawMessage, o *session.CallOptions) *session.CallResult {
		forced = o != nil && o.Force
		r := &session.CallResult{}
		r.ID, r.Tool = 2, name
		return r
	}
	h.key("enter")
	h.until("the forced call", func() bool { return f.calls.Load() == 1 && h.m.ops.call == nil })
	if !forced {
		t.Error("the call was not sent with Force")
	}
}

func TestEscCancelsTheCallInFlight(t *testing.T) {
	f := &fakeBackend{}
	started := make(chan struct{}, 1)
	f.call = func(ctx context.Context, name string, _ json.RawMessage, _ *session.CallOptions) *session.CallResult {
		started <- struct{}{}
		<-ctx.Done()
		r := &session.CallResult{}
		r.ID, r.Tool, r.Cancelled = 1, name, true
		return r
	}
	h, b := callScreen(t, f, tool("slow"))
	h.key("enter")
	h.key("ctrl+s")
	h.until("the call to start", func() bool {
		select {
		case <-started:
			return true
		default:
			return false
		}
	})
	h.feed(b.ev(record.Event{Kind: record.KindCall, Call: &record.CallInfo{ID: 1, Tool: "slow", State: "start"}}),
		b.ev(record.Event{Kind: record.KindProgress, Progress: &record.ProgressInfo{CallID: 1, Progress: 2, Total: 5, Message: "step 2 of 5"}}))
	s := h.screen()
	for _, want := range []string{"calling slow…", "esc cancels", "2/5 step 2 of 5", "█"} {
		if !strings.Contains(s, want) {
			t.Errorf("in-flight screen lacks %q:\n%s", want, s)
		}
	}
	h.key("esc")
	if s := h.screen(); !strings.Contains(s, "cancelling the call to slow…") {
		t.Errorf("esc does not say the call is being cancelled:\n%s", s)
	}
	h.until("the cancelled call to return", func() bool { return h.m.ops.call == nil })
	h.feed(b.ev(record.Event{Kind: record.KindCall, Call: &record.CallInfo{ID: 1, Tool: "slow", State: "done", Sent: true, Cancelled: true, Ms: 300}}))
	s = h.screen()
	if !strings.Contains(s, "Cancelled after 300 ms") {
		t.Errorf("cancelled call screen:\n%s", s)
	}
	if strings.Contains(s, "cancelling") {
		t.Errorf("the call settled but the status still says it is being cancelled:\n%s", s)
	}
}

func TestEscAbortsTheWalkAndRAsksAgain(t *testing.T) {
	f := &fakeBackend{}
	f.walk = func(ctx context.Context) (int64, *paging.Result) {
		<-ctx.Done()
		return 1, &paging.Result{Incomplete: paging.Aborted}
	}
	h := newHarness(t, options{Backend: f})
	h.until("the first walk", func() bool { return f.walks.Load() == 1 })
	h.key("esc")
	h.until("the walk to end", func() bool { return !h.m.ops.walking() })
	if f.walks.Load() != 1 {
		t.Fatalf("esc walked again")
	}
	h.key("r")
	h.until("a second walk", func() bool { return f.walks.Load() == 2 })
	// r during a walk aborts it and walks again when it returns.
	h.key("r")
	h.until("a third walk", func() bool { return f.walks.Load() == 3 })
}

func TestListChangedStartsAWalk(t *testing.T) {
	f := &fakeBackend{}
	h := newHarness(t, options{Backend: f})
	h.until("the first walk", func() bool { return f.walks.Load() == 1 && !h.m.ops.walking() })
	b := &evs{}
	h.feed(b.connect())
	h.feed(walkEvents(b, 1, 1, 3)...)
	h.feed(b.ev(record.Event{Kind: record.KindNotification, Method: fold.ToolsListChanged}))
	h.until("the walk list_changed starts", func() bool { return f.walks.Load() == 2 })
	if s := h.screen(); !strings.Contains(s, "stale") {
		t.Errorf("tools listed before list_changed are not marked stale:\n%s", s)
	}
	h.feed(b.walkStart(2))
	if s := h.screen(); !strings.Contains(s, "tools/list_changed → walk #2") {
		t.Errorf("events pane does not tie list_changed to its walk:\n%s", s)
	}
}

func TestResizeKeepsEveryLineInside(t *testing.T) {
	f := &fakeBackend{}
	h, b := callScreen(t, f, tool("weather_with_a_really_long_tool_name_that_goes_on", `"title":"Weather","description":"`+strings.Repeat("long words ", 40)+`","outputSchema":{"type":"object","properties":{"a":{"type":"string","description":"`+strings.Repeat("x", 300)+`"}}}`))
	h.feed(callEvents(b, 1, "weather_with_a_really_long_tool_name_that_goes_on", true, `{"content":[{"type":"text","text":"`+strings.Repeat("y", 500)+`"}]}`,
		finding.Verdict{Check: finding.OutputSchema, Status: finding.Fail, Message: strings.Repeat("bad ", 50),
			Errors: []finding.SchemaError{{InstancePath: "/a/very/long/path/that/goes/on/and/on/and/on", Keyword: "type", Message: strings.Repeat("m", 200)}}})...)
	h.feed(b.ev(record.Event{Kind: record.KindStderr, Text: strings.Repeat("stderr ", 60)}))
	for i := range 50 {
		h.feed(b.ev(record.Event{Kind: record.KindWire, Dir: record.Send, Method: "tools/call", ID: fmt.Sprint(i), Size: 100, Frame: json.RawMessage(`{"jsonrpc":"2.0"}`)}))
	}
	states := map[string]func(){
		"main":   func() {},
		"result": func() { h.key("[") },
		"editor": func() { h.key("enter") },
		"wire":   func() { h.key("w") },
		"help":   func() { h.key("?") },
	}
	for _, name := range []string{"main", "result", "editor", "wire", "help"} {
		states[name]()
		for _, size := range [][2]int{{80, 24}, {100, 30}, {120, 40}, {200, 60}, {60, 16}} {
			h.update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			t.Run(fmt.Sprintf("%s/%dx%d", name, size[0], size[1]), func(t *testing.T) {
				checkFits(t, h.m.View().Content, size[0], size[1])
			})
		}
		h.key("esc")
		if name == "wire" || name == "help" || name == "editor" {
			continue
		}
	}
}

func TestThemeCycles(t *testing.T) {
	h := newHarness(t, options{})
	before := h.m.Sty
	h.key("t")
	if h.m.theme != "light" || h.m.Sty == before || h.m.tools.Sty != h.m.Sty || h.m.detail.Sty != h.m.Sty {
		t.Errorf("after t: theme %q, styles replaced %v", h.m.theme, h.m.Sty != before)
	}
	for range 3 {
		h.key("t")
	}
	if h.m.theme != "dark" {
		t.Errorf("four presses of t should come back to dark, got %q", h.m.theme)
	}
}

func TestNoColorChoosesMono(t *testing.T) {
	m := newModel(options{NoColor: true})
	if m.theme != "mono" {
		t.Errorf("theme under NO_COLOR = %q, want mono", m.theme)
	}
	m = newModel(options{})
	m.Update(tea.BackgroundColorMsg{Color: lightColor{}})
	if m.theme != "light" {
		t.Errorf("theme on a light background = %q, want light", m.theme)
	}
	m = newModel(options{Theme: "high-contrast"})
	m.Update(tea.BackgroundColorMsg{Color: lightColor{}})
	if m.theme != "high-contrast" {
		t.Errorf("a chosen theme changed to %q on a light background", m.theme)
	}
}

type lightColor struct{}

func (lightColor) RGBA() (r, g, b, a uint32) { return 0xffff, 0xffff, 0xffff, 0xffff }

func TestWireKeepsTheNewestFrames(t *testing.T) {
	h := newHarness(t, options{})
	b := &evs{}
	for i := range fold.MaxFrames + 100 {
		h.feed(b.ev(record.Event{Kind: record.KindWire, Dir: record.Recv, ID: fmt.Sprint(i), Size: 10,
			Frame: json.RawMessage(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{}}`, i)), LatencyMs: 4}))
	}
	if n := h.m.St.Frames().Len(); n != fold.MaxFrames {
		t.Errorf("wire keeps %d frames, want %d", n, fold.MaxFrames)
	}
	h.key("w")
	s := h.screen()
	for _, want := range []string{fmt.Sprintf("Wire %d frames", fold.MaxFrames+100), "newest 5000 shown", `"id": 5099`, "4.0 ms"} {
		if !strings.Contains(s, want) {
			t.Errorf("wire screen lacks %q:\n%s", want, s)
		}
	}
	_, cmd := h.m.Update(keyMsg("y"))
	if cmd == nil {
		t.Error("y returned no clipboard command")
	}
}

func TestEventsPaneShowsWhatHappened(t *testing.T) {
	h := newHarness(t, options{})
	b := &evs{}
	h.feed(b.connect(),
		b.ev(record.Event{Kind: record.KindStderr, Text: "server starting"}),
		b.ev(record.Event{Kind: record.KindNotification, Method: "notifications/message", Level: "warning", Text: "disk almost full"}),
		b.ev(record.Event{Kind: record.KindError, Method: "tools/list", Text: "the server answered with an error"}),
	)
	s := h.screen()
	for _, want := range []string{"14:05:00 stderr", "server starting", "log warn", "disk almost full", "error", "tools/list: the server answered"} {
		if !strings.Contains(s, want) {
			t.Errorf("events pane lacks %q:\n%s", want, s)
		}
	}
}

func TestReplayHasNoBackend(t *testing.T) {
	h := newHarness(t, options{})
	b := &evs{}
	h.feed(b.connect())
	h.feed(walkEvents(b, 1, 1, 2)...)
	h.key("enter")
	if h.m.mode == modeEditor {
		t.Fatal("a replay opened the editor")
	}
	if s := h.screen(); !strings.Contains(s, "no live server") {
		t.Errorf("replay does not say why it cannot call:\n%s", s)
	}
}

func TestStatusExpires(t *testing.T) {
	h := newHarness(t, options{})
	cmd := h.m.setStatus("hello", levelInfo)
	if !strings.Contains(h.screen(), "hello") || cmd == nil {
		t.Fatal("status not shown")
	}
	h.update(statusExpiredMsg{id: h.m.status.id})
	if strings.Contains(h.screen(), "hello") {
		t.Error("status did not expire")
	}
	_ = time.Second
}

func TestSelectionWaitsForItsPageInANewWalk(t *testing.T) {
	h := newHarness(t, options{})
	b := &evs{}
	h.feed(b.connect())
	h.feed(walkEvents(b, 1, 3, 10)...)
	h.key("/")
	h.typeText("tool_0025")
	h.key("enter")
	h.key("esc")
	h.feed(callEvents(b, 1, "tool_0025", true, `{"content":[]}`, finding.Verdict{Check: finding.TaskSupport, Status: finding.Pass})...)
	h.key("[")
	if c := h.m.detail.Call(); c == nil || c.Tool != "tool_0025" {
		t.Fatal("not showing the call")
	}
	// A new walk: its first page does not hold tool_0025.
	h.feed(b.walkStart(2), b.page(2, 1, 4, "1", tools("tool_", 1, 10)...))
	if c := h.m.detail.Call(); c == nil || c.Tool != "tool_0025" {
		t.Errorf("the detail pane left the call while the walk was reading: %v", h.m.detail.tool)
	}
	h.feed(b.page(2, 2, 5, "2", tools("tool_", 11, 10)...), b.page(2, 3, 6, "", tools("tool_", 21, 10)...), b.walkDone(2, 3, 30, 6, ""))
	if sel := h.m.tools.Selected(); sel == nil || sel.Name != "tool_0025" || sel.Walk != 2 {
		t.Errorf("selected %+v, want tool_0025 of walk 2", sel)
	}
	if c := h.m.detail.Call(); c == nil || c.Tool != "tool_0025" {
		t.Error("the detail pane left the call after the walk")
	}
	// A walk without the tool: the selection moves on.
	h.feed(b.walkStart(3), b.page(3, 1, 7, "", tools("tool_", 1, 10)...), b.walkDone(3, 1, 10, 7, ""))
	if sel := h.m.tools.Selected(); sel == nil || h.m.tools.Pending() {
		t.Errorf("after the tool went away: selected %v, pending %v", sel, h.m.tools.Pending())
	}
}

func TestWheelScrollsThePaneUnderThePointer(t *testing.T) {
	h := newHarness(t, options{})
	b := &evs{}
	h.feed(b.connect())
	h.feed(walkEvents(b, 1, 3, 10)...)
	for i := range 30 {
		h.feed(b.ev(record.Event{Kind: record.KindStderr, Text: fmt.Sprint("line ", i)}))
	}
	l := h.m.lay
	wheel := func(x, y int, b tea.MouseButton) { h.update(tea.MouseWheelMsg{X: x, Y: y, Button: b}) }

	wheel(2, l.bodyTop+3, tea.MouseWheelDown)
	if sel := h.m.tools.Selected(); sel == nil || sel.Name != "tool_0004" {
		t.Errorf("wheel over the tools pane: selected %v, want tool_0004", sel)
	}
	before := h.m.detail.sc.Off
	h.m.detail.sc.SetLines(make([]string, 200))
	wheel(l.leftW+5, l.bodyTop+3, tea.MouseWheelDown)
	if h.m.detail.sc.Off == before {
		t.Error("wheel over the detail pane did not scroll it")
	}
	wheel(5, l.eventsTop+2, tea.MouseWheelUp)
	if h.m.events.List.Follow {
		t.Error("wheel over the events pane did not scroll it")
	}
}

func TestPasteGoesToTheInputWithTheKeys(t *testing.T) {
	f := &fakeBackend{}
	h, _ := callScreen(t, f, tool("echo", `"inputSchema":{"type":"object","properties":{"message":{"type":"string"}}}`))
	h.key("/")
	h.update(tea.PasteMsg{Content: "ech"})
	if h.m.tools.Query != "ech" {
		t.Errorf("filter after paste = %q", h.m.tools.Query)
	}
	h.key("enter")
	h.key("enter")
	h.update(tea.PasteMsg{Content: "hello"})
	if got := string(h.m.editor.Args()); got != `{"message":"hello"}` {
		t.Errorf("args after paste = %s", got)
	}
}
