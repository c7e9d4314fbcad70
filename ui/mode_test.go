package ui

import (
	"maps"
	"mcpwitness/ui/panes"
	"reflect"
	"testing"
)

// TestViewChangesNothing checks View only reads: drawing a screen twice
// leaves the caches, the scroll windows and the mode as they were, on the
// main screen, with help open and on the wire.
func TestViewChangesNothing(t *testing.T) {
	for _, keys := range [][]string{nil, {"?"}, {"w"}, {"w", "tab"}, {"["}} {
		m := replayModel(t, 80, 24, "dark")
		for _, k := range keys {
			m.Update(keyMsg(k))
		}
		memo, help, doc, frame, md := maps.Clone(m.memo), m.helpView.Sc, m.detail.sc, m.wire.Frame, m.mode
		first := m.View().Content
		if !maps.EqualFunc(memo, m.memo, func(a, b [2]string) bool { return a == b }) {
			t.Errorf("after %v: View wrote the drawing cache", keys)
		}
		for name, pair := range map[string][2]panes.Scroller{"help": {help, m.helpView.Sc}, "detail": {doc, m.detail.sc}, "frame": {frame, m.wire.Frame}} {
			if !reflect.DeepEqual(pair[0], pair[1]) {
				t.Errorf("after %v: View resized or moved the %s scroller", keys, name)
			}
		}
		if m.mode != md {
			t.Errorf("after %v: View changed the mode", keys)
		}
		if second := m.View().Content; second != first {
			t.Errorf("after %v: two Views of one state differ", keys)
		}
	}
}

// TestModes checks the mode follows the keys: help over the wire goes back
// to the wire, the filter's mode ends with it, the editor's with esc.
func TestModes(t *testing.T) {
	m := replayModel(t, 80, 24, "dark")
	m.backend, m.link = &fakeBackend{}, linkUp
	for _, step := range []struct {
		key  string
		want mode
	}{
		{"w", modeWire}, {"?", modeHelp}, {"esc", modeWire}, {"w", modeNormal},
		{"/", modeFilter}, {"x", modeFilter}, {"enter", modeNormal},
		{"?", modeHelp}, {"?", modeNormal},
	} {
		m.Update(keyMsg(step.key))
		if m.mode != step.want {
			t.Fatalf("after %q: mode %d, want %d", step.key, m.mode, step.want)
		}
	}
}
