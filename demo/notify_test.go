package demo

//lint:file-ignore SA1019 logging is deprecated as of protocol 2026-07-28 (SEP-2577), but still in use, and showing it is part of the demo.

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// slowCountProgress calls slow_count with a progress token and checks each
// step is reported.
func slowCountProgress(t *testing.T, cs *mcp.ClientSession, ev *events) {
	t.Helper()
	params := &mcp.CallToolParams{Name: "slow_count", Arguments: map[string]any{"steps": 4, "delay_ms": 1}}
	params.SetProgressToken("count-1")
	res, err := cs.CallTool(context.Background(), params)
	if err != nil || res.IsError {
		t.Fatalf("slow_count: %v %v", err, res)
	}
	for range 4 {
		wait(t, ev.progressed, "progress notification")
	}
	got := ev.Progress()
	if len(got) != 4 {
		t.Fatalf("got %d progress notifications, want 4", len(got))
	}
	for i, p := range got {
		if p.ProgressToken != "count-1" || p.Progress != float64(i+1) || p.Total != 4 {
			t.Errorf("progress %d = %+v, want token count-1, progress %d of 4", i, p, i+1)
		}
	}
}

func TestSlowCountProgress(t *testing.T) {
	ev := newEvents()
	cs, _ := connect(t, nil, ev, legacy)
	slowCountProgress(t, cs, ev)

	// Without a progress token there is nothing to report progress against;
	// steps defaults to 5.
	res := call(t, cs, "slow_count", map[string]any{"delay_ms": 1})
	if got := textOf(res); !strings.Contains(got, "Counted to 5,") || !strings.Contains(got, "no progress token") || len(ev.Progress()) != 4 {
		t.Errorf("slow_count without a token: %q, %d notifications", got, len(ev.Progress()))
	}
}

// cancelSlowCount cancels a long slow_count after its first step and checks
// the server stopped: it says so in a log message.
func cancelSlowCount(t *testing.T, cs *mcp.ClientSession, ev *events) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	params := &mcp.CallToolParams{Name: "slow_count", Arguments: map[string]any{"steps": 1000, "delay_ms": 20}}
	params.SetProgressToken("cancel-me")
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, params)
		done <- err
	}()
	wait(t, ev.progressed, "first progress notification")
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("CallTool after cancel: %v, want context.Canceled", err)
	}
	for {
		wait(t, ev.logged, "the server's cancellation log message")
		logs := ev.Logs()
		if s, _ := logs[len(logs)-1].Data.(string); strings.HasPrefix(s, "slow_count cancelled after ") {
			if len(ev.Progress()) >= 1000 {
				t.Errorf("all 1000 steps ran despite the cancellation")
			}
			return
		}
	}
}

func TestSlowCountCancel(t *testing.T) {
	ev := newEvents()
	cs, _ := connect(t, nil, ev, legacy)
	cancelSlowCount(t, cs, ev)
}

// toggle calls toggle_tools twice and checks each call is announced and
// changes the list by three.
func toggle(t *testing.T, cs *mcp.ClientSession, ev *events) {
	t.Helper()
	before := names(flatten(walk(t, cs)))
	call(t, cs, "toggle_tools", nil)
	wait(t, ev.listChanged, "tools/list_changed after adding")
	after := names(flatten(walk(t, cs)))
	if len(after) != len(before)+3 || !slices.Contains(after, "extra_gamma") {
		t.Fatalf("after toggling on: %d tools (was %d)", len(after), len(before))
	}
	if got := textOf(call(t, cs, "extra_gamma", map[string]any{"x": 5})); !strings.Contains(got, "= 24") {
		t.Errorf("extra_gamma(5) = %q", got)
	}
	call(t, cs, "toggle_tools", nil)
	wait(t, ev.listChanged, "tools/list_changed after removing")
	if got := names(flatten(walk(t, cs))); !slices.Equal(got, before) {
		t.Errorf("after toggling off: %v, want %v", got, before)
	}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "extra_gamma"}); err == nil {
		t.Errorf("extra_gamma still answers after removal")
	}
}

func TestToggleTools(t *testing.T) {
	ev := newEvents()
	cs, _ := connect(t, nil, ev, legacy)
	toggle(t, cs, ev)
}

// levels returns the levels of the log messages from logger.
func levels(logs []*mcp.LoggingMessageParams, logger string) []mcp.LoggingLevel {
	var out []mcp.LoggingLevel
	for _, l := range logs {
		if l.Logger == logger {
			out = append(out, l.Level)
		}
	}
	return out
}

func TestLogBurst(t *testing.T) {
	all := []mcp.LoggingLevel{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}
	ev := newEvents()
	cs, _ := connect(t, nil, ev, legacy)

	// A client that never sets a level still sees every message.
	call(t, cs, "log_burst", nil)
	for range all {
		wait(t, ev.logged, "log message")
	}
	if got := levels(ev.Logs(), "log_burst"); !slices.Equal(got, all) {
		t.Errorf("levels %v, want %v", got, all)
	}

	// logging/setLevel still filters.
	if err := cs.SetLoggingLevel(context.Background(), &mcp.SetLoggingLevelParams{Level: "error"}); err != nil {
		t.Fatal(err)
	}
	call(t, cs, "log_burst", nil)
	for range 4 {
		wait(t, ev.logged, "log message")
	}
	if got := levels(ev.Logs(), "log_burst")[len(all):]; !slices.Equal(got, all[4:]) {
		t.Errorf("at level error: %v, want %v", got, all[4:])
	}
}

func TestDefaultProtocol(t *testing.T) {
	ev := newEvents()
	cs, _ := connect(t, nil, ev, nil)
	if v := cs.InitializeResult().ProtocolVersion; v != "2026-07-28" {
		t.Errorf("negotiated %s, want 2026-07-28", v)
	}
	pages := walk(t, cs)
	checkPages(t, pages, 10, len(flatten(pages)))
	if res := call(t, cs, "add", map[string]any{"a": 1, "b": 2}); structured(t, res)["sum"] != 3.0 {
		t.Errorf("add: %v", res.StructuredContent)
	}
	slowCountProgress(t, cs, ev)
	toggle(t, cs, ev)

	// On this protocol a request asks for log messages in its _meta.
	res := call(t, cs, "log_burst", nil)
	if !strings.Contains(textOf(res), "Sent no log messages") || len(ev.Logs()) != 0 {
		t.Errorf("log_burst without a log level: %q, %d messages", textOf(res), len(ev.Logs()))
	}
	params := &mcp.CallToolParams{Name: "log_burst", Meta: mcp.Meta{mcp.MetaKeyLogLevel: "critical"}}
	if _, err := cs.CallTool(context.Background(), params); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		wait(t, ev.logged, "log message")
	}
	if got, want := levels(ev.Logs(), "log_burst"), []mcp.LoggingLevel{"critical", "alert", "emergency"}; !slices.Equal(got, want) {
		t.Errorf("at level critical: %v, want %v", got, want)
	}
}
