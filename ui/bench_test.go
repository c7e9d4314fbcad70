package ui

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"mcpwitness/paging"
	"mcpwitness/record"

	"mcpwitness/ui/panes"
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
	if n := len(m.St.LatestTools().Tools); n != 10000 {
		b.Fatalf("%d tools", n)
	}
	m.tools.Move(5000)
	m.sync()
	m.predraw() // as Update does before each frame
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
	w := m.St.LatestTools()
	b.ReportAllocs()
	for b.Loop() {
		panes.FilterCmd(1, w, w.Tools, "tl99")()
	}
}

// tenThousandResources returns a model showing a walk of 10,000 resources
// in pages of 100 on the resources tab, the cursor in the middle.
func tenThousandResources(b *testing.B) *model {
	b.Helper()
	m := newModel(options{Theme: "dark", Now: func() time.Time { return t0 }, Loc: time.UTC})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	e := &evs{}
	con := e.connect()
	con.Server.Capabilities = []byte(`{"tools":{},"resources":{}}`)
	m.Update(eventMsg(con))
	method := paging.Resources().Name
	m.Update(eventMsg(e.ev(record.Event{Kind: record.KindWalk, Method: method, Walk: &record.WalkInfo{ID: 1, Method: method, State: record.PhaseStart}})))
	for n := 1; n <= 100; n++ {
		items := make([]json.RawMessage, 100)
		for i := range items {
			items[i] = json.RawMessage(fmt.Sprintf(`{"uri":"file:///r/%d/%d","name":"r%d_%d","mimeType":"text/markdown","size":%d}`, n, i, n, i, n*i))
		}
		p := paging.Page{Number: n, Count: len(items), Ms: 2, Generation: int64(n)}
		m.Update(eventMsg(e.ev(record.Event{Kind: record.KindPage, Method: method, Page: &p, Items: items,
			Walk: &record.WalkInfo{ID: 1, Method: method, State: record.PhasePage}})))
	}
	m.Update(keyMsg("2"))
	if n := m.tabCount(tabResources); n != 10000 {
		b.Fatalf("%d resources", n)
	}
	m.items[tabResources.item()].Move(5000)
	m.sync()
	m.predraw() // as Update does before each frame
	return m
}

// BenchmarkView10kResources measures one frame of the resources tab with
// 10,000 resources listed: only the visible rows are rendered.
func BenchmarkView10kResources(b *testing.B) {
	m := tenThousandResources(b)
	b.ReportAllocs()
	for b.Loop() {
		_ = m.View()
	}
}

// BenchmarkMove10kResources measures a cursor move on the resources tab
// (Update and View).
func BenchmarkMove10kResources(b *testing.B) {
	m := tenThousandResources(b)
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
