package ui

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"mcpwitness/finding"
	"mcpwitness/record"
	"mcpwitness/replay"
	"mcpwitness/session"
)

// TestLargeFileReplaysWithBoundedHeap replays a generated file of 24 MB,
// most of it frames and answers, and checks that the heap holds a fraction
// of it: frames and answers stay in the file until a pane shows them.
func TestLargeFileReplaysWithBoundedHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("generates and replays a 24 MB file; skipped with -short")
	}
	const size = 24 << 20
	path := largeSession(t, size)
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)

	h, r := largeReplay(t, path)
	h.key("w")
	settleLarge(h)
	runtime.GC()
	runtime.ReadMemStats(&after)
	grew := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("%d MB, %d events: the heap grew by %.1f MB; %d snapshots", st.Size()>>20, r.Len(), float64(grew)/(1<<20), len(r.Snapshots()))
	if grew > st.Size()/3 {
		t.Errorf("replaying %d MB grew the heap by %d MB", st.Size()>>20, grew>>20)
	}
	if w := h.m.St.Frames().Len(); w < 1000 {
		t.Errorf("the wire pane keeps %d frames", w)
	}
	if s := h.screen(); !strings.Contains(s, "Frame") || !strings.Contains(s, `"jsonrpc"`) {
		t.Errorf("the newest frame is not shown:\n%s", s)
	}
	// Back to the middle and to the end again.
	for _, k := range []string{"<", "<", "<", "{", ">", ">", ">", "}"} {
		h.key(k)
		settleLarge(h)
	}
	if r.Pos() != r.Len() {
		t.Errorf("} went to %d of %d", r.Pos(), r.Len())
	}
	runtime.KeepAlive(h)
}

// largeReplay opens the replay of path in a 120×40 harness, as
// replayHarness does, and waits with settleLarge.
func largeReplay(t *testing.T, path string) (*harness, *replay.Replay) {
	t.Helper()
	h := openHarness(t, path, 120, 40, "dark")
	settleLarge(h)
	return h, h.m.replay
}

// settleLarge is [harness.settle] with a deadline for reading and folding
// 24 MB under -race on a busy machine, where it takes tens of seconds.
func settleLarge(h *harness) {
	h.t.Helper()
	h.within(5*time.Minute, "the replay to settle", h.settled)
}

// largeSession writes a session file of about size bytes: walks of a
// paged list, calls with big answers, and the frames of both.
func largeSession(t *testing.T, size int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "large.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	n := 0
	write := func(v any) {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		n += len(b) + 1
		w.Write(append(b, '\n'))
	}
	h := record.NewHeader("mcpwitness test", session.Target{Name: "large"}.Describe())
	h.Started = t0
	write(h)
	b := &evs{}
	write(b.connect())
	blob := strings.Repeat("x", 8000)
	for id := int64(1); n < size; id++ {
		for _, ev := range recordedWalk(b, id, 3, 10, 3*(id-1)) {
			write(ev)
		}
		for c := range int64(10) {
			call := 100*id + c
			result := fmt.Sprintf(`{"content":[{"type":"text","text":%q}],"structuredContent":{"blob":%q}}`, blob, blob)
			frame := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":%s}`, call, result)
			evs := callEvents(b, call, "tool_0004", true, result, finding.Verdict{Check: "output-schema", Status: finding.Pass})
			write(evs[0])
			req := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"tool_0004"}}`, call)
			write(b.ev(record.Event{Kind: record.KindWire, Dir: record.Send, Method: "tools/call", ID: fmt.Sprint(call), Frame: json.RawMessage(req), Size: len(req)}))
			write(b.ev(record.Event{Kind: record.KindWire, Dir: record.Recv, ID: fmt.Sprint(call), Frame: json.RawMessage(frame), Size: len(frame)}))
			for _, ev := range evs[1:] {
				write(ev)
			}
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return path
}
