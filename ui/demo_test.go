package ui

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mcpwitness/demo"
	"mcpwitness/fold"
	"mcpwitness/record"
	"mcpwitness/render"
	"mcpwitness/session"
)

// demoTarget starts the demo server in-process and returns a target for it.
func demoTarget(t *testing.T) session.Target {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := demo.New(nil).Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	return session.Target{Transport: ct, Name: "demo"}
}

// demoHarness dials the demo server and opens the UI on it.
func demoHarness(t *testing.T) (*harness, *session.Session) {
	t.Helper()
	log := record.NewLog(nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := session.Dial(ctx, demoTarget(t), &session.Options{Log: log, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	h := newHarness(t, options{Backend: s})
	h.bridge(log)
	// The connect event was appended before the bridge subscribed.
	info := s.Info()
	h.feed(record.Event{Kind: record.KindConnect, Server: &info})
	h.firstWalks()
	return h, s
}

// firstWalks waits for the walks of the demo's four lists to end. A walk's
// command may return before the bridge delivers its done event: it waits
// for both.
func (h *harness) firstWalks() {
	h.t.Helper()
	h.until("the first walks", func() bool {
		walks := h.m.St.Walks()
		return len(walks) == 4 && !h.m.ops.walking() && !slices.ContainsFunc(walks, func(w *fold.Walk) bool { return !w.Done })
	})
}

// call filters for tool, opens the editor, types args into the first
// field and sends.
func (h *harness) call(tool, typed string) *fold.Call {
	h.t.Helper()
	h.key("/")
	h.typeText(tool)
	h.key("enter")
	if sel := h.m.tools.Selected(); sel == nil || sel.Name != tool {
		h.t.Fatalf("selected %v, want %s", sel, tool)
	}
	h.key("esc") // clear the filter, keep the selection
	h.key("enter")
	h.typeText(typed)
	h.key("ctrl+s")
	h.until("the call to "+tool, func() bool {
		c := h.m.detail.Call()
		return h.m.ops.call == nil && c != nil && c.Tool == tool && c.Done
	})
	return h.m.detail.Call()
}

func TestDemoServer(t *testing.T) {
	h, _ := demoHarness(t)
	w := h.m.St.LatestTools()
	if len(w.Pages) < 4 || len(w.Tools) < 40 {
		t.Fatalf("walk read %d pages, %d tools; want the demo's paged list", len(w.Pages), len(w.Tools))
	}
	s := h.screen()
	for _, want := range []string{"mcpwitness-demo", "page 1 · 10 tools", "✓ " + itoa64(int64(len(w.Pages))) + " pages"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}

	c := h.call("weather", "Lisbon")
	if c.Outcome() != fold.OutcomePass {
		t.Errorf("weather: %s", render.CallSummary(c))
	}
	if s := h.screen(); !strings.Contains(s, "✓ pass") || !strings.Contains(s, "structuredContent") {
		t.Errorf("weather result screen:\n%s", s)
	}

	c = h.call("forecast_broken", "Paris")
	if c.Outcome() != fold.OutcomeFail {
		t.Errorf("forecast_broken: %s", render.CallSummary(c))
	}
	s = h.screen()
	for _, want := range []string{"✗ fail", "output-schema", "/temperature", "/humidity"} {
		if !strings.Contains(s, want) {
			t.Errorf("forecast_broken screen lacks %q:\n%s", want, s)
		}
	}

	c = h.call("render_video", "a storyboard")
	if c.Outcome() != fold.OutcomeRefused || c.Sent {
		t.Errorf("render_video: %s (sent %v)", render.CallSummary(c), c.Sent)
	}
	for i := 0; i < h.m.St.Frames().Len(); i++ {
		if f := h.m.St.Frames().At(i); f.Method == "tools/call" && strings.Contains(string(f.Frame), "render_video") {
			t.Errorf("a refused call reached the wire: %s", f.Frame)
		}
	}
	if s := h.screen(); !strings.Contains(s, "nothing was sent") {
		t.Errorf("refused screen:\n%s", s)
	}
	if n := len(h.m.St.CallsOf("weather")); n != 1 {
		t.Errorf("weather has %d calls in its history, want 1", n)
	}
}

func TestDemoProgressAndCancel(t *testing.T) {
	h, _ := demoHarness(t)
	h.key("/")
	h.typeText("slow_count")
	h.key("enter")
	h.key("esc")
	h.key("enter")
	h.key("ctrl+r") // raw JSON: a long, slow count
	h.m.editor.Area.SetValue(`{"steps": 100, "delay_ms": 50}`)
	h.key("ctrl+s")
	h.until("progress", func() bool { c := h.m.detail.Call(); return c != nil && c.HasProgress && c.Progress >= 2 })
	if s := h.screen(); !strings.Contains(s, "calling slow_count…") || !strings.Contains(s, "/100 step") {
		t.Errorf("in-flight screen:\n%s", s)
	}
	h.key("esc")
	h.until("the cancelled call", func() bool { c := h.m.detail.Call(); return c != nil && c.Done })
	c := h.m.detail.Call()
	if !c.Cancelled || c.Progress >= 100 {
		t.Errorf("call after esc: cancelled %v, progress %v", c.Cancelled, c.Progress)
	}
	found := false
	h.until("notifications/cancelled on the wire", func() bool {
		for i := 0; i < h.m.St.Frames().Len(); i++ {
			if h.m.St.Frames().At(i).Method == "notifications/cancelled" {
				found = true
			}
		}
		return found
	})
}

func TestDemoToggleToolsWalksAgain(t *testing.T) {
	h, _ := demoHarness(t)
	before := len(h.m.St.LatestTools().Tools)
	h.call("toggle_tools", "")
	h.until("the walk list_changed starts", func() bool {
		w := h.m.St.LatestTools()
		return w.ID > 1 && w.Done && len(w.Tools) == before+3
	})
	if w := h.m.St.LatestTools(); !w.AfterChange {
		t.Error("the second walk is not tied to list_changed")
	}
}

// TestRunExportsAndQuitsCleanly runs the whole program on the demo server,
// exports with e until the export holds the finished walk, quits with q,
// and checks that every goroutine it started has ended and that the log,
// which the caller made, is left for the caller to close.
func TestRunExportsAndQuitsCleanly(t *testing.T) {
	target := demoTarget(t)
	spool, err := record.NewSpool(record.NewHeader("test", target.Describe()), target.Secrets(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer spool.Close()
	log := record.NewLog(nil)
	log.AddSink(spool.Write)
	base := runtime.NumGoroutine()
	in, keys := io.Pipe()
	done := make(chan error, 1)
	dir := t.TempDir()
	cfg := Config{
		Target:  target,
		Session: session.Options{Log: log},
		Export:  func(ctx context.Context) (record.Exported, error) { return spool.Export(ctx, dir) },
	}
	go func() {
		done <- run(context.Background(), cfg,
			tea.WithInput(in), tea.WithOutput(io.Discard), tea.WithWindowSize(120, 40), tea.WithoutSignals())
	}()
	deadline := time.Now().Add(2 * time.Minute)
	seen := map[string]bool{}
	var export string
	for export == "" && time.Now().Before(deadline) {
		keys.Write([]byte("e"))
		time.Sleep(100 * time.Millisecond)
		files, _ := filepath.Glob(filepath.Join(dir, "mcpwitness-*.jsonl"))
		for _, f := range files {
			if seen[f] {
				continue
			}
			seen[f] = true
			b, _ := os.ReadFile(f)
			if strings.Contains(string(b), `"state":"done"`) && strings.Contains(string(b), `"kind":"walk"`) {
				export = f
			}
		}
	}
	if export == "" {
		t.Fatal("no export held the finished walk")
	}

	b, _ := os.ReadFile(export)
	first, _, _ := strings.Cut(string(b), "\n")
	if !strings.Contains(first, `"format":"mcpwitness-session"`) {
		t.Errorf("export's first line is not a session header: %s", first)
	}
	keys.Write([]byte("q"))
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("run did not return after q")
	}
	keys.Close()
	for runtime.NumGoroutine() > base+2 && time.Now().Before(deadline.Add(time.Minute)) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > base+2 {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines left after run (%d before):\n%s", n, base, buf[:runtime.Stack(buf, true)])
	}
	if tmp, _ := filepath.Glob(filepath.Join(dir, ".mcpwitness-export-*")); len(tmp) > 0 {
		t.Errorf("temporary export files left: %v", tmp)
	}
	if ev := log.Append(record.Event{Kind: record.KindStderr, Text: "after run"}); ev.Seq == 0 {
		t.Error("run closed the log it was given; the caller closes it")
	}
	log.Close()
}

// TestBridgeBatchesAFlood floods a log and checks the bridge delivers the
// events, in order, in far fewer messages than events.
func TestBridgeBatchesAFlood(t *testing.T) {
	log := record.NewLog(nil)
	sub := log.Subscribe()
	var msgs []tea.Msg
	done := make(chan struct{})
	go func() {
		bridge(sub.C(), func(m tea.Msg) { msgs = append(msgs, m) })
		close(done)
	}()
	const n = 50000
	for i := range n {
		log.Append(record.Event{Kind: record.KindStderr, Text: itoa64(int64(i))})
	}
	log.Close()
	<-done
	got := 0
	for _, m := range msgs {
		for _, ev := range m.(eventsMsg) {
			if ev.Text != itoa64(int64(got)) {
				t.Fatalf("event %d is %q", got, ev.Text)
			}
			got++
		}
	}
	if got != n {
		t.Fatalf("delivered %d of %d events", got, n)
	}
	if len(msgs) > n/20 {
		t.Errorf("%d messages for %d events: the flood was not batched", len(msgs), n)
	}
}
