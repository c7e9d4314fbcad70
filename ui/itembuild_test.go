package ui

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"mcpwitness/internal/hostiletest"
	"mcpwitness/paging"
	"mcpwitness/record"

	"mcpwitness/ui/panes"
)

// resourceReading is wideResource with a read whose answer is text of
// the MIME type mime.
func resourceReading(mime, text string) []record.Event {
	evs := wideResource()
	quoted, _ := json.Marshal(text)
	last := &evs[len(evs)-1]
	r := *last.Request
	r.Result = json.RawMessage(`{"contents":[{"uri":"demo://wide.json","mimeType":"` + mime + `","text":` + string(quoted) + `}]}`)
	last.Request = &r
	return evs
}

// markdownResource is a resource read answering n paragraphs of
// Markdown, each naming its number.
func markdownResource(n int) []record.Event {
	var md strings.Builder
	for i := range n {
		fmt.Fprintf(&md, "## Part %d\n\nSome *emphasis* and `code` in paragraph %d of the readme.\n\n", i, i)
	}
	return resourceReading("text/markdown", md.String())
}

// itemModel is a model at w×40 that folded evs and shows the resources
// tab, with what Sync left to a command not built yet.
func itemModel(t *testing.T, evs []record.Event, w int) *model {
	t.Helper()
	m := newModel(options{Theme: "dark", Now: func() time.Time { return t0 }, Loc: time.UTC, Backend: &fakeBackend{}})
	m.Update(tea.WindowSizeMsg{Width: w, Height: 40})
	for _, ev := range evs {
		m.Update(eventMsg(ev))
	}
	m.Update(keyMsg("2"))
	return m
}

func plainView(m *model) string { return ansi.Strip(m.View().Content) }

// A big answer's document is built in a command, not in Update: the pane
// says it is rendering until the document comes; a small one is drawn at
// once.
func TestBigItemDocumentIsBuiltOffTheLoop(t *testing.T) {
	small := itemModel(t, markdownResource(3), 120)
	if small.item.Builds.Pending != (panes.ItemKey{}) || !strings.Contains(plainView(small), "paragraph 2 of the readme") {
		t.Fatalf("a small document is not drawn at once:\n%s", plainView(small))
	}

	m := itemModel(t, markdownResource(200), 120)
	if n := panes.ItemDocSize(m.item.Builds.Pending); n <= panes.BigItemDoc {
		t.Fatalf("the test's answer is %d bytes: not past %d", n, panes.BigItemDoc)
	}
	if v := plainView(m); !strings.Contains(v, "rendering…") || strings.Contains(v, "paragraph 0 of the readme") {
		t.Fatalf("while the document is built the pane does not say so:\n%s", v)
	}
	buildItemNow(m)
	if v := plainView(m); strings.Contains(v, "rendering…") || !strings.Contains(v, "paragraph 0 of the readme") {
		t.Fatalf("the built document is not shown:\n%s", v)
	}
	if m.item.Builds.Pending != (panes.ItemKey{}) || m.item.Builds.Built.Item == nil {
		t.Fatalf("after the build: pending %+v", m.item.Builds.Pending)
	}
}

// Resized, the pane keeps the item's document until the one for the new
// width comes; a build for a width no longer wanted is dropped, also when
// the width went back to that of the document shown.
func TestItemDocumentRebuildKeepsWhatShows(t *testing.T) {
	m := itemModel(t, markdownResource(200), 120)
	buildItemNow(m)
	shown := m.item.Builds.Built

	m.Update(tea.WindowSizeMsg{Width: 100, Height: 40})
	at100 := m.item.Builds.Pending
	if at100 == (panes.ItemKey{}) || at100.Width == shown.Width {
		t.Fatalf("a resize did not start a build: pending %+v", at100)
	}
	if v := plainView(m); strings.Contains(v, "rendering…") || !strings.Contains(v, "paragraph 0") {
		t.Fatalf("while the resized document is built, the old one does not show:\n%s", v)
	}

	// Wider again before the build came: the build for 100 is dropped.
	m.Update(tea.WindowSizeMsg{Width: 110, Height: 40})
	at110 := m.item.Builds.Pending
	lines, widest := buildItem(m, at100)
	m.Update(panes.ItemBuiltMsg{Key: at100, Lines: lines, Widest: widest})
	if m.item.Builds.Built == at100 {
		t.Fatal("a build for a width no longer wanted was shown")
	}
	buildItemNow(m)
	if m.item.Builds.Built != at110 {
		t.Fatalf("the build for the width wanted was not shown: built width %d", m.item.Builds.Built.Width)
	}

	// To 120 and back to 110 before the build came: what shows is wanted,
	// and the late build for 120 is dropped.
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	at120 := m.item.Builds.Pending
	m.Update(tea.WindowSizeMsg{Width: 110, Height: 40})
	if m.item.Builds.Pending != (panes.ItemKey{}) {
		t.Fatalf("back at the width shown, a build is still wanted: %+v", m.item.Builds.Pending)
	}
	lines, widest = buildItem(m, at120)
	m.Update(panes.ItemBuiltMsg{Key: at120, Lines: lines, Widest: widest})
	if m.item.Builds.Built != at110 {
		t.Fatalf("a late build replaced the document shown: built width %d", m.item.Builds.Built.Width)
	}

	// The same resource listed again by a new walk: its document stays
	// while the new one builds.
	was := m.item.Item()
	seq := int64(100)
	for _, ev := range markdownResource(200)[1:4] {
		w := *ev.Walk
		w.ID = 2
		seq++
		ev.Walk, ev.Seq = &w, seq
		m.Update(eventMsg(ev))
	}
	if now := m.item.Item(); now == was || now.Key != was.Key {
		t.Fatalf("the pane shows %p (key %q), want the same resource listed again", now, now.Key)
	}
	if m.item.Builds.Pending == (panes.ItemKey{}) {
		t.Fatal("the resource listed again started no build")
	}
	if v := plainView(m); strings.Contains(v, "rendering…") || !strings.Contains(v, "paragraph 0") {
		t.Fatalf("while the resource listed again builds, its document does not show:\n%s", v)
	}
}

// A server whose resource is Markdown nested 5,000 deep: the read's
// document is built while the UI goes on, and then shows.
func TestHeavyMarkdownReadShows(t *testing.T) {
	h, _, _ := hostileHarness(t, hostiletest.ModeHeavyMarkdown, 120, 40)
	h.until("the resources", func() bool { return h.m.St.Walk(2) != nil && h.m.St.Walk(2).Done })
	h.key("2")
	h.key("enter")
	h.until("the read's document", func() bool {
		k := h.m.item.Builds.Built
		return k.Req != nil && k.Req.Done && strings.Contains(h.screen(), "Contents (1)")
	})
	h.checkView("the heavy Markdown read")
	h.key("j")
	if h.m.item.Builds.Pending != (panes.ItemKey{}) {
		t.Errorf("a key started a build: %+v", h.m.item.Builds.Pending)
	}
}

// BenchmarkItemAnswerHeavyMarkdown measures the UI loop's share of a
// read's answer that is Markdown nested 5,000 deep: the Update that folds
// it in (its document is built in a command; BenchmarkMarkdownNestedEmphasis
// in render measures that build).
func BenchmarkItemAnswerHeavyMarkdown(b *testing.B) {
	evs := resourceReading("text/markdown", strings.Repeat("*a ", 5000)+strings.Repeat("b* ", 5000))
	for b.Loop() {
		b.StopTimer()
		m := newModel(options{Theme: "dark", Now: func() time.Time { return t0 }, Loc: time.UTC, Backend: &fakeBackend{}})
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		for _, ev := range evs[:len(evs)-1] {
			m.Update(eventMsg(ev))
		}
		m.Update(keyMsg("2"))
		b.StartTimer()
		m.Update(eventMsg(evs[len(evs)-1]))
	}
}

// A task whose call answered a big result: its document in the Tasks tab
// is built in a command too, from what Sync read of the state.
func TestBigTaskDocumentIsBuiltOffTheLoop(t *testing.T) {
	h, b := extTaskHarness(t)
	text, _ := json.Marshal(strings.Repeat("frame ", 3000) + "the last frame")
	h.feed(b.renderTask(1, `{"content":[{"type":"text","text":`+string(text)+`}]}`)...)
	h.key("2")
	if h.m.tab != tabTasks || h.m.item.Builds.Pending == (panes.ItemKey{}) {
		t.Fatalf("tab %v, pending %+v: the big task's document was not left to a command", h.m.tab, h.m.item.Builds.Pending)
	}
	h.until("the task's document", func() bool {
		d := strings.Join(h.m.item.Sc.Lines, "\n")
		return strings.Contains(d, "completed: done") && strings.Contains(d, "the last frame")
	})
}

// A task listed by tasks/list whose status the session learns of later
// (polled, notified): its document follows the status, not the listing.
func TestListedTaskDocumentFollowsItsStatus(t *testing.T) {
	h := newHarness(t, options{})
	h.update(tea.WindowSizeMsg{Width: 110, Height: 30})
	b := &evs{}
	conn := b.connect()
	conn.Server.Capabilities = json.RawMessage(`{"tools":{},"tasks":{"list":{},"requests":{"tools":{"call":{}}}}}`)
	m := paging.Tasks().Name
	p := paging.Page{Number: 1, Count: 1, Ms: 2, Generation: 1}
	item := json.RawMessage(`{"taskId":"task-1","status":"working","statusMessage":"scene 1 of 3","createdAt":"2026-01-02T15:04:05Z","ttl":60000}`)
	h.feed(conn,
		b.ev(record.Event{Kind: record.KindWalk, Method: m, Walk: &record.WalkInfo{ID: 1, Method: m, State: record.PhaseStart}}),
		b.ev(record.Event{Kind: record.KindPage, Method: m, Page: &p, Items: []json.RawMessage{item},
			Walk: &record.WalkInfo{ID: 1, Method: m, State: record.PhasePage}}),
		b.ev(record.Event{Kind: record.KindWalk, Method: m, Walk: &record.WalkInfo{ID: 1, Method: m, State: record.PhaseDone, Pages: 1, Items: 1, Ms: 3}}))
	h.key("2")
	doc := func() string { return strings.Join(h.m.item.Sc.Lines, "\n") }
	if h.m.tab != tabTasks || !strings.Contains(doc(), "working: scene 1 of 3") {
		t.Fatalf("tab %v; the listed task's document:\n%s", h.m.tab, doc())
	}
	ttl := int64(60000)
	h.feed(b.ev(record.Event{Kind: record.KindTask, Method: "tasks", ID: "task-1", Text: "task task-1 completed",
		Task: &record.TaskInfo{TaskID: "task-1", Status: record.TaskCompleted, StatusMessage: "done", TTL: &ttl, Source: record.TaskPolled}}))
	if d := doc(); !strings.Contains(d, "completed: done") {
		t.Errorf("the document does not follow the task's status:\n%s", d)
	}
}

// A task of the session's own call whose call ends after the tab shows
// it: the document gains the call's result.
func TestOwnTaskDocumentGainsItsCallsResult(t *testing.T) {
	h, b := extTaskHarness(t)
	evs := b.renderTask(1, `{"content":[{"type":"text","text":"Rendered 1 scenes"}]}`)
	h.feed(evs[:3]...)
	h.key("2")
	doc := func() string { return strings.Join(h.m.item.Sc.Lines, "\n") }
	if !strings.Contains(doc(), "completed: done") || strings.Contains(doc(), "Rendered 1 scenes") {
		t.Fatalf("before the call's end, the task's document:\n%s", doc())
	}
	h.feed(evs[3])
	if d := doc(); !strings.Contains(d, "Rendered 1 scenes") {
		t.Errorf("the document lacks the call's result after its end:\n%s", d)
	}
}
