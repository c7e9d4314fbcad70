package ui

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"mcpwitness/record"
)

// bigCallModel is a model at 110×30 whose session made one call of the
// tool "big", answered with a text of n bytes ending in "the end".
func bigCallModel(t testing.TB, n int) *model {
	t.Helper()
	m := newModel(options{Theme: "dark", Now: func() time.Time { return t0 }, Loc: time.UTC, Backend: &fakeBackend{}})
	m.Update(tea.WindowSizeMsg{Width: 110, Height: 30})
	b := &evs{}
	text, _ := json.Marshal(strings.Repeat("x", n) + " the end")
	for _, ev := range []record.Event{b.connect(), b.walkStart(1), b.page(1, 1, 1, "", tool("big", "")), b.walkDone(1, 1, 1, 1, ""),
		b.ev(record.Event{Kind: record.KindCall, Call: &record.CallInfo{ID: 1, Tool: "big", State: record.PhaseStart,
			Args: json.RawMessage(`{}`), Listed: true, Generation: 1}}),
		b.ev(record.Event{Kind: record.KindCall, Call: &record.CallInfo{ID: 1, Tool: "big", State: record.PhaseDone, Sent: true,
			Listed: true, Ms: 3, Result: json.RawMessage(`{"content":[{"type":"text","text":` + string(text) + `}]}`)}}),
	} {
		m.Update(eventMsg(ev))
	}
	return m
}

// buildWholeNow builds the event's document Sync left to a command, as
// the command would, and gives it to the model.
func buildWholeNow(m *model) {
	if k := m.whole.builds.Pending; k != (wholeKey{}) {
		build, _ := wholeBuilder(m.whole.row, m.whole.x, k, m.Loc)
		lines, widest := build()
		m.Update(wholeBuiltMsg{key: k, lines: lines, widest: widest})
	}
}

// A call whose answer is big, opened whole from the events pane: its
// document is built in a command; the view says so until it comes, and
// keeps it while a resize builds it again.
func TestBigCallOpenedWholeIsBuiltOffTheLoop(t *testing.T) {
	m := bigCallModel(t, 200<<10)
	selectEvent(t, m, isCall("big"))
	m.Update(keyMsg("enter"))
	if !m.whole.Shown() || m.whole.builds.Pending == (wholeKey{}) {
		t.Fatalf("whole shown %v, pending %+v: the big call's document was not left to a command", m.whole.Shown(), m.whole.builds.Pending)
	}
	if s := ansi.Strip(m.View().Content); !strings.Contains(s, "rendering…") {
		t.Errorf("while the document is built the view does not say so:\n%s", s)
	}
	buildWholeNow(m)
	doc := func() string { return ansi.Strip(strings.Join(m.whole.sc.Lines, "\n")) }
	if d := doc(); !strings.Contains(d, "the end") || m.whole.builds.Pending != (wholeKey{}) {
		t.Fatalf("the built document is not shown:\n%.2000s", d)
	}
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	if m.whole.builds.Pending == (wholeKey{}) || !strings.Contains(doc(), "the end") {
		t.Fatalf("a resize: pending %+v; the document shown:\n%.2000s", m.whole.builds.Pending, doc())
	}
	m.Update(keyMsg("esc"))
	if m.whole.Shown() || m.whole.builds.Pending != (wholeKey{}) {
		t.Fatalf("closed: shown %v, pending %+v", m.whole.Shown(), m.whole.builds.Pending)
	}

	small := bigCallModel(t, 100)
	selectEvent(t, small, isCall("big"))
	small.Update(keyMsg("enter"))
	if small.whole.builds.Pending != (wholeKey{}) || !strings.Contains(ansi.Strip(strings.Join(small.whole.sc.Lines, "\n")), "the end") {
		t.Fatal("a small call's document is not built at once")
	}
}

// BenchmarkWholeBigCall measures the UI loop's share of opening whole a
// call answered with 4 MiB: the Update of the key (the document is built
// in a command).
func BenchmarkWholeBigCall(b *testing.B) {
	for b.Loop() {
		b.StopTimer()
		m := bigCallModel(b, 4<<20)
		for m.focus != paneEvents {
			m.Update(keyMsg("tab"))
		}
		for r := m.events.SelectedRow(); r == nil || !isCall("big")(r); r = m.events.SelectedRow() {
			m.Update(keyMsg("k"))
		}
		b.StartTimer()
		m.Update(keyMsg("enter"))
	}
}
