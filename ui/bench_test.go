package ui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// tenThousand returns a model showing a walk of 10,000 tools in pages of
// 100, the cursor in the middle of the list.
func tenThousand(b *testing.B) *model {
	b.Helper()
	m := newModel(options{Theme: "dark", Now: func() time.Time { return t0 }, Loc: time.UTC})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	e := &evs{}
	m.Update(eventMsg(e.connect()))
	for _, ev := range walkEvents(e, 1, 100, 100) {
		m.Update(eventMsg(ev))
	}
	if n := len(m.st.LatestTools().Tools); n != 10000 {
		b.Fatalf("%d tools", n)
	}
	m.tools.move(5000)
	m.sync()
	return m
}

// BenchmarkView10kTools measures one frame of the main screen with 10,000
// tools listed: only the visible rows are rendered.
func BenchmarkView10kTools(b *testing.B) {
	m := tenThousand(b)
	b.ReportAllocs()
	for b.Loop() {
		_ = m.View()
	}
}

// BenchmarkMove10kTools measures a cursor move (Update and View), the
// cost of holding a key down on a long list.
func BenchmarkMove10kTools(b *testing.B) {
	m := tenThousand(b)
	down, up := keyMsg("down"), keyMsg("up")
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if i%2 == 0 {
			m.Update(down)
		} else {
			m.Update(up)
		}
		_ = m.View()
		i++
	}
}

// BenchmarkFilter10kTools measures one fuzzy filter run over 10,000 tools,
// the work a filter command does off the UI goroutine.
func BenchmarkFilter10kTools(b *testing.B) {
	m := tenThousand(b)
	w := m.st.LatestTools()
	b.ReportAllocs()
	for b.Loop() {
		filterCmd(1, w, w.Tools, "tl99")()
	}
}
