package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"mcpwitness/record"
)

// TestNarrowScreensKeepTheirKeys draws every main screen at 40×12, 80×24
// and 120×40: each fills the screen exactly, its key line is the last line
// and always offers q and ? where they are keys, and a pane that is shown
// has room to be read.
func TestNarrowScreensKeepTheirKeys(t *testing.T) {
	scenes := []struct {
		name   string
		keys   []string
		typing bool   // q and ? are text here
		shows  string // what the body must show
	}{
		{"tools", nil, false, "add_duration"},
		{"detail", []string{"tab"}, false, "Add two numbers"},
		{"events", []string{"tab", "tab"}, false, "ping: answered"},
		{"resources", []string{"2"}, false, "Resources"},
		{"read", []string{"2", "g", "j", "tab"}, false, "Latest resources/read"},
		{"prompts", []string{"4"}, false, "summarize"},
		{"result", []string{"["}, false, "Call #2"},
		{"wire", []string{"w"}, false, "Wire"},
		{"help", []string{"?"}, false, "Keys"},
		{"editor", []string{"enter"}, true, "a*"},
		{"filter", []string{"/", "d", "i", "v"}, true, "divide"},
	}
	for _, size := range [][2]int{{40, 12}, {80, 24}, {120, 40}} {
		for _, sc := range scenes {
			t.Run(fmt.Sprintf("%s_%dx%d", sc.name, size[0], size[1]), func(t *testing.T) {
				// A live session's keys, not a replay's: give it a
				// backend, and keep it open.
				m := openModel(t, size[0], size[1], "mono")
				m.backend, m.link = &fakeBackend{}, linkUp
				if sc.name == "result" {
					m.tools.PickedKey = "forecast_broken"
					m.tools.Reselect()
					m.sync()
				}
				m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
				for _, k := range sc.keys {
					m.Update(keyMsg(k))
				}
				view := m.View().Content
				checkFits(t, view, size[0], size[1])
				lines := strings.Split(ansi.Strip(view), "\n")
				keys := lines[len(lines)-1]
				if !sc.typing {
					for _, want := range []string{"q quit", "?"} {
						if !strings.Contains(keys, want) {
							t.Errorf("the key line lacks %q: %q", want, keys)
						}
					}
				} else if !strings.Contains(keys, "esc") {
					t.Errorf("the key line lacks esc: %q", keys)
				}
				if strings.HasSuffix(strings.TrimRight(keys, " "), "…") {
					t.Errorf("the key line is cut: %q", keys)
				}
				if body := strings.Join(lines[3:len(lines)-2], "\n"); !strings.Contains(body, sc.shows) {
					t.Errorf("the screen does not show %q:\n%s", sc.shows, strings.Join(lines, "\n"))
				}
			})
		}
	}
}

// openModel is [replayModel] without the fixture's closed event: a session
// still open.
func openModel(t *testing.T, w, h int, theme string) *model {
	t.Helper()
	return fixtureModel(t, w, h, theme, func(ev record.Event) bool { return ev.Kind != record.KindClosed })
}
