package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"mcpwitness/internal/hostiletest"
	"mcpwitness/record"
	"mcpwitness/session"
)

// TestWireOfAFailedConnection connects to a server that answers initialize
// with a protocol version nobody asked for: the "could not connect" screen
// offers w, and w shows the frames of the failed attempt.
func TestWireOfAFailedConnection(t *testing.T) {
	bin := hostiletest.Build(t)
	log := record.NewLog(nil)
	cmd := hostiletest.Command(bin, hostiletest.ModeBadVersion)
	h := newHarness(t, options{Theme: "mono", Dial: func(ctx context.Context) (Backend, error) {
		ctx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		s, err := session.Dial(ctx, session.Target{Command: cmd.Args}, &session.Options{Log: log, Timeout: time.Minute})
		if err != nil {
			return nil, err
		}
		s.Close()
		t.Error("the dial succeeded; want it to fail")
		return nil, err
	}})
	h.bridge(log)
	h.until("the failed dial and its answer on the wire", func() bool {
		return h.m.dialErr != nil && h.m.St.Frames().Len() >= 2
	})
	s := h.screen()
	if !strings.Contains(s, "could not connect") || !strings.Contains(s, "w wire") {
		t.Fatalf("the failed connection screen does not offer w:\n%s", s)
	}
	h.key("w")
	s = h.screen()
	for _, want := range []string{"Wire", "initialize", "1999-01-01"} {
		if !strings.Contains(s, want) {
			t.Errorf("w on the failed connection screen lacks %q:\n%s", want, s)
		}
	}
	h.key("w")
	if s := h.screen(); !strings.Contains(s, "could not connect") {
		t.Errorf("w again does not go back to the error:\n%s", s)
	}
}
