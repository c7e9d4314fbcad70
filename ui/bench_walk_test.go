package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mcpwitness/ui/panes"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"mcpwitness/paging"
	"mcpwitness/record"
)

// liveWalk is a walk of pages×size tools as a live session delivers it to
// the UI: each page asked for (a list request), its frames sent and
// received (the answer holding the page's tools), and the page accepted.
func liveWalk(b *evs, pages, size int) []record.Event {
	out := []record.Event{b.walkStart(1)}
	for n := 1; n <= pages; n++ {
		items := tools("tool_", (n-1)*size+1, size)
		id := fmt.Sprint(n + 1)
		out = append(out, b.ev(record.Event{Kind: record.KindListRequest, Method: "tools/list", Gen: int64(n - 1), Out: 1,
			Walk: &record.WalkInfo{ID: 1, Method: "tools/list", State: record.PhaseRequest}, Page: &paging.Page{Number: n}}))
		req := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/list","params":{"cursor":"%d"}}`, id, n)
		out = append(out, b.ev(record.Event{Kind: record.KindWire, Dir: record.Send, Method: "tools/list", ID: id,
			Frame: json.RawMessage(req), Size: len(req)}))
		next := ""
		if n < pages {
			next = fmt.Sprint(n)
		}
		ans := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"tools":[%s],"nextCursor":%q}}`, id, bytes.Join(rawBytes(items), []byte(",")), next)
		out = append(out, b.ev(record.Event{Kind: record.KindWire, Dir: record.Recv, ID: id, Frame: json.RawMessage(ans),
			Size: len(ans), LatencyMs: 3}))
		out = append(out, b.page(1, n, int64(n), next, items...))
	}
	return append(out, b.walkDone(1, pages, pages*size, int64(pages), ""))
}

func rawBytes(rs []json.RawMessage) [][]byte {
	out := make([][]byte, len(rs))
	for i, r := range rs {
		out[i] = r
	}
	return out
}

// BenchmarkLiveWalk10k measures the UI's own share of a walk of 10,000
// tools in 100 pages: every event of the walk goes through Update, each
// followed by a frame (View), as the program does with each message.
func BenchmarkLiveWalk10k(b *testing.B) {
	e := &evs{}
	con := e.connect()
	walk := liveWalk(e, 100, 100)
	b.ReportAllocs()
	for b.Loop() {
		m := newModel(options{Theme: "dark", Now: func() time.Time { return t0 }, Loc: time.UTC, Backend: &fakeBackend{}})
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		m.Update(eventMsg(con))
		_ = m.View()
		for _, ev := range walk {
			m.Update(eventMsg(ev))
			_ = m.View()
		}
		if n := len(m.St.LatestTools().Tools); n != 10000 {
			b.Fatalf("%d tools", n)
		}
	}
}

// What Predraw drew and View hands out is what a fresh draw gives, after
// every event of a walk and every key that moves, focuses, filters or
// restyles: the keys the drawings are kept by miss nothing.
func TestPredrawnPanesMatchAFreshDraw(t *testing.T) {
	h := newHarness(t, options{Backend: &fakeBackend{}})
	h.update(tea.WindowSizeMsg{Width: 100, Height: 30})
	e := &evs{}
	check := func(what string) {
		t.Helper()
		if got, want := h.m.tools.View(), h.m.tools.Draw(); got != want {
			t.Fatalf("after %s the tools pane shows\n%s\nnot\n%s", what, got, want)
		}
		for i, sc := range []*panes.Scroller{&h.m.detail.sc, &h.m.item.Sc, &h.m.wire.Frame} {
			if got, want := sc.View(), sc.Draw(); got != want {
				t.Fatalf("after %s scroller %d shows\n%s\nnot\n%s", what, i, got, want)
			}
		}
		if d := &h.m.detail; d.headDrawn != "" && d.headDrawn != d.drawHead(d.headKey()) {
			t.Fatalf("after %s the detail's title is %q, not %q", what, d.headDrawn, d.drawHead(d.headKey()))
		}
		if got, want := h.m.events.View(), h.m.events.Draw(); got != want {
			t.Fatalf("after %s the events pane shows\n%s\nnot\n%s", what, got, want)
		}
		if got, want := h.m.drawn.header, h.m.drawHeader(); got != want {
			t.Fatalf("after %s the header is\n%s\nnot\n%s", what, got, want)
		}
	}
	h.feed(e.connect())
	check("connect")
	for i, ev := range liveWalk(e, 6, 10) {
		h.feed(ev)
		check(fmt.Sprintf("event %d (%s)", i, ev.Kind))
	}
	for _, k := range []string{"down", "down", "G", "g", "pgdown", "tab", "j", "j", "G", "tab", "tab", "t", "down", "/", "t", "o", "o", "l", "_", "0", "0", "5", "enter", "esc", "t", "w", "j", "tab", "G", "w"} {
		h.key(k)
		h.drain()
		check("key " + k)
	}
	h.feed(e.walkStart(2))
	check("a second walk")
	h.m.setFocus(paneEvents)
	for _, k := range []string{"k", "k", "v", "v", "v", "v", "v", "G", "t"} {
		h.key(k)
		check("events key " + k)
	}
}

// The resources tab as Predraw drew it follows what its badges read from
// outside the rows: a subscription, an update the server announced, a
// read after it.
func TestPredrawnItemsFollowTheirBadges(t *testing.T) {
	h := newHarness(t, options{Backend: &fakeBackend{}})
	b := &evs{}
	con := b.connect()
	con.Server.Capabilities = []byte(`{"tools":{},"resources":{"subscribe":true}}`)
	h.feed(con)
	m, uri := paging.Resources().Name, "file:///a"
	p := paging.Page{Number: 1, Count: 2, Generation: 1}
	h.feed(b.ev(record.Event{Kind: record.KindWalk, Method: m, Walk: &record.WalkInfo{ID: 1, Method: m, State: record.PhaseStart}}),
		b.ev(record.Event{Kind: record.KindPage, Method: m, Page: &p, Items: []json.RawMessage{json.RawMessage(`{"uri":"file:///a","name":"a"}`),
			json.RawMessage(`{"uri":"file:///b","name":"b"}`)}, Walk: &record.WalkInfo{ID: 1, Method: m, State: record.PhasePage}}),
		b.ev(record.Event{Kind: record.KindWalk, Method: m, Walk: &record.WalkInfo{ID: 1, Method: m, State: record.PhaseDone, Pages: 1, Items: 2}}))
	h.key("2")
	pane := &h.m.items[tabResources.item()]
	check := func(what, want string) {
		t.Helper()
		if got, fresh := pane.View(), pane.draw(); got != fresh {
			t.Fatalf("after %s the resources pane shows\n%s\nnot\n%s", what, got, fresh)
		}
		if want != "" && !strings.Contains(ansi.Strip(pane.View()), want) {
			t.Fatalf("after %s no %q in\n%s", what, want, ansi.Strip(pane.View()))
		}
	}
	check("the walk", "")
	req := func(id int64, method string, state record.Phase) record.Event {
		info := &record.RequestInfo{ID: id, Method: method, About: uri, State: state}
		if state == record.PhaseDone {
			info.Sent, info.Result = true, json.RawMessage(`{"contents":[{"uri":"file:///a","text":"x"}]}`)
		}
		return b.ev(record.Event{Kind: record.KindRequest, Method: method, Request: info})
	}
	h.feed(req(1, record.MethodSubscribe, record.PhaseStart), req(1, record.MethodSubscribe, record.PhaseDone))
	check("the subscription", "sub")
	h.feed(b.ev(record.Event{Kind: record.KindNotification, Method: "notifications/resources/updated", Data: json.RawMessage(`{"uri":"file:///a"}`)}))
	check("the update", "upd")
	h.feed(req(2, record.MethodRead, record.PhaseStart), req(2, record.MethodRead, record.PhaseDone))
	check("the read", "")
	if strings.Contains(ansi.Strip(pane.View()), "upd") {
		t.Errorf("read after its update, the row is still marked upd:\n%s", ansi.Strip(pane.View()))
	}
	h.key("j")
	check("a move", "")
}
