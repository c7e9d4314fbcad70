package ui

import (
	"encoding/json"
	"fmt"
	"mcpwitness/ui/panes"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"mcpwitness/paging"
	"mcpwitness/record"
)

// wideResource is a session with one resource, demo://wide.json, read
// once: its contents are JSON whose "rows" line is far wider than any
// pane (CJK and emoji among it, wideEnd at its end), beside a line of
// prose in the resource's description that wraps.
func wideResource() []record.Event {
	b := &evs{}
	con := b.connect()
	con.Server.Capabilities = []byte(`{"tools":{},"resources":{}}`)
	m, uri := paging.Resources().Name, "demo://wide.json"
	item := fmt.Sprintf(`{"uri":%q,"name":"wide","mimeType":"application/json","description":%q}`, uri,
		strings.Repeat("A resource whose contents are wider than the pane. ", 4))
	p := paging.Page{Number: 1, Count: 1, Ms: 4, Generation: 1}
	text, _ := json.Marshal(fmt.Sprintf(`{"title":"天気 report 🌦","rows":%q,"pages":2}`, strings.Repeat("晴れ sunny ☀ ", 30)+wideEnd))
	done := &record.RequestInfo{ID: 1, Method: record.MethodRead, About: uri, State: record.PhaseDone, Sent: true, Ms: 3,
		Result: json.RawMessage(fmt.Sprintf(`{"contents":[{"uri":%q,"mimeType":"application/json","text":%s}]}`, uri, text))}
	return []record.Event{con,
		b.ev(record.Event{Kind: record.KindWalk, Method: m, Walk: &record.WalkInfo{ID: 1, Method: m, State: record.PhaseStart}}),
		b.ev(record.Event{Kind: record.KindPage, Method: m, Page: &p, Items: []json.RawMessage{json.RawMessage(item)},
			Walk: &record.WalkInfo{ID: 1, Method: m, State: record.PhasePage}}),
		b.ev(record.Event{Kind: record.KindWalk, Method: m, Walk: &record.WalkInfo{ID: 1, Method: m, State: record.PhaseDone, Pages: 1, Items: 1, Ms: 5}}),
		b.ev(record.Event{Kind: record.KindRequest, Method: record.MethodRead,
			Request: &record.RequestInfo{ID: 1, Method: record.MethodRead, About: uri, State: record.PhaseStart}}),
		b.ev(record.Event{Kind: record.KindRequest, Method: record.MethodRead, Request: done}),
	}
}

// wideItemHarness shows wideResource's resource in the focused item pane
// at w×h.
func wideItemHarness(t *testing.T, w, h int) *harness {
	t.Helper()
	hs := newHarness(t, options{Backend: &fakeBackend{}})
	hs.feed(wideResource()...)
	hs.update(tea.WindowSizeMsg{Width: w, Height: h})
	hs.key("2")
	for hs.m.focus != paneDetail {
		hs.key("tab")
	}
	if r := hs.m.item.Latest(); r == nil || !r.Done {
		t.Fatalf("the read is not shown:\n%s", hs.screen())
	}
	return hs
}

// The resource's contents keep their JSON lines whole and scroll sideways
// as the detail pane's do: h/l and ←/→, a horizontal wheel over the pane,
// the title marking more to either side; prose still wraps.
func TestItemJSONScrollsSideways(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {200, 60}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			h := wideItemHarness(t, size[0], size[1])
			sc := &h.m.item.Sc
			wide := -1
			for i, l := range sc.Lines {
				s := ansi.Strip(l)
				if strings.Contains(s, `"rows": "晴れ sunny`) && strings.HasSuffix(s, wideEnd+`",`) {
					wide = i
				}
				if ansi.StringWidth(l) > sc.W && !strings.Contains(s, `"`) {
					t.Errorf("a line of prose is wider than the pane (%d): %q", sc.W, s)
				}
			}
			if wide < 0 {
				t.Fatalf("the contents' wide line is not whole:\n%s", ansi.Strip(strings.Join(sc.Lines, "\n")))
			}
			if sc.Widest != panes.MeasureLines(sc.Lines) || sc.Widest <= sc.W {
				t.Fatalf("the widest line is %d cells (measured %d) in a pane of %d", sc.Widest, panes.MeasureLines(sc.Lines), sc.W)
			}
			sc.Off = wide - 2
			h.update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			lines := h.detailLines()
			checkFits(t, h.m.View().Content, size[0], size[1])
			if !strings.Contains(lines[0], "Resource more →") || strings.Contains(lines[0], "← col") {
				t.Errorf("the title does not mark more to the right only: %q", lines[0])
			}
			if strings.Contains(strings.Join(lines, "\n"), wideEnd) {
				t.Fatalf("the end of the wide line shows before scrolling:\n%s", strings.Join(lines, "\n"))
			}
			if help := ansi.Strip(h.m.helpLine()); !strings.Contains(help, "h/l scroll sideways") {
				t.Errorf("the help line does not offer h/l: %q", help)
			}
			for range 80 {
				h.key("l")
			}
			lines = h.detailLines()
			checkFits(t, h.m.View().Content, size[0], size[1])
			if !strings.Contains(strings.Join(lines, "\n"), wideEnd) {
				t.Errorf("l does not bring the end of the wide line into view:\n%s", strings.Join(lines, "\n"))
			}
			if !strings.Contains(lines[0], "← col ") || strings.HasSuffix(strings.TrimSpace(lines[0]), "→") {
				t.Errorf("at the right end the title does not mark more to the left only: %q", lines[0])
			}
			if sc.X != sc.Widest-sc.W {
				t.Errorf("l stopped at column %d, want %d", sc.X, sc.Widest-sc.W)
			}
			x := sc.X
			h.key("h")
			h.key("left")
			h.key("right")
			if sc.X != x-panes.ScrollStep {
				t.Errorf("h, ← and → moved the window to column %d, want %d", sc.X, x-panes.ScrollStep)
			}
			l := h.m.lay
			px := l.leftW + 5
			if l.stacked {
				px = 5
			}
			h.update(tea.MouseWheelMsg{X: px, Y: l.bodyTop + 3, Button: tea.MouseWheelLeft})
			if sc.X != x-2*panes.ScrollStep {
				t.Errorf("a wheel to the left over the pane moved it to column %d, want %d", sc.X, x-2*panes.ScrollStep)
			}
			if !l.stacked {
				h.update(tea.MouseWheelMsg{X: 3, Y: l.bodyTop + 3, Button: tea.MouseWheelRight})
				if sc.X != x-2*panes.ScrollStep {
					t.Errorf("a wheel over the list moved the pane sideways to column %d", sc.X)
				}
			}
			// Narrower, the window stays within the widest line; another
			// item starts at the left edge.
			h.update(tea.WindowSizeMsg{Width: size[0] + 40, Height: size[1]})
			if sc.X > sc.Widest-sc.W {
				t.Errorf("after a resize the window starts at column %d, past %d", sc.X, sc.Widest-sc.W)
			}
			h.m.item.Show(nil, false)
			h.m.item.Sync()
			if sc.X != 0 {
				t.Errorf("with nothing shown the window starts at column %d", sc.X)
			}
		})
	}
}

// In a replay ← and → are the scrubber's; h and l scroll the item's
// document sideways.
func TestItemScrollsSidewaysInAReplay(t *testing.T) {
	evs := wideResource()
	last := evs[len(evs)-1]
	h := replayHarness(t, writeSession(t, "wide.jsonl", append(evs, record.Event{Seq: last.Seq + 1, T: last.T.Add(1e6),
		Kind: record.KindStderr, Text: "done"})), 80, 24, "dark")
	h.key("2")
	for h.m.focus != paneDetail {
		h.key("tab")
	}
	h.settle()
	pos := h.position()
	h.key("l")
	h.settle()
	if h.m.item.Sc.X != panes.ScrollStep || h.position() != pos {
		t.Errorf("l in a replay: column %d at %s, want %d at %s", h.m.item.Sc.X, h.position(), panes.ScrollStep, pos)
	}
	h.press("left")
	if h.position() == pos {
		t.Errorf("← in a replay did not step the scrubber back from %s", pos)
	}
}

func TestItemScrollGolden(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {200, 60}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			h := wideItemHarness(t, size[0], size[1])
			scrollTo(h.m, &h.m.item.Sc, "demo://wide.json  application/json")
			h.key("l")
			view := h.m.View().Content
			checkFits(t, view, size[0], size[1])
			golden.RequireEqual(t, ansi.Strip(view))
		})
	}
}

// The wire pane's frame keeps its JSON lines whole and scrolls sideways
// too, on h/l while the frame has the keys and with a horizontal wheel
// over it; its title marks more to either side.
func TestFrameJSONScrollsSideways(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {200, 60}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			h := newHarness(t, options{Backend: &fakeBackend{}})
			b := &evs{}
			text, _ := json.Marshal(strings.Repeat("天気 sunny ☀ ", 30) + wideEnd)
			frame := `{"jsonrpc":"2.0","id":"7","result":{"content":[{"type":"text","text":` + string(text) + `}]}}`
			h.feed(b.connect(), b.ev(record.Event{Kind: record.KindWire, Dir: record.Recv, ID: "7", Size: len(frame), Frame: json.RawMessage(frame)}))
			h.update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			h.key("w")
			for !h.m.wire.OnFrame {
				h.key("tab")
			}
			sc := &h.m.wire.Frame
			if sc.Widest <= sc.W || !strings.Contains(ansi.Strip(strings.Join(sc.Lines, "\n")), wideEnd+`"`) {
				t.Fatalf("the frame's wide line is not whole (widest %d, pane %d):\n%s", sc.Widest, sc.W, ansi.Strip(strings.Join(sc.Lines, "\n")))
			}
			for i, l := range sc.Lines {
				if strings.Contains(l, wideEnd) {
					sc.Off = i
				}
			}
			title := func() string {
				for _, l := range strings.Split(h.screen(), "\n") {
					if strings.HasPrefix(l, "Frame") {
						return l
					}
				}
				t.Fatalf("no frame title:\n%s", h.screen())
				return ""
			}
			if s := title(); !strings.Contains(s, "Frame more →") {
				t.Errorf("the frame's title does not mark more to the right: %q", s)
			}
			if strings.Contains(h.screen(), wideEnd) {
				t.Fatalf("the end of the wide line shows before scrolling:\n%s", h.screen())
			}
			for range 80 {
				h.key("l")
			}
			checkFits(t, h.m.View().Content, size[0], size[1])
			if !strings.Contains(h.screen(), wideEnd) || sc.X != sc.Widest-sc.W {
				t.Errorf("l does not bring the end into view (column %d of %d):\n%s", sc.X, sc.Widest-sc.W, h.screen())
			}
			if s := title(); !strings.Contains(s, "Frame ← col ") {
				t.Errorf("the frame's title does not mark more to the left: %q", s)
			}
			x := sc.X
			h.update(tea.MouseWheelMsg{X: 5, Y: h.m.lay.bodyTop + h.m.lay.bodyH - 2, Button: tea.MouseWheelLeft})
			if sc.X != x-panes.ScrollStep {
				t.Errorf("a wheel to the left over the frame moved it to column %d, want %d", sc.X, x-panes.ScrollStep)
			}
			h.update(tea.MouseWheelMsg{X: 5, Y: h.m.lay.bodyTop + 1, Button: tea.MouseWheelLeft})
			if sc.X != x-panes.ScrollStep {
				t.Errorf("a wheel over the list moved the frame to column %d", sc.X)
			}
		})
	}
}

// buildItem builds the item's document for k, as Sync's command would.
func buildItem(m *model, k panes.ItemKey) ([]string, int) {
	build, _ := m.item.Builder(k)
	return build()
}

// buildItemNow builds the item's document Sync left to a command, as
// the command would, and gives it to the model.
func buildItemNow(m *model) {
	if k := m.item.Builds.Pending; k != (panes.ItemKey{}) {
		lines, widest := buildItem(m, k)
		m.Update(panes.ItemBuiltMsg{Key: k, Lines: lines, Widest: widest})
	}
}

// wideItemModel is a model at 120×40 showing, in the focused item pane, a
// read of a JSON resource of n rows of width cells each.
func wideItemModel(b *testing.B, n, width int) *model {
	b.Helper()
	m := newModel(options{Theme: "dark", Now: func() time.Time { return t0 }, Loc: time.UTC, Backend: &fakeBackend{}})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	rows := make([]string, n)
	for i := range rows {
		rows[i] = fmt.Sprintf("%q", strings.Repeat("x", width))
	}
	evs := resourceReading("application/json", `{"rows":[`+strings.Join(rows, ",")+`]}`)
	for _, ev := range evs {
		m.Update(eventMsg(ev))
	}
	m.Update(keyMsg("2"))
	m.Update(keyMsg("tab"))
	buildItemNow(m)
	if m.focus != paneDetail || m.item.Sc.Widest < width {
		b.Fatalf("focus %v, widest %d", m.focus, m.item.Sc.Widest)
	}
	return m
}

// BenchmarkItemSideways measures a sideways key (Update and View) on a
// resource's document of 200 JSON lines 300 cells wide.
func BenchmarkItemSideways(b *testing.B) {
	m := wideItemModel(b, 200, 300)
	l, h := keyMsg("l"), keyMsg("h")
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if i%2 == 0 {
			m.Update(l)
		} else {
			m.Update(h)
		}
		_ = m.View()
		i++
	}
}

// BenchmarkItemBuildWide measures building that document again, as Sync
// does when the read changes, with the measure of its widest line;
// BenchmarkItemMeasureWide the measure alone, its share of the build.
func BenchmarkItemBuildWide(b *testing.B) {
	m := wideItemModel(b, 200, 300)
	b.ReportAllocs()
	for b.Loop() {
		m.item.Builds.Built = panes.ItemKey{}
		m.item.Sync()
		buildItemNow(m)
	}
}

func BenchmarkItemMeasureWide(b *testing.B) {
	m := wideItemModel(b, 200, 300)
	lines := m.item.Sc.Lines
	b.ReportAllocs()
	for b.Loop() {
		_ = panes.MeasureLines(lines)
	}
}
