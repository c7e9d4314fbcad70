package ui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"mcpwitness/fold"
	"mcpwitness/record"
)

// copyModel is a model on a fake backend, its status timers done at once.
func copyModel(t *testing.T) *model {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m := newModel(options{Ctx: ctx, Theme: "dark", Now: func() time.Time { return t0 }, Loc: time.UTC, Backend: &fakeBackend{}})
	m.Update(tea.WindowSizeMsg{Width: 110, Height: 30})
	return m
}

// hostile holds what pasted into a terminal acts: OSC 52, a carriage
// return that hides the line before it, a bell, a right-to-left override.
const hostile = "run \x1b]52;c;cm0gLXJmIH4K\x07safe\rls\u202e"

func assertNoControls(t *testing.T, what, text string) {
	t.Helper()
	if strings.ContainsAny(text, "\x1b\r\a\u202e") {
		t.Errorf("%s: copied %q, with controls raw", what, text)
	}
	if !strings.Contains(text, "␛]52;c;cm0gLXJmIH4K") {
		t.Errorf("%s: copied %q, without the controls shown visibly", what, text)
	}
}

func TestYCopiesWhatAServerSentWithItsControlsVisible(t *testing.T) {
	t.Parallel()
	m := copyModel(t)
	b := &evs{}
	raw, _ := json.Marshal(hostile)
	// A description as raw bytes (not JSON escapes), as a lenient reader
	// keeps it, and the same text in a name decoded from JSON.
	def := tool("evil", `"description":"`+hostile+`"`)
	for _, ev := range []record.Event{b.connect(), b.walkStart(1), b.page(1, 1, 1, "", def), b.walkDone(1, 1, 1, 1, ""),
		b.ev(record.Event{Kind: record.KindStderr, Text: hostile}),
		b.ev(record.Event{Kind: record.KindWire, Dir: record.Recv, ID: "9", Size: len(raw), Frame: json.RawMessage(`{"jsonrpc":"2.0","id":9,"result":{"x":"` + hostile + `"}}`)})} {
		m.Update(eventMsg(ev))
	}
	if m.tools.Selected() == nil {
		t.Fatal("no tool listed")
	}
	_, cmd := m.Update(keyMsg("y"))
	text, ok := clipboard(t, cmd)
	if !ok {
		t.Fatalf("y set no clipboard: %q", m.status.text)
	}
	assertNoControls(t, "the tool", text)
	if !strings.Contains(m.status.text, "controls shown visibly") {
		t.Errorf("status %q does not say the controls were made visible", m.status.text)
	}

	selectEvent(t, m, func(r *fold.Row) bool { return r.Kind == fold.RowStderr })
	_, cmd = m.Update(keyMsg("y"))
	text, _ = clipboard(t, cmd)
	assertNoControls(t, "the stderr line", text)

	m.Update(keyMsg("w"))
	_, cmd = m.Update(keyMsg("y"))
	text, _ = clipboard(t, cmd)
	assertNoControls(t, "the frame (y)", text)

	// Y in the wire pane copies the frame as sent, and says so.
	_, cmd = m.Update(keyMsg("Y"))
	text, ok = clipboard(t, cmd)
	if !ok || !strings.Contains(text, hostile) {
		t.Errorf("Y copied %q (%v), want the frame raw", text, ok)
	}
	if !strings.Contains(m.status.text, "raw frame") || !strings.Contains(m.status.text, "controls included") {
		t.Errorf("status %q does not say the copy is raw", m.status.text)
	}
}
