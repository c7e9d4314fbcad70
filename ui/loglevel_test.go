package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"mcpwitness/record"
	"mcpwitness/session"
)

// levelHarness dials the demo server on protocol (the newest when "") and
// opens the UI on it with --log-level level.
func levelHarness(t *testing.T, protocol, level string) *harness {
	t.Helper()
	log := record.NewLog(nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := session.Dial(ctx, demoTarget(t), &session.Options{Log: log, Timeout: time.Minute, Protocol: protocol})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	h := newHarness(t, options{Backend: s, LogLevel: level})
	h.bridge(log)
	info := s.Info()
	h.feed(record.Event{Kind: record.KindConnect, Server: &info})
	return h
}

// --log-level in the TUI: once connected, the server is asked to log at the
// level, as the L picker asks, and the status line says how it went.
func TestLogLevelFlagIsSentOnceConnected(t *testing.T) {
	h := levelHarness(t, "2025-11-25", "warning")
	r := h.latest(record.MethodSetLevel, "warning")
	if !r.Sent || r.Err != "" || len(r.RPCError) > 0 {
		t.Errorf("set level: sent %v err %q rpc %s", r.Sent, r.Err, r.RPCError)
	}
	h.firstWalks()
	if got := session.LogLevels()[h.m.level]; got != "warning" {
		t.Errorf("the picker starts at %q, want the level sent", got)
	}
	h.until("the status line", func() bool { return strings.Contains(h.screen(), "the server logs at warning and above") })
}

// On a protocol without logging/setLevel nothing is sent, and the status
// line says why, as it does for the picker.
func TestLogLevelFlagOnAProtocolWithoutSetLevel(t *testing.T) {
	h := levelHarness(t, "", "debug")
	r := h.latest(record.MethodSetLevel, "debug")
	if r.Sent || !strings.Contains(r.Err, "no logging/setLevel") {
		t.Errorf("set level: sent %v err %q", r.Sent, r.Err)
	}
	h.firstWalks()
	h.until("the status line", func() bool { return strings.Contains(h.screen(), "no logging/setLevel") })
}
