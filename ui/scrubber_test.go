package ui

import (
	"testing"

	"mcpwitness/ui/panes"
)

// TestScrubberTargets checks where each scrubber key asks to go: a step
// either way, the moment before or after (the ends past the last), the
// start and the end.
func TestScrubberTargets(t *testing.T) {
	km := panes.DefaultScrubberKeyMap()
	s := panes.Scrubber{Keys: &km}
	moments := []int{3, 10, 20}
	for _, c := range []struct {
		key        string
		from, want int
	}{
		{",", 5, 4}, {".", 5, 6}, {"left", 5, 4}, {"right", 5, 6},
		{">", 5, 10}, {">", 10, 20}, {">", 20, 50},
		{"<", 10, 3}, {"<", 11, 10}, {"<", 3, 0},
		{"{", 17, 0}, {"}", 17, 50},
	} {
		got, ok := s.Target(keyMsg(c.key), c.from, 50, moments)
		if !ok || got != c.want {
			t.Errorf("%q from %d: %d %v, want %d", c.key, c.from, got, ok, c.want)
		}
	}
	if _, ok := s.Target(keyMsg("x"), 5, 50, moments); ok || s.Matches(keyMsg("x")) {
		t.Error("x is taken as a scrubber key")
	}
}
