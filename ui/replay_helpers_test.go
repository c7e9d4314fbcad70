package ui

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"mcpwitness/paging"
	"mcpwitness/record"
	"mcpwitness/replay"
	"mcpwitness/session"

	"mcpwitness/ui/panes"
)

// writeSession writes a session file holding evs and returns its path.
func writeSession(t *testing.T, name string, evs []record.Event) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	h := record.NewHeader("mcpwitness test", session.Target{Name: "fake"}.Describe())
	h.Started = t0
	for _, v := range append([]any{h}, anys(evs)...) {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(append(b, '\n'))
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return path
}

func anys(evs []record.Event) []any {
	out := make([]any, len(evs))
	for i, ev := range evs {
		out[i] = ev
	}
	return out
}

// replayHarness opens the session file at path as `mcpwitness open` does,
// at w×h in theme, and waits until it is read.
func replayHarness(t *testing.T, path string, w, h int, theme string) *harness {
	t.Helper()
	hs := openHarness(t, path, w, h, theme)
	hs.settle()
	return hs
}

// openHarness opens the session file at path as `mcpwitness open` does,
// at w×h in theme, and leaves it reading.
func openHarness(t *testing.T, path string, w, h int, theme string) *harness {
	t.Helper()
	r, err := replay.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.File().Close() })
	hs := newHarness(t, options{Replay: r, Theme: theme})
	hs.update(tea.WindowSizeMsg{Width: w, Height: h})
	return hs
}

// settle pumps messages until the replay has read the file, shows where
// the scrubber was sent, and has built what its panes show.
func (h *harness) settle() {
	h.t.Helper()
	h.until("the replay to settle", h.settled)
}

// settled says the replay has read the file, shows where the scrubber was
// sent, and has built what its panes show.
func (h *harness) settled() bool {
	r := h.m.replay
	return r.Loaded() && !r.Running() && r.Pos() == r.Target() &&
		h.m.detail.builds.Pending == (detailKey{}) && h.m.wire.Building == (panes.FrameKey{})
}

// press presses a key of the scrubber and waits for the screen to follow.
func (h *harness) press(keys ...string) {
	h.t.Helper()
	for _, k := range keys {
		h.key(k)
		h.settle()
	}
}

// position is the scrubber's position indicator: "event 12/50".
func (h *harness) position() string {
	s := h.screen()
	i := strings.Index(s, "⏵ event ")
	if i < 0 {
		h.t.Fatalf("no position indicator on the screen:\n%s", s)
	}
	f := strings.Fields(s[i+len("⏵ "):])
	return f[0] + " " + f[1]
}

// headerLines are the header's two lines, stripped.
func (h *harness) headerLines() []string {
	return strings.SplitN(h.screen(), "\n", 3)[:2]
}

// recordedWalk is a tools walk as the session records it: each page is
// asked for (a list request with one out), sent and answered on the wire,
// and accepted (its generation settled, nothing out).
func recordedWalk(b *evs, id int64, pages, size int, gen0 int64) []record.Event {
	out := []record.Event{b.walkStart(id)}
	for n := 1; n <= pages; n++ {
		gen := gen0 + int64(n)
		out = append(out, b.ev(record.Event{Kind: record.KindListRequest, Method: "tools/list", Gen: gen - 1, Out: 1,
			Walk: &record.WalkInfo{ID: id, Method: "tools/list", State: "request"}, Page: &paging.Page{Number: n}}))
		req := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list","params":{}}`, 100*id+int64(n))
		out = append(out, b.ev(record.Event{Kind: record.KindWire, Dir: record.Send, Method: "tools/list",
			ID: fmt.Sprint(100*id + int64(n)), Frame: json.RawMessage(req), Size: len(req)}))
		ans := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"tools":[]}}`, 100*id+int64(n))
		out = append(out, b.ev(record.Event{Kind: record.KindWire, Dir: record.Recv, ID: fmt.Sprint(100*id + int64(n)),
			Frame: json.RawMessage(ans), Size: len(ans), LatencyMs: 3}))
		next := ""
		if n < pages {
			next = fmt.Sprint(n)
		}
		out = append(out, b.page(id, n, gen, next, tools("tool_", (n-1)*size+1, size)...))
	}
	return append(out, b.walkDone(id, pages, pages*size, gen0+int64(pages), ""))
}
