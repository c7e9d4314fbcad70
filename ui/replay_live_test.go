package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"

	"mcpwitness/session"

	"mcpwitness/fold"
	"mcpwitness/record"

	"mcpwitness/ui/panes"
)

// TestRecordThenOpenMatchesTheLiveSession drives a live session against the
// demo server while a Recorder writes the session file: a walk, a passing,
// a failing, a refused and an isError call. It then opens the file and
// compares the replay's panes at the end with the live model's, pane by
// pane: only the badge, the status line and the keys on offer may differ.
func TestRecordThenOpenMatchesTheLiveSession(t *testing.T) {
	live, path, logged := recordLive(t)
	replay := replayHarness(t, path, 120, 40, "dark")
	if got, want := replay.m.replay.Len(), logged; got != want {
		t.Fatalf("the file holds %d events, the live session logged %d", got, want)
	}

	compare := func(what string, get func(h *harness) string) { comparePanes(t, live, replay, what, get) }
	compare("the header's indicators", func(h *harness) string { return h.headerLines()[1] })
	if l, r := strings.TrimSpace(live.headerLines()[0]), replay.headerLines()[0]; !strings.Contains(r, l) || !strings.Contains(r, "REPLAY") {
		t.Errorf("replay header %q does not hold the live one %q and a badge", r, l)
	}
	compare("the events pane", func(h *harness) string { return ansi.Strip(h.m.events.View()) })
	// The same tool selected on both sides.
	replay.m.tools.PickedKey = live.m.tools.PickedKey
	replay.m.tools.Reselect()
	compare("the tools pane", func(h *harness) string { return ansi.Strip(h.m.tools.View()) })

	compareDetails(t, live, replay)
	compareWire(t, live, replay)
}

// recordLive drives a live session against the demo server while a
// Recorder writes the session file: a walk, then a passing, a failing, a
// refused and an isError call. It returns the live harness, the file and
// the number of events the session logged.
func recordLive(t *testing.T) (live *harness, path string, logged int) {
	t.Helper()
	target := demoTarget(t)
	path = filepath.Join(t.TempDir(), "live.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := record.NewRecorder(f, record.NewHeader("mcpwitness test", target.Describe()), target.Secrets())
	if err != nil {
		t.Fatal(err)
	}
	log := record.NewLog(nil)
	var count atomic.Int64
	log.AddSink(rec.Write)
	log.AddSink(func(record.Event) { count.Add(1) })
	// Subscribed before the dial, as Run does, so the UI sees every event.
	sub := log.Subscribe()
	t.Cleanup(sub.Close)

	var sess atomic.Pointer[session.Session]
	live = newHarness(t, options{Dial: func(ctx context.Context) (Backend, error) {
		s, err := session.Dial(ctx, target, &session.Options{Log: log, Timeout: 10 * time.Second})
		if err != nil {
			return nil, err
		}
		sess.Store(s)
		return s, nil
	}})
	go func() {
		for ev := range sub.C() {
			select {
			case live.msgs <- eventMsg(ev):
			case <-live.done:
				return
			}
		}
	}()
	live.firstWalks()
	for _, c := range []struct {
		tool, typed string
		want        fold.Outcome
	}{{"weather", "Lisbon", fold.OutcomePass}, {"forecast_broken", "Paris", fold.OutcomeFail},
		{"render_video", "a storyboard", fold.OutcomeRefused}, {"fail_always", "x", fold.OutcomeIsError}} {
		if got := live.call(c.tool, c.typed).Outcome(); got != c.want {
			t.Fatalf("%s: fold.Outcome %v, want %v", c.tool, got, c.want)
		}
	}
	sess.Load().Close()
	live.until("every event", func() bool { return live.m.St.Closed() && int64(live.m.St.Applied()) == count.Load() })
	if err := rec.Err(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return live, path, int(count.Load())
}

// comparePanes compares what get draws of the live harness and of the
// replay.
func comparePanes(t *testing.T, live, replay *harness, what string, get func(h *harness) string) {
	t.Helper()
	if diff := cmp.Diff(get(live), get(replay)); diff != "" {
		t.Errorf("%s differs between the live session and its replay (-live +replay):\n%s", what, diff)
	}
}

// compareDetails compares the detail pane for each tool called and each of
// its calls, built with the same wording on both sides.
func compareDetails(t *testing.T, live, replay *harness) {
	t.Helper()
	compare := func(what string, get func(h *harness) string) { comparePanes(t, live, replay, what, get) }
	replay.m.detail.readOnly = false
	for _, tool := range []string{"weather", "forecast_broken", "render_video", "fail_always", "add"} {
		for _, h := range []*harness{live, replay} {
			h.m.tools.PickedKey = tool
			h.m.tools.Reselect()
			h.m.detail.ShowTool(h.m.tools.Selected())
			h.update(tea.WindowSizeMsg{Width: 120, Height: 40})
			h.until("the tool's document", func() bool { return h.m.detail.builds.Pending == (detailKey{}) })
		}
		compare(tool+"'s detail", func(h *harness) string { return ansi.Strip(h.m.detail.View("", t0)) })
		for range live.m.St.CallsOf(tool) {
			for _, h := range []*harness{live, replay} {
				h.key("[")
				h.until("the call's document", func() bool { return h.m.detail.builds.Pending == (detailKey{}) })
			}
			compare(tool+"'s call", func(h *harness) string { return ansi.Strip(h.m.detail.View("", t0)) })
		}
	}
}

// compareWire compares the wire pane: the list, and each frame the cursor
// goes to.
func compareWire(t *testing.T, live, replay *harness) {
	t.Helper()
	compare := func(what string, get func(h *harness) string) { comparePanes(t, live, replay, what, get) }
	for _, h := range []*harness{live, replay} {
		h.key("w")
		h.until("the frame", func() bool { return h.m.wire.Building == (panes.FrameKey{}) })
	}
	for i := range 12 {
		compare("the wire pane", func(h *harness) string { return ansi.Strip(h.m.wire.View()) })
		for _, h := range []*harness{live, replay} {
			h.key("up")
			if i%3 == 0 {
				h.key("pgup")
			}
			h.until("the frame", func() bool { return h.m.wire.Building == (panes.FrameKey{}) })
		}
	}
}
