package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"mcpwitness/ui/panes"
)

// topBottom presses g, G, home and end and checks that G and end reach
// the same place past where g and home do, as pos tells it.
func (h *harness) topBottom(what string, pos func() int64) {
	h.t.Helper()
	h.key("g")
	top := pos()
	h.key("G")
	bottom := pos()
	if bottom <= top {
		h.t.Errorf("%s: G does not move past g (%d, %d):\n%s", what, top, bottom, h.screen())
		return
	}
	h.key("home")
	if got := pos(); got != top {
		h.t.Errorf("%s: home goes to %d, g to %d", what, got, top)
	}
	h.key("end")
	if got := pos(); got != bottom {
		h.t.Errorf("%s: end goes to %d, G to %d", what, got, bottom)
	}
}

// The moving keys the full help lists (g/home, G/end) move every list and
// scrolled view they can: each list tab, the documents, the events, the
// wire's frames and the frame shown, and the help itself.
func TestTopAndBottomMoveEveryPane(t *testing.T) {
	h, _ := demoHarness(t)
	h.update(tea.WindowSizeMsg{Width: 100, Height: 30})

	h.topBottom("tools", func() int64 { return int64(h.m.tools.Cursor) })
	h.m.setFocus(paneDetail)
	h.topBottom("the tool's document", func() int64 { return int64(h.m.detail.sc.Off) })
	for _, tb := range []struct {
		key string
		t   tab
	}{{"2", tabResources}, {"3", tabTemplates}, {"4", tabPrompts}} {
		h.key(tb.key)
		p := &h.m.items[tb.t.item()]
		h.topBottom(tb.t.method().Name, func() int64 { return int64(p.Cursor) })
	}
	h.selectItem("2", "changelog", "demo://changelog")
	h.key("enter")
	h.until("the read", func() bool { return h.m.ops.request == nil && h.m.item.Sc.More() || h.m.item.Sc.Off > 0 })
	h.m.setFocus(paneDetail)
	h.topBottom("the read's document", func() int64 { return int64(h.m.item.Sc.Off) })

	h.key("1")
	h.m.setFocus(paneEvents)
	h.topBottom("events", func() int64 { return h.m.events.List.Cursor })
	h.key("w")
	h.topBottom("wire frames", func() int64 { return h.m.wire.List.Cursor })
	// A page of tools is a long frame.
	h.key("g")
	for i := 0; i < 200 && h.m.wire.Selected() != nil && len(h.m.wire.Selected().Frame) < 2000; i++ {
		h.key("j")
	}
	if f := h.m.wire.Selected(); f == nil || len(f.Frame) < 2000 {
		t.Fatalf("no long frame on the wire: %v", f)
	}
	h.m.setFocus(paneFrame)
	h.until("the frame", func() bool { return h.m.wire.Building == (panes.FrameKey{}) && h.m.wire.Frame.More() })
	h.topBottom("the frame", func() int64 { return int64(h.m.wire.Frame.Off) })
	h.key("w")

	h.key("?")
	h.topBottom("help", func() int64 { return int64(h.m.helpView.Sc.Off) })
}
