package ui

import (
	"strings"
	"testing"

	"mcpwitness/internal/hostiletest"
	"mcpwitness/render"
)

// TestServerExitKeepsTheListAndSaysHowToGoOn calls a tool of a real server
// that exits on a call: the header keeps counting the tools still listed,
// the screen says the session is closed, why, and what can still be done,
// and r says it cannot walk a closed session instead of failing silently.
func TestServerExitKeepsTheListAndSaysHowToGoOn(t *testing.T) {
	h, _, _ := hostileHarness(t, hostiletest.ModeDieOnCall, 120, 40)
	listed := len(h.m.St.Shown().Tools)
	if listed == 0 {
		t.Fatal("the walk listed no tools")
	}
	h.key("enter")
	h.key("ctrl+s")
	h.until("the server to exit", func() bool { return h.m.St.Closed() && h.m.ops.call == nil })
	h.drain()
	s := h.screen()
	head := strings.SplitN(s, "\n", 3)[1]
	if want := render.Plural(listed, "1 tool", itoa64(int64(listed))+" tools"); !strings.Contains(head, want) {
		t.Errorf("the header does not count the %s still listed: %q", want, head)
	}
	lines := strings.Split(s, "\n")
	status := lines[len(lines)-2]
	for _, want := range []string{"server exited", "exit status 3", "closed", "q quit", "e export"} {
		if !strings.Contains(status, want) {
			t.Errorf("the closed session's status line lacks %q: %q", want, status)
		}
	}
	walks := len(h.m.St.Walks())
	h.key("r")
	h.drain()
	if h.m.ops.walking() || len(h.m.St.Walks()) != walks {
		t.Error("r started a walk of a closed session")
	}
	s = h.screen()
	if !strings.Contains(s, "cannot walk") || !strings.Contains(s, "closed") {
		t.Errorf("r on a closed session does not say why nothing happens:\n%s", s)
	}
	if head := strings.SplitN(s, "\n", 3)[1]; !strings.Contains(head, itoa64(int64(listed))+" tools") {
		t.Errorf("after r the header no longer counts the tools listed: %q", head)
	}
}
