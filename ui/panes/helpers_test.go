package panes

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

func keyMsg(k string) tea.KeyPressMsg {
	codes := map[string]rune{"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab, "up": tea.KeyUp,
		"down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight, "backspace": tea.KeyBackspace,
		"pgdown": tea.KeyPgDown, "pgup": tea.KeyPgUp, "space": tea.KeySpace, "home": tea.KeyHome, "end": tea.KeyEnd}
	mod := tea.KeyMod(0)
	if rest, ok := strings.CutPrefix(k, "ctrl+"); ok {
		mod, k = tea.ModCtrl, rest
	}
	if rest, ok := strings.CutPrefix(k, "shift+"); ok {
		mod, k = mod|tea.ModShift, rest
	}
	if rest, ok := strings.CutPrefix(k, "alt+"); ok {
		mod, k = mod|tea.ModAlt, rest
	}
	if c, ok := codes[k]; ok {
		return tea.KeyPressMsg{Code: c, Mod: mod}
	}
	r := []rune(k)[0]
	if mod != 0 {
		return tea.KeyPressMsg{Code: r, Mod: mod}
	}
	return tea.KeyPressMsg{Code: r, Text: k}
}

// checkFits fails when a view line is wider than w or the view is not h
// lines.
func checkFits(t *testing.T, view string, w, h int) {
	t.Helper()
	lines := strings.Split(view, "\n")
	if len(lines) != h {
		t.Errorf("view has %d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if lw := ansi.StringWidth(l); lw > w {
			t.Errorf("line %d is %d cells wide, more than %d: %q", i+1, lw, w, ansi.Strip(l))
		}
	}
}
