package ui

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestFilterRanksMatchesAndCountsThem filters tools spread over two pages:
// the best match (exact, then prefix, then a word inside the name, then
// anywhere, then fuzzy) comes first with its page, Enter keeps it
// selected, and the pane's title counts the matches, not the whole list.
func TestFilterRanksMatchesAndCountsThem(t *testing.T) {
	h := newHarness(t, options{Theme: "mono"})
	b := &evs{}
	h.feed(b.connect(), b.walkStart(1),
		b.page(1, 1, 1, "1", tool("lxoxnxg"), tool("belong"), tool("get_weather")),
		b.page(1, 2, 2, "", tool("slow_long"), tool("longest_job"), tool("long"), tool("ping")),
		b.walkDone(1, 2, 7, 2, ""))
	h.key("/")
	h.typeText("long")
	h.key("enter")
	if sel := h.m.tools.Selected(); sel == nil || sel.Name != "long" {
		t.Fatalf("enter kept %v selected, want the exact match long", sel)
	}
	var order []string
	for _, r := range h.m.tools.Rows {
		switch {
		case r.Page != nil:
			order = append(order, "page"+itoa64(int64(r.Page.Number)))
		default:
			order = append(order, r.Tool.Name)
		}
	}
	want := "page2 long longest_job slow_long page1 belong lxoxnxg"
	if got := strings.Join(order, " "); got != want {
		t.Errorf("rows = %q, want %q", got, want)
	}
	s := h.screen()
	if !strings.Contains(s, "Tools 5 of 7") {
		t.Errorf("the tools pane's title does not count the matches:\n%s", s)
	}
	if !strings.Contains(s, "page 2 · 3 of 4 tools") || !strings.Contains(s, "page 1 · 2 of 3 tools") {
		t.Errorf("the filtered list does not keep its pages:\n%s", s)
	}

	// A prefix beats a word start, a word start beats the middle.
	h.key("esc")
	h.key("/")
	h.typeText("we")
	h.key("enter")
	if sel := h.m.tools.Selected(); sel == nil || sel.Name != "get_weather" {
		t.Errorf("enter kept %v selected, want get_weather", sel)
	}
}

func TestFilterKeepsPageStructure(t *testing.T) {
	h := newHarness(t, options{})
	b := &evs{}
	h.feed(b.connect())
	h.feed(walkEvents(b, 1, 3, 10)...)
	h.key("/")
	h.typeText("t0012")
	s := h.screen()
	if !strings.Contains(s, "page 2 · 1 of 10 tools") || !strings.Contains(s, "tool_0012") {
		t.Errorf("filtered list lacks page 2 and tool_0012:\n%s", s)
	}
	for _, gone := range []string{"page 1 ·", "page 3 ·", "tool_0011", "tool_0001"} {
		if strings.Contains(s, gone) {
			t.Errorf("filtered list still shows %q:\n%s", gone, s)
		}
	}
	h.key("enter")
	if sel := h.m.tools.Selected(); sel == nil || sel.Name != "tool_0012" {
		t.Errorf("selected = %v, want tool_0012", sel)
	}
	h.key("esc")
	if s := h.screen(); !strings.Contains(s, "page 1 ·") || h.m.tools.Filtered() {
		t.Errorf("esc did not clear the filter:\n%s", s)
	}
}

func TestFilterOfALongListRunsInACommand(t *testing.T) {
	h := newHarness(t, options{})
	b := &evs{}
	h.feed(b.connect())
	h.feed(walkEvents(b, 1, 5, 1000)...)
	h.key("/")
	_, cmd := h.m.Update(keyMsg("9"))
	if h.m.tools.Hits != nil {
		t.Fatal("a 5000-tool filter ran inside Update")
	}
	h.exec(cmd)
	h.until("the filter result", func() bool { return h.m.tools.Hits != nil })
	for _, r := range h.m.tools.Rows {
		if r.Tool != nil && !strings.Contains(r.Tool.Name, "9") {
			t.Fatalf("row %s does not match 9", r.Tool.Name)
		}
	}
}

// callScreen sets up a one-tool listing and a fake backend.
func callScreen(t *testing.T, f *fakeBackend, def json.RawMessage) (*harness, *evs) {
	t.Helper()
	h := newHarness(t, options{Backend: f})
	b := &evs{}
	h.feed(b.connect(), b.walkStart(1), b.page(1, 1, 1, "", def), b.walkDone(1, 1, 1, 1, ""))
	h.drain()
	return h, b
}
