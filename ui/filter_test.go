package ui

import (
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
	for _, r := range h.m.tools.rows {
		switch {
		case r.page != nil:
			order = append(order, "page"+itoa64(int64(r.page.Number)))
		default:
			order = append(order, r.tool.Name)
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

func TestMatchRank(t *testing.T) {
	for _, tc := range []struct {
		q, s string
		want matchRank
		ok   bool
	}{
		{"long", "long", rankExact, true},
		{"LONG", "Long", rankExact, true},
		{"long", "longest_job", rankPrefix, true},
		{"long", "slow_long", rankWord, true},
		{"long", "belong", rankSubstring, true},
		{"long", "lxoxnxg", rankFuzzy, true},
		{"long", "lgn", 0, false},
	} {
		m, ok := rankMatch(tc.q, tc.s)
		if ok != tc.ok || (ok && m.rank != tc.want) {
			t.Errorf("rankMatch(%q, %q) = %v, %v; want rank %v, %v", tc.q, tc.s, m.rank, ok, tc.want, tc.ok)
		}
		if ok && len(m.pos) != len([]rune(tc.q)) {
			t.Errorf("rankMatch(%q, %q) marks %v", tc.q, tc.s, m.pos)
		}
	}
}
