package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// With five tabs an 80-column terminal shows every one of them: the short
// names, then a space between them rather than " · ". The fifth (Tasks)
// was cut behind an ellipsis, out of sight.
func TestFiveTabsFitEightyColumns(t *testing.T) {
	h := taskHarness(t, tasks2026)
	if n := len(h.m.tabs()); n != 5 {
		t.Fatalf("%d tabs, want 5", n)
	}
	for _, size := range []struct {
		w, h int
		want string
	}{
		{120, 40, " · Tsk "},
		{80, 24, " Tsk "},
	} {
		h.update(tea.WindowSizeMsg{Width: size.w, Height: size.h})
		strip := ""
		for _, line := range strings.Split(h.screen(), "\n") {
			if strings.HasPrefix(line, "Tools ") {
				strip = line
				break
			}
		}
		for _, name := range []string{"Tools ", "Res ", "Tmpl ", "Prm ", "Tsk ", size.want} {
			if !strings.Contains(strip, name) {
				t.Errorf("%dx%d: the tab strip %q does not show %q", size.w, size.h, strip, name)
			}
		}
	}
}
