package ui

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"mcpwitness/fold"
	"mcpwitness/internal/hostiletest"
	"mcpwitness/record"
	"mcpwitness/sanitize"
	"mcpwitness/session"

	"mcpwitness/ui/panes"
)

// sgr is the only escape sequence our own styles write: select graphic
// rendition.
var sgr = regexp.MustCompile(`^\x1b\[[0-9;:]*m`)

// checkSafe fails when the view holds anything a server could have put
// there to take over the terminal: an escape sequence other than our own
// styling, a C0 control other than the newline, a C1 control or DEL, a
// bidi or zero-width character, or invalid UTF-8.
func checkSafe(t *testing.T, where, view string) {
	t.Helper()
	if !utf8.ValidString(view) {
		t.Errorf("%s: the view is not valid UTF-8", where)
	}
	for i, r := range view {
		bad := ""
		switch {
		case r == 0x1b:
			if !sgr.MatchString(view[i:]) {
				bad = "an escape sequence that is not styling"
			}
		case r < 0x20 && r != '\n', r == 0x7f, r >= 0x80 && r <= 0x9f:
			bad = fmt.Sprintf("control character %U", r)
		case sanitize.Invisible(r):
			bad = fmt.Sprintf("invisible character %U", r)
		}
		if bad != "" {
			t.Fatalf("%s: the view holds %s at byte %d: %q", where, bad, i, view[max(i-40, 0):min(i+40, len(view))])
		}
	}
}

// checkView checks the model's whole view and its window title.
func (h *harness) checkView(where string) {
	h.t.Helper()
	v := h.m.View()
	checkSafe(h.t, where, v.Content)
	if v.WindowTitle != "mcpwitness" {
		h.t.Fatalf("%s: window title %q, want the fixed \"mcpwitness\"", where, v.WindowTitle)
	}
}

// hostileHarness dials the hostile server in mode over stdio and opens the
// UI on it in the mono theme, at w×h, and waits for the first walk.
func hostileHarness(t *testing.T, mode string, w, hgt int) (*harness, *session.Session, *recorded) {
	t.Helper()
	bin := hostiletest.Build(t)
	log := record.NewLog(nil)
	rec := &recorded{}
	log.AddSink(rec.add)
	// Subscribed before the dial, so the stderr lines and the connect
	// event written while it runs reach the UI too.
	sub := log.Subscribe()
	t.Cleanup(sub.Close)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := hostiletest.Command(bin, mode)
	s, err := session.Dial(ctx, session.Target{Command: cmd.Args}, &session.Options{Log: log, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	h := newHarness(t, options{Backend: s, Theme: "mono"})
	h.update(tea.WindowSizeMsg{Width: w, Height: hgt})
	go func() {
		for ev := range sub.C() {
			select {
			case h.msgs <- eventMsg(ev):
			case <-h.done:
				return
			}
		}
	}()
	h.until("the first walk", func() bool {
		w := h.m.St.LatestTools()
		return w != nil && w.Done && !h.m.ops.walking()
	})
	return h, s, rec
}

// recorded keeps the events a log sends its sinks.
type recorded struct {
	mu  sync.Mutex
	evs []record.Event
}

func (r *recorded) add(ev record.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.evs = append(r.evs, ev)
}

func (r *recorded) events() []record.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]record.Event(nil), r.evs...)
}

// TestServerStringsNeverReachTheTerminal drives every screen that shows
// server text with a server whose every string holds escape sequences,
// controls, bidi and zero-width characters, and checks each view.
func TestServerStringsNeverReachTheTerminal(t *testing.T) {
	h, s, rec := hostileHarness(t, hostiletest.ModeEvilStrings, 160, 60)
	h.until("every stderr line", func() bool {
		n := 0
		for i := 0; i < h.m.St.Rows().Len(); i++ {
			if h.m.St.Rows().At(i).Kind == fold.RowStderr {
				n++
			}
		}
		return n >= 12
	})
	h.checkView("after the walk")
	// The stderr lines may come before the connection's rows or after
	// them: scroll the events pane from its top to the instructions.
	h.m.setFocus(paneEvents)
	h.key("g")
	const shown = "instructions: instructions [␛[2J"
	for i := 0; i < h.m.St.Rows().Len() && !strings.Contains(h.screen(), shown); i++ {
		h.key("j")
	}
	if !strings.Contains(h.screen(), shown) {
		t.Errorf("the server's instructions are not shown:\n%s", h.screen())
	}
	h.checkView("the events pane at the instructions")
	h.m.setFocus(paneTools)
	if !strings.Contains(h.screen(), "␛") {
		t.Errorf("escape characters are not shown visibly:\n%s", h.screen())
	}

	tools := h.m.St.Shown().Tools
	if len(tools) != 14 {
		t.Fatalf("the walk listed %d tools, want 14", len(tools))
	}
	// Every tool's row and detail, the detail scrolled to its end.
	for i := range tools {
		h.checkView(fmt.Sprintf("tool %d", i))
		h.key("tab")
		h.key("end")
		h.checkView(fmt.Sprintf("tool %d, detail at its end", i))
		h.key("shift+tab")
		h.key("down")
	}

	// The editor of a tool whose argument description is hostile, then a
	// call with a result, an isError answer and a JSON-RPC error.
	for _, i := range []int{0, 12, 13} {
		h.key("home")
		for range i {
			h.key("down")
		}
		name := tools[i].Name
		if sel := h.m.tools.Selected(); sel == nil || sel.Name != name {
			t.Fatalf("selected %v, want tool %d", sel, i)
		}
		h.key("enter")
		h.checkView(fmt.Sprintf("the editor of tool %d", i))
		h.key("ctrl+s")
		h.until(fmt.Sprintf("the call to tool %d", i), func() bool {
			c := h.m.detail.Call()
			return h.m.ops.call == nil && c != nil && c.Tool == name && c.Done
		})
		h.checkView(fmt.Sprintf("the call to tool %d", i))
		h.key("tab")
		for range 20 {
			h.key("pgdown")
			h.checkView(fmt.Sprintf("the call to tool %d, scrolled", i))
		}
		h.key("shift+tab")
	}

	// The events pane, scrolled through.
	h.key("tab")
	h.key("tab")
	h.key("home")
	for range h.m.St.Rows().Len() {
		h.checkView("the events pane")
		h.key("down")
	}

	// The wire pane, every frame and its preview.
	h.key("w")
	h.key("home")
	for i := range h.m.St.Frames().Len() {
		h.until("the frame's preview", func() bool { return h.m.wire.Building == (panes.FrameKey{}) })
		h.checkView(fmt.Sprintf("wire frame %d", i))
		h.key("down")
	}
	h.key("w")
	h.key("?")
	h.checkView("help")
	h.key("?")

	// The server's end.
	s.Close()
	h.until("the closed event", func() bool { return h.m.St.Closed() })
	h.checkView("after the server exited")

	// A recorded session holds the raw bytes: its replay is shown clean.
	path := writeSession(t, "evil\x1b]0;title\x07.jsonl", rec.events())
	r := replayHarness(t, path, 160, 60, "mono")
	r.checkView("the replay")
	for range 40 {
		r.press(">")
		r.checkView("the replay, a moment on")
	}
}

// evilText holds each sequence a hostile server may send.
const evilText = "[\x1b[2J\x1b[H|\x1b]52;c;ZXZpbA==\x07|\x1b]0;owned\x07|\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\|\u009b31m|\rOVER|abc\b\b|\u202eevil\u202c|zero\u200bwidth|bad\xffutf8]"

// TestDialErrorShownSafely shows a failed connection whose error quotes
// what the server wrote.
func TestDialErrorShownSafely(t *testing.T) {
	h := newHarness(t, options{Theme: "mono", Dial: func(context.Context) (Backend, error) {
		return nil, errors.New("the server exited: " + evilText + "\nsecond line " + evilText)
	}})
	h.until("the failed dial", func() bool { return h.m.dialErr != nil })
	h.checkView("the failed connection")
	if s := h.screen(); !strings.Contains(s, "second line") {
		t.Errorf("the error is not shown whole:\n%s", s)
	}
}
