package ui

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"mcpwitness/finding"
	"mcpwitness/fold"
	"mcpwitness/record"
	"mcpwitness/render"
	"mcpwitness/replay"
)

func TestReplayOpensAtTheEnd(t *testing.T) {
	h := replayHarness(t, fixture, 120, 40, "dark")
	r := h.m.replay
	n := len(readSession(t, fixture))
	if r.Pos() != r.Len() || r.Len() != n {
		t.Fatalf("opened at event %d of %d, want the end of %d", r.Pos(), r.Len(), n)
	}
	head := h.headerLines()
	for _, want := range []string{"REPLAY", "demo-session.jsonl", "recorded 2026-11-29 14:05 UTC", "mcpwitness-demo"} {
		if !strings.Contains(head[0], want) {
			t.Errorf("header lacks %q: %q", want, head[0])
		}
	}
	if !strings.Contains(head[1], "gen 10 · out 0") || !strings.Contains(head[1], "✓ 5 pages · 49 tools") {
		t.Errorf("header's indicators: %q", head[1])
	}
	if got, want := h.position(), fmt.Sprintf("event %d/%d", n, n); got != want {
		t.Errorf("position %q, want %s", got, want)
	}
	for tool, want := range map[string]fold.Outcome{"weather": fold.OutcomePass, "forecast_broken": fold.OutcomeFail, "render_video": fold.OutcomeRefused} {
		if cs := h.m.St.CallsOf(tool); len(cs) != 1 || cs[0].Outcome() != want {
			t.Errorf("%s: %d calls, outcome %v; want one, %v", tool, len(cs), outcomeOf(cs), want)
		}
	}
}

func TestReplayLeavesOutWhatNeedsAServer(t *testing.T) {
	h := replayHarness(t, fixture, 120, 40, "dark")
	help := strings.Split(h.screen(), "\n")
	short := help[len(help)-1]
	for _, absent := range []string{"call", "walk again", "export", "send anyway"} {
		if strings.Contains(short, absent) {
			t.Errorf("help line offers %q in a replay: %q", absent, short)
		}
	}
	for _, want := range []string{",/. step", "</> moment", "w wire", "q quit"} {
		if !strings.Contains(short, want) {
			t.Errorf("help line lacks %q: %q", want, short)
		}
	}
	h.key("?")
	full := h.screen()
	keys, _, _ := strings.Cut(full, "Replay")
	for _, absent := range []string{"walk again", "export", "send anyway", "ctrl+s", "form/raw"} {
		if strings.Contains(keys, absent) {
			t.Errorf("full help offers %q in a replay", absent)
		}
	}
	for _, want := range []string{"event back", "next moment", "end of the session", "read-only"} {
		if !strings.Contains(full, want) {
			t.Errorf("full help lacks %q:\n%s", want, full)
		}
	}
	h.key("esc")

	// The refused call: no "f sends it anyway" in a replay.
	h.m.tools.PickedKey = "render_video"
	h.m.tools.Reselect()
	h.m.sync()
	h.key("[")
	h.settle()
	if s := h.screen(); !strings.Contains(s, "nothing was sent") || strings.Contains(s, "sends it anyway") {
		t.Errorf("refused call in a replay:\n%s", s)
	}
	before := h.position()
	for _, k := range []string{"r", "enter", "f", "e"} {
		h.key(k)
		h.drain()
		if h.m.mode == modeEditor || h.m.mode == modeConfirm || h.m.ops.walking() || h.m.ops.export || h.m.ops.call != nil {
			t.Fatalf("%s started something in a replay", k)
		}
		if !strings.Contains(h.screen(), "read-only replay") {
			t.Errorf("%s: no hint that a replay is read-only:\n%s", k, h.screen())
		}
	}
	if h.position() != before {
		t.Errorf("live keys moved the replay from %s to %s", before, h.position())
	}
}

// TestScrubberShowsTheStateAsItWas replays a five-page walk and a call and
// checks the screen after each step: what had arrived, what was out.
func TestScrubberShowsTheStateAsItWas(t *testing.T) {
	b := &evs{}
	all := []record.Event{b.connect()}
	all = append(all, recordedWalk(b, 1, 5, 10, 0)...)
	all = append(all, callEvents(b, 1, "tool_0003", true, `{"content":[]}`, finding.Verdict{Check: "task-support", Status: finding.Pass})...)
	path := writeSession(t, "walk.jsonl", all)
	h := replayHarness(t, path, 120, 40, "dark")
	n := len(all)

	h.press("{")
	if got := h.position(); got != "event 0/"+itoa64(int64(n)) {
		t.Fatalf("{ went to %s", got)
	}
	if s := h.screen(); !strings.Contains(s, "no walk yet") || !strings.Contains(s, "not connected yet") {
		t.Errorf("the start shows more than nothing:\n%s", s)
	}

	scrubThroughTheWalk(t, h)
	scrubToTheCallAndTheEnd(t, h, n)
}

// scrubThroughTheWalk steps from the start of the scrubber test's file
// through its walk, by moments and by single events.
func scrubThroughTheWalk(t *testing.T, h *harness) {
	t.Helper()
	// Moments: connect, walk start, then per page a request and the page.
	h.press(">", ">", ">", ">")
	if w := h.m.St.LatestTools(); w == nil || len(w.Pages) != 1 {
		t.Fatalf("after four moments: walk %+v", w)
	}
	h.press(">", ">")
	head := h.headerLines()[1]
	if s := h.screen(); !strings.Contains(s, "Tools 20") || !strings.Contains(head, "walking page 3…") || !strings.Contains(head, "gen 2 · out 0") {
		t.Errorf("after page 2: header %q\n%s", head, s)
	}
	// The moment page 3 is asked for: one request out.
	h.press(">")
	head = h.headerLines()[1]
	if !strings.Contains(head, "walking page 3…") || !strings.Contains(head, "gen 2 · out 1") {
		t.Errorf("after asking for page 3: %q", head)
	}
	if h.m.St.Out() != 1 || h.m.St.Gen() != 2 {
		t.Errorf("state after asking for page 3: gen %d out %d", h.m.St.Gen(), h.m.St.Out())
	}
	// One event at a time: the request frame goes out, the answer comes.
	at := h.m.replay.Pos()
	h.press(".")
	if h.m.replay.Pos() != at+1 || h.m.St.Frames().Total() != 5 {
		t.Errorf(". went from %d to %d; %d frames", at, h.m.replay.Pos(), h.m.St.Frames().Total())
	}
	h.press(",", ",")
	if h.m.replay.Pos() != at-1 || !strings.Contains(h.headerLines()[1], "gen 2 · out 0") {
		t.Errorf(", , went to %d: %q", h.m.replay.Pos(), h.headerLines()[1])
	}

}

// scrubToTheCallAndTheEnd goes on to the call of the scrubber test's file,
// to its end (n events), back and to the end again.
func scrubToTheCallAndTheEnd(t *testing.T, h *harness, n int) {
	t.Helper()
	// The call's start: the call is in flight at that point.
	for h.m.replay.Pos() < n && len(h.m.St.Running()) == 0 {
		h.press(">")
	}
	if s := h.screen(); !strings.Contains(s, "calling tool_0003") {
		t.Errorf("the call in flight is not shown:\n%s", s)
	}
	h.press("}")
	if h.m.replay.Pos() != n || len(h.m.St.Running()) != 0 || !strings.Contains(h.screen(), "✓ 5 pages · 50 tools") {
		t.Errorf("} went to %d:\n%s", h.m.replay.Pos(), h.screen())
	}
	// Back to the middle of the walk and on to the end again: the same end
	// (above the status line).
	body := func() string { s := h.screen(); return s[:strings.LastIndex(s[:strings.LastIndex(s, "\n")], "\n")] }
	end := body()
	h.press("<", "<", "<", "<", "<", "}")
	if got := body(); got != end {
		t.Errorf("the end after scrubbing differs:\n%s\nwant:\n%s", got, end)
	}
}

// TestEveryPointMatchesAFoldFromTheStart moves the scrubber to every point
// of the fixture, in an order that uses snapshots, the shown state and
// folds from the start, and checks each state against a plain fold.
func TestEveryPointMatchesAFoldFromTheStart(t *testing.T) {
	// A mark every 10 events, so the marks are used.
	h := gapHarness(t, fixture, 10)
	events := readSession(t, fixture)
	if n := len(h.m.replay.Snapshots()); n < 5 {
		t.Fatalf("%d snapshots; want one every 10 events", n)
	}
	order := []int{50, 3, 49, 0, 25, 24, 26, 11, 10, 9, 41, 1, 50}
	for _, p := range order {
		h.exec(h.m.moveTo(p))
		h.settle()
		want := fold.New(&fold.Options{Lean: true})
		for i, ev := range events[:p] {
			want.ApplyAt(ev, i+1)
		}
		if got := fingerprint(h.m.St); got != fingerprint(want) {
			t.Errorf("at %d:\n%s\nwant:\n%s", p, got, fingerprint(want))
		}
	}
}

// TestSnapshotsNeverChange folds a session that changes finished walks
// and calls (list changes, late verdicts and progress, old walks' tools let
// go) with a snapshot every few events, moves to every point in a shuffled
// order, and checks each state, and afterwards every snapshot, against a
// plain fold.
func TestSnapshotsNeverChange(t *testing.T) {
	b := &evs{}
	all := []record.Event{b.connect()}
	for id := int64(1); id <= 6; id++ {
		all = append(all, recordedWalk(b, id, 2, 3, 2*(id-1))...)
		all = append(all, callEvents(b, id, "tool_0002", true, `{"content":[],"isError":true}`,
			finding.Verdict{Check: "task-support", Status: finding.Pass})...)
		// A call that runs across the next walk, with progress.
		start := b.ev(record.Event{Kind: record.KindCall, Call: &record.CallInfo{ID: 100 + id, Tool: "tool_0001", State: "start", Listed: true}})
		all = append(all, start, b.ev(record.Event{Kind: record.KindNotification, Method: fold.ToolsListChanged}),
			b.ev(record.Event{Kind: record.KindProgress, Progress: &record.ProgressInfo{CallID: 100 + id, Progress: 1, Total: 2}}))
		all = append(all, b.ev(record.Event{Kind: record.KindCall, Call: &record.CallInfo{ID: 100 + id, Tool: "tool_0001", State: "done", Sent: true, Listed: true}}),
			// Late, after the call ended: a damaged or odd file.
			b.ev(record.Event{Kind: record.KindVerdict, Verdict: &finding.Verdict{Check: "late", Status: finding.Fail}, Call: &record.CallInfo{ID: id, Tool: "tool_0002"}}),
			b.ev(record.Event{Kind: record.KindProgress, Progress: &record.ProgressInfo{CallID: id, Progress: 9}}))
	}
	path := writeSession(t, "cow.jsonl", all)
	h := gapHarness(t, path, 7)
	if n := len(h.m.replay.Snapshots()); n < 10 {
		t.Fatalf("%d snapshots; want one every 7 events", n)
	}
	foldTo := func(p int) string {
		want := fold.New(&fold.Options{Lean: true})
		for i, ev := range all[:p] {
			want.ApplyAt(ev, i+1)
		}
		return fingerprint(want)
	}
	for i := range len(all) + 1 {
		p := (i * 37) % (len(all) + 1)
		h.exec(h.m.moveTo(p))
		h.settle()
		if got, want := fingerprint(h.m.St), foldTo(p); got != want {
			t.Fatalf("at %d:\n%s\nwant:\n%s", p, got, want)
		}
	}
	for _, mk := range h.m.replay.Snapshots() {
		if got, want := fingerprint(mk.State), foldTo(mk.Pos); got != want {
			t.Fatalf("the snapshot at %d changed:\n%s\nwant:\n%s", mk.Pos, got, want)
		}
	}
}

// gapHarness opens the session file at path with a snapshot every gap
// events along it, and waits for it to settle.
func gapHarness(t *testing.T, path string, gap int) *harness {
	t.Helper()
	r, err := replay.Open(path, &replay.Options{Gap: gap})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.File().Close() })
	h := newHarness(t, options{Replay: r})
	h.update(tea.WindowSizeMsg{Width: 120, Height: 40})
	h.settle()
	return h
}

// fingerprint is what the panes show of a state, in words.
func fingerprint(s *fold.State) string {
	var b strings.Builder
	shown := s.Shown()
	b.WriteString(fmt.Sprintf("gen %d out %d applied %d running %d closed %v shown %v\n", s.Gen(), s.Out(), s.Applied(), len(s.Running()), s.Closed(), shown != nil))
	for _, w := range s.Walks() {
		b.WriteString(fmt.Sprintf("walk %d %s %d tools changed %v after %v asking %d shown %v\n", w.ID, render.WalkSummary(w), len(w.Tools), w.Changed, w.AfterChange, w.Asking, w == shown))
	}
	tools := map[string]bool{}
	for _, c := range s.Calls() {
		tools[c.Tool] = true
		b.WriteString(fmt.Sprintf("%s %s verdicts %d progress %v %g\n", c.Tool, render.CallSummary(c), len(c.Verdicts), c.HasProgress, c.Progress))
	}
	for _, tool := range slices.Sorted(maps.Keys(tools)) {
		b.WriteString(fmt.Sprintf("%s: %d calls\n", tool, len(s.CallsOf(tool))))
	}
	for i := 0; i < s.Rows().Len(); i++ {
		kind, text := render.RowText(s.Rows().At(i))
		b.WriteString(kind + " " + text + "\n")
	}
	for i := 0; i < s.Frames().Len(); i++ {
		f := s.Frames().At(i)
		b.WriteString(f.Method + " " + f.ID + " " + f.Note + " " + itoa64(int64(f.Src)) + "\n")
	}
	return b.String()
}

func TestDamagedFileOpensWithAWarning(t *testing.T) {
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	// Cut the file in the middle of its last line, as a crash would.
	cut := writeBytes(t, "cut.jsonl", data[:len(data)-20])
	h := replayHarness(t, cut, 120, 40, "dark")
	s := h.screen()
	if !strings.Contains(s, "⚠") || !strings.Contains(s, "cut off") {
		t.Errorf("the status line does not warn of the cut:\n%s", s)
	}
	// The header is line 1; the last event, cut, is line n+1.
	n := len(readSession(t, fixture))
	if !strings.Contains(s, "file ") || !strings.Contains(s, fmt.Sprintf("line %d", n+1)) {
		t.Errorf("the events pane does not show the warning:\n%s", s)
	}
	if got, want := h.position(), fmt.Sprintf("event %d/%d", n-1, n-1); got != want {
		t.Errorf("position %s, want %s", got, want)
	}
}

func TestFileThatCannotBeOpenedIsAnError(t *testing.T) {
	future := writeBytes(t, "future.jsonl", []byte(`{"format":"mcpwitness-session","version":2,"tool":"x","started":"2026-11-29T14:05:00Z"}`+"\n"))
	for path, want := range map[string]string{
		future:                      "format version 2; this mcpwitness reads version 1",
		t.TempDir() + "/none.jsonl": "no such file",
	} {
		err := Open(t.Context(), OpenConfig{Path: path})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Open(%s) = %v, want an error saying %q", path, err, want)
		}
	}
}

func writeBytes(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := t.TempDir() + "/" + name
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestMomentsOfTheFixture(t *testing.T) {
	h := replayHarness(t, fixture, 120, 40, "dark")
	var kinds []string
	events := readSession(t, fixture)
	for _, p := range h.m.replay.Moments() {
		ev := events[p-1]
		k := string(ev.Kind)
		if ev.Call != nil {
			k += ":" + string(ev.Call.State)
		}
		if ev.Walk != nil && ev.Kind == record.KindWalk {
			k += ":" + string(ev.Walk.State)
		}
		if ev.Request != nil {
			k += ":" + ev.Request.Method + ":" + string(ev.Request.State)
		}
		kinds = append(kinds, k)
	}
	// The walks of tools (5 pages), resources (3), templates and prompts
	// (1 each), the calls, the reads, the get and the ping, each starting and ending.
	walk := func(pages int) string {
		return " walk:start" + strings.Repeat(" list-request page", pages) + " walk:done"
	}
	request := func(method string) string {
		return " request:" + method + ":start request:" + method + ":done"
	}
	want := "connect" + walk(5) + walk(3) + walk(1) + walk(1) + strings.Repeat(" call:start call:done", 3) +
		strings.Repeat(request(record.MethodRead), 3) + request(record.MethodGetPrompt) + request(record.MethodPing) + " closed"
	if got := strings.Join(kinds, " "); got != want {
		t.Errorf("moments:\n%s\nwant:\n%s", got, want)
	}
}

// TestFileWithNoEventsOpens opens a file that holds only its header, and
// one whose every event line is damaged.
func TestFileWithNoEventsOpens(t *testing.T) {
	header := `{"format":"mcpwitness-session","version":1,"tool":"x","started":"2026-11-29T14:05:00Z"}` + "\n"
	for name, data := range map[string]string{
		"header only": header,
		"all damaged": header + "not json\n{\"kind\":\"wire\"}\n",
	} {
		h := replayHarness(t, writeBytes(t, "f.jsonl", []byte(data)), 80, 24, "mono")
		s := h.screen()
		if got := h.position(); got != "event 0/0" || !strings.Contains(s, "no walk yet") {
			t.Errorf("%s: position %s:\n%s", name, got, s)
		}
		h.press(",", ".", "<", ">", "{", "}")
		if name == "all damaged" && !strings.Contains(s, "line 2: not an event") {
			t.Errorf("%s: the events pane does not say what was skipped:\n%s", name, s)
		}
	}
}

// TestReplayedCallReadsItsArgumentsBack shows a call in a replay, whose
// arguments and answer stay in the file until shown, then shows it again
// after its start event was damaged: the document says what it could not
// read, and shows the rest.
func TestReplayedCallReadsItsArgumentsBack(t *testing.T) {
	raw, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "demo.jsonl")
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	h := replayHarness(t, path, 120, 40, "dark")
	show := func() string {
		h.m.tools.PickedKey = "weather"
		h.m.tools.Reselect()
		h.m.sync()
		h.key("[")
		h.settle()
		return h.screen()
	}
	if s := show(); !strings.Contains(s, "│ Arguments") || strings.Contains(s, "could not read") {
		t.Fatalf("the call's arguments were not read back:\n%s", s)
	}

	// Damage the call's start event in place: the file's index still
	// holds, the line no longer reads.
	start := []byte(`"args":{"city":"Lisbon"}`)
	i := bytes.Index(raw, start)
	if i < 0 {
		t.Fatal("the fixture has no weather call with arguments")
	}
	copy(raw[i:], bytes.Repeat([]byte("!"), len(start)))
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	h.key("esc")
	h.settle()
	s := show()
	event := bytes.Count(raw[:i], []byte("\n")) // the header is line 1, event 1 is line 2
	if !strings.Contains(s, fmt.Sprintf("could not read the arguments (event %d:", event)) || strings.Contains(s, "│ Arguments") {
		t.Errorf("a damaged start event: the document does not say what it could not read:\n%s", s)
	}
	if !strings.Contains(s, "Lisbon: 8.0°C, overcast") {
		t.Errorf("the answer, which still reads, is not shown:\n%s", s)
	}
}
