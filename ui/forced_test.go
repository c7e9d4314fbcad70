package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"mcpwitness/internal/hostiletest"
)

// TestForcedCallShowsTheRefusalOverridden refuses a task-required tool of a
// real server, sends it anyway with f, and checks that the screen says the
// refusal was overridden rather than that nothing was sent, and never names
// a command-line flag: the UI's hints name its keys.
func TestForcedCallShowsTheRefusalOverridden(t *testing.T) {
	h, _, _ := hostileHarness(t, hostiletest.ModeTaskRequired, 120, 60)
	h.key("home")
	if sel := h.m.tools.Selected(); sel == nil || sel.Name != "tool_1_1" {
		t.Fatalf("selected %v, want tool_1_1", sel)
	}
	h.key("enter")
	h.key("ctrl+s")
	h.until("the refusal", func() bool {
		c := h.m.detail.Call()
		return h.m.ops.call == nil && c != nil && c.Done
	})
	s := h.detailText()
	for _, want := range []string{"⊘ refused", "requires task-based execution", "nothing was sent", "f sends it anyway"} {
		if !strings.Contains(s, want) {
			t.Errorf("the refused call's screen lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "--") {
		t.Errorf("the refused call's screen names a command-line flag:\n%s", s)
	}

	h.key("f")
	h.key("enter")
	h.until("the forced call", func() bool {
		c := h.m.detail.Call()
		return h.m.ops.call == nil && c != nil && c.Done && c.Forced
	})
	s = h.detailText()
	for _, want := range []string{"sent anyway", "↷ overridden", "Refused, then sent anyway as asked.", "JSON-RPC error -32601"} {
		if !strings.Contains(s, want) {
			t.Errorf("the forced call's screen lacks %q:\n%s", want, s)
		}
	}
	for _, bad := range []string{"was not sent", "nothing was sent", "--"} {
		if strings.Contains(s, bad) {
			t.Errorf("the forced call's screen says %q:\n%s", bad, s)
		}
	}
}

// detailText is the detail pane's whole document, stripped, its wrapped
// lines joined with single spaces.
func (h *harness) detailText() string {
	return strings.Join(strings.Fields(ansi.Strip(strings.Join(h.m.detail.sc.Lines, "\n"))), " ")
}
