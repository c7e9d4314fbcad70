package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"mcpwitness/record"
)

// y on a tool whose definition (its description, n bytes) is big: past
// what tmux takes in one escape sequence it is copied with a warning that
// says so; past maxCopy it is not sent, and the status line says where
// the text is instead.
func TestCopyTooBigForTheTerminal(t *testing.T) {
	for _, tt := range []struct {
		name   string
		n      int
		copied bool
		level  level
		status []string
	}{
		{"small", 1000, true, levelOK, []string{"copied tool definition · 1.1 kB · OSC 52 (nothing pastes?"}},
		{"past tmux's buffer", 1 << 20, true, levelWarn, []string{"copied tool definition · 1.0 MB · OSC 52 of 1.4 MB, past the 1 MiB tmux takes"}},
		{"past the bound", 7 << 20, false, levelWarn, []string{"not copied: tool definition of 7.3 MB (OSC 52 of 9.8 MB, past the 8 MiB y sends); e exports it in the session"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			// Done at once: the status line's timer delivers nothing, so
			// running the key's commands does not wait for it.
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			m := newModel(options{Ctx: ctx, Theme: "dark", Now: func() time.Time { return t0 }, Loc: time.UTC, Backend: &fakeBackend{},
				Export: func(context.Context) (record.Exported, error) { return record.Exported{}, nil }})
			m.Update(tea.WindowSizeMsg{Width: 110, Height: 30})
			b := &evs{}
			def := tool("big", fmt.Sprintf(`"description":%q`, strings.Repeat("d", tt.n)))
			for _, ev := range []record.Event{b.connect(), b.walkStart(1), b.page(1, 1, 1, "", def), b.walkDone(1, 1, 1, 1, "")} {
				m.Update(eventMsg(ev))
			}
			_, cmd := m.Update(keyMsg("y"))
			text, ok := clipboard(t, cmd)
			if ok != tt.copied {
				t.Fatalf("copied: %v, want %v; status %q", ok, tt.copied, m.status.text)
			}
			if ok && !strings.Contains(text, strings.Repeat("d", tt.n)) {
				t.Errorf("copied %d bytes, not the whole definition", len(text))
			}
			if m.status.level != tt.level {
				t.Errorf("status level %v, want %v: %q", m.status.level, tt.level, m.status.text)
			}
			for _, want := range tt.status {
				if !strings.Contains(m.status.text, want) {
					t.Errorf("status %q does not say %q", m.status.text, want)
				}
			}
		})
	}
}
