package session

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"mcpwitness/paging"
	"mcpwitness/record"
)

// recordDemoFile records a session against the in-process demo server into
// a file: a tools walk, then the calls given as tool → JSON arguments. It
// returns the path and the events the live log held.
func recordDemoFile(t *testing.T, calls ...[2]string) (string, []record.Event) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "run.jsonl")
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	log := record.NewLog(&record.LogOptions{History: true})
	target := Target{Name: "demo"}
	rec, err := record.NewRecorder(out, record.NewHeader("mcpwitness test", target.Describe()), target.Secrets())
	if err != nil {
		t.Fatal(err)
	}
	log.AddSink(rec.Write)
	s := demoInMemory(t, &Options{Log: log})
	walked(t, s)
	for _, c := range calls {
		s.Call(context.Background(), c[0], json.RawMessage(c[1]), nil)
	}
	s.Close()
	log.Close()
	if err := rec.Err(); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	return path, log.Events()
}

func openTestFile(t *testing.T, path string) *record.File {
	t.Helper()
	f, err := record.OpenFile(path)
	if err != nil {
		t.Fatalf("OpenFile: %v", err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// asJSON is how events are compared: their line in the file.
func asJSON(t *testing.T, ev record.Event) string {
	t.Helper()
	b, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestOpenFileReadsWhatWasRecorded(t *testing.T) {
	t.Parallel()
	path, live := recordDemoFile(t, [2]string{"add", `{"a":2,"b":3}`}, [2]string{"render_video", `{"storyboard":"x"}`})
	f := openTestFile(t, path)
	if f.Len() != len(live) {
		t.Fatalf("Len = %d, want the %d events the log held", f.Len(), len(live))
	}
	if w := f.Warnings(); len(w) != 0 || f.Skipped() != 0 || f.Cut() != 0 {
		t.Errorf("warnings %q, skipped %d, cut %d; want none for a clean recording", w, f.Skipped(), f.Cut())
	}
	if h := f.Header(); h.Format != record.FormatName || h.Version != record.FormatVersion || h.Target.Name != "demo" || h.Tool != "mcpwitness test" {
		t.Errorf("header = %+v", h)
	}
	for i, want := range live {
		got, err := f.Event(i)
		if err != nil {
			t.Fatalf("Event(%d): %v", i, err)
		}
		if diff := cmp.Diff(asJSON(t, want), asJSON(t, got)); diff != "" {
			t.Fatalf("Event(%d) differs from the live event (-live +file):\n%s", i, diff)
		}
	}
	i := 0
	for ev, err := range f.Events() {
		if err != nil {
			t.Fatalf("Events: %v", err)
		}
		if !ev.T.Equal(live[i].T) || ev.Seq != live[i].Seq || ev.Kind != live[i].Kind {
			t.Fatalf("Events #%d = seq %d %s at %v, want seq %d %s at %v", i, ev.Seq, ev.Kind, ev.T, live[i].Seq, live[i].Kind, live[i].T)
		}
		i++
	}
	if i != len(live) {
		t.Errorf("Events yielded %d events, want %d", i, len(live))
	}
}

func TestFileMeta(t *testing.T) {
	t.Parallel()
	path, live := recordDemoFile(t)
	f := openTestFile(t, path)
	m := f.Meta()
	if m.Server == nil || m.Server.Name != "mcpwitness-demo" || m.Server.ProtocolVersion == "" {
		t.Fatalf("Meta().Server = %+v, want the demo server from the connect event", m.Server)
	}
	if m.Events != len(live) || !m.First.Equal(live[0].T) || !m.Last.Equal(live[len(live)-1].T) {
		t.Errorf("Meta = %d events %v…%v, want %d events %v…%v", m.Events, m.First, m.Last, len(live), live[0].T, live[len(live)-1].T)
	}
	if !m.Started.Equal(f.Header().Started) || m.Span != m.Last.Sub(m.Started) || m.Span <= 0 {
		t.Errorf("Started %v, Span %v; want the header's start and the time to the last event", m.Started, m.Span)
	}
	if m.Target.Name != "demo" || m.Name != path {
		t.Errorf("Meta target %+v, name %q", m.Target, m.Name)
	}
}

func writeTemp(t *testing.T, b []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestOpenFileCutMidLine(t *testing.T) {
	t.Parallel()
	path, live := recordDemoFile(t)
	b, _ := os.ReadFile(path)
	ls := lines(b)
	last := ls[len(ls)-1]
	cut := len(last) / 2
	start := len(b) - 1 - len(last) // the file ends in a newline
	f := openTestFile(t, writeTemp(t, b[:start+cut]))
	if f.Len() != len(live)-1 {
		t.Errorf("Len = %d, want %d: every whole line", f.Len(), len(live)-1)
	}
	if f.Cut() != int64(cut) {
		t.Errorf("Cut = %d, want %d", f.Cut(), cut)
	}
	want := fmt.Sprintf("the file ends in the middle of line %d: its last %d bytes were cut off", len(ls), cut)
	if w := f.Warnings(); len(w) != 1 || !strings.Contains(w[0], want) {
		t.Errorf("warnings = %q, want one saying %q", w, want)
	}
	if f.Skipped() != 0 {
		t.Errorf("Skipped = %d; a cut line is not a skipped line", f.Skipped())
	}
}

func TestOpenFileWholeLastLineWithoutNewline(t *testing.T) {
	t.Parallel()
	path, live := recordDemoFile(t)
	b, _ := os.ReadFile(path)
	f := openTestFile(t, writeTemp(t, bytes.TrimSuffix(b, []byte("\n"))))
	if f.Len() != len(live) || f.Cut() != 0 || len(f.Warnings()) != 0 {
		t.Errorf("Len %d (want %d), cut %d, warnings %q: a whole event needs no newline to count", f.Len(), len(live), f.Cut(), f.Warnings())
	}
	ev, err := f.Event(f.Len() - 1)
	if err != nil || ev.Kind != record.KindClosed {
		t.Errorf("last event = %v, %v; want the closed event", ev.Kind, err)
	}
}

func TestOpenFileSkipsBadLines(t *testing.T) {
	t.Parallel()
	path, live := recordDemoFile(t)
	b, _ := os.ReadFile(path)
	ls := lines(b)
	// Lines to spoil, every other one from line 3 on: never the frame of
	// a page, which its page event refers to (where it falls depends on
	// when the server's notifications came).
	var at []int
	for i := 2; i < len(ls) && len(at) < 5; i++ {
		if bytes.Contains(ls[i], []byte(`"dir":"recv","method":"tools/list"`)) || len(at) > 0 && at[len(at)-1] == i-1 {
			continue
		}
		at = append(at, i)
	}
	if len(at) < 5 {
		t.Fatalf("no room to spoil lines in a record of %d lines: %v", len(ls), at)
	}
	ls[at[0]] = []byte("this is not json\n")
	ls[at[1]] = []byte(`{"seq":4,"kind":"stderr","text":"no time"}` + "\n")
	ls[at[2]] = []byte(`{"seq":6,"t":"2026-01-02T03:04:05Z","text":"no kind"}` + "\n")
	ls[at[3]] = []byte(`[1,2]` + "\n")
	ls[at[4]] = []byte("\r\n")
	f := openTestFile(t, writeTemp(t, bytes.Join(ls, nil)))
	if f.Len() != len(live)-5 || f.Skipped() != 4 {
		t.Fatalf("Len %d, Skipped %d; want %d and 4 (a blank line is neither)", f.Len(), f.Skipped(), len(live)-5)
	}
	want := []string{
		fmt.Sprintf(`line %d: not an event: not JSON ("this is not json"); skipped`, at[0]+1),
		fmt.Sprintf(`line %d: the "stderr" event has no time ("t"); skipped`, at[1]+1),
		fmt.Sprintf(`line %d: the event has no "kind"; skipped`, at[2]+1),
		fmt.Sprintf(`line %d: not an event: a JSON array, not an object; skipped`, at[3]+1),
	}
	w := f.Warnings()
	if len(w) != len(want) {
		t.Fatalf("warnings = %q", w)
	}
	for i := range want {
		if !strings.HasPrefix(w[i], want[i]) {
			t.Errorf("warning %d = %q, want it to start %q", i, w[i], want[i])
		}
	}
	for i := range f.Len() {
		if _, err := f.Event(i); err != nil {
			t.Errorf("Event(%d): %v", i, err)
		}
	}
}

func TestOpenFileKeepsUnknownKinds(t *testing.T) {
	t.Parallel()
	path, live := recordDemoFile(t)
	b, _ := os.ReadFile(path)
	// A later minor version: a new kind whose fields clash with ours, and a
	// new field on a known kind.
	extra := `{"seq":900,"t":"2026-01-02T03:04:05Z","kind":"teleport","page":"elsewhere","walk":7}` + "\n" +
		`{"seq":901,"t":"2026-01-02T03:04:06Z","kind":"stderr","text":"hi","colour":"red"}` + "\n" +
		`{"seq":902,"t":"2026-01-02T03:04:07Z","kind":"walk","walk":"a newer shape"}` + "\n"
	f := openTestFile(t, writeTemp(t, append(b, extra...)))
	if f.Len() != len(live)+3 || len(f.Warnings()) != 0 {
		t.Fatalf("Len %d (want %d), warnings %q", f.Len(), len(live)+3, f.Warnings())
	}
	if ev, err := f.Event(len(live) + 2); err != nil || ev.Kind != record.KindWalk || ev.Seq != 902 || ev.Walk != nil {
		t.Errorf("a known kind whose field changed shape = %+v, %v; want seq, t and kind kept", ev, err)
	}
	ev, err := f.Event(len(live))
	if err != nil || ev.Kind != "teleport" || ev.Seq != 900 || ev.T.IsZero() || record.KnownKind(ev.Kind) {
		t.Errorf("unknown kind = %+v, %v", ev, err)
	}
	raw, err := f.RawLine(len(live))
	if err != nil || !strings.Contains(string(raw), `"page":"elsewhere"`) {
		t.Errorf("RawLine = %s, %v; want the line as written", raw, err)
	}
	raw, _ = f.RawLine(len(live) + 1)
	if ev, _ := f.Event(len(live) + 1); ev.Text != "hi" || !strings.Contains(string(raw), `"colour":"red"`) {
		t.Errorf("a new field on a known kind: event text %q, raw %s", ev.Text, raw)
	}
}

func TestOpenFileHeaderErrors(t *testing.T) {
	t.Parallel()
	event := `{"seq":1,"t":"2026-01-02T03:04:05Z","kind":"closed"}` + "\n"
	tests := []struct {
		name, file, want string
	}{
		{"empty", "", "the file is empty: line 1 should be the session header"},
		{"not json", "hello\n" + event, `line 1 is not a session header: not JSON ("hello")`},
		{"an event first", event, `line 1 is not a session header: it has no "format"`},
		{"other format", `{"format":"har","version":1}` + "\n", `line 1: format is "har", not "mcpwitness-session"`},
		{"no version", `{"format":"mcpwitness-session"}` + "\n", `line 1: the header has no "version"`},
		{"future version", `{"format":"mcpwitness-session","version":2}` + "\n" + event,
			"session file is format version 2; this mcpwitness reads version 1 — upgrade mcpwitness"},
		{"future minor of a future major", `{"format":"mcpwitness-session","version":3.1}` + "\n",
			"session file is format version 3; this mcpwitness reads version 1 — upgrade mcpwitness"},
		{"version zero", `{"format":"mcpwitness-session","version":0}` + "\n", "line 1: format version 0 is not one this mcpwitness reads"},
		{"version text", `{"format":"mcpwitness-session","version":"one"}` + "\n", `line 1: the version is "\"one\"", not a version number`},
		{"header cut", `{"format":"mcpwitness-session","vers`, "line 1 (the header) is cut off after 36 bytes"},
		{"header fields clash", `{"format":"mcpwitness-session","version":1,"started":5}` + "\n", "line 1: the header cannot be read"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := writeTemp(t, []byte(tc.file))
			f, err := record.OpenFile(path)
			if err == nil {
				f.Close()
				t.Fatalf("OpenFile succeeded, want an error saying %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), path+": ") {
				t.Errorf("error = %q, want it to name the file and say %q", err, tc.want)
			}
		})
	}
}

func TestOpenFileAcceptsMinorVersionsCRLFAndBOM(t *testing.T) {
	t.Parallel()
	file := "\ufeff" + `{"format":"mcpwitness-session","version":1.4,"tool":"x","target":{"transport":"stdio"},"started":"2026-01-02T03:04:05Z","new":true}` + "\r\n" +
		`{"seq":1,"t":"2026-01-02T03:04:06Z","kind":"stderr","text":"one"}` + "\r\n" +
		`{"seq":2,"t":"2026-01-02T03:04:07Z","kind":"stderr","text":"two"}` + "\r\n"
	f := openTestFile(t, writeTemp(t, []byte(file)))
	if f.Len() != 2 || f.Header().Version != 1 || len(f.Warnings()) != 0 {
		t.Fatalf("Len %d, version %d, warnings %q", f.Len(), f.Header().Version, f.Warnings())
	}
	raw, err := f.RawLine(1)
	if err != nil || bytes.HasSuffix(raw, []byte("\r")) {
		t.Errorf("RawLine = %q, %v; want no line ending", raw, err)
	}
	if m := f.Meta(); m.Span != 2*time.Second {
		t.Errorf("Span = %v, want 2s from the header's start", m.Span)
	}
}

func TestOpenFileMissingAndDirectory(t *testing.T) {
	t.Parallel()
	if _, err := record.OpenFile(filepath.Join(t.TempDir(), "nope.jsonl")); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("missing file: %v", err)
	}
	if _, err := record.OpenFile(t.TempDir()); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("directory: %v", err)
	}
}

func TestFileConcurrentReads(t *testing.T) {
	t.Parallel()
	path, live := recordDemoFile(t, [2]string{"add", `{"a":1,"b":1}`})
	f := openTestFile(t, path)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := g; i < f.Len(); i += 2 {
				if ev, err := f.Event(i); err != nil || ev.Seq != live[i].Seq {
					t.Errorf("Event(%d) = seq %d, %v", i, ev.Seq, err)
				}
			}
		})
	}
	wg.Wait()
}

// bigFile writes a session file of about size bytes made of real events.
func bigFile(t testing.TB, size int) (path string, events int) {
	t.Helper()
	line := func(seq int) string {
		items := make([]json.RawMessage, 10)
		for i := range items {
			items[i] = json.RawMessage(fmt.Sprintf(`{"name":"tool_%d_%d","description":"%s","inputSchema":{"type":"object"}}`, seq, i, strings.Repeat("d", 40)))
		}
		p := paging.Page{Number: 1, Count: 10, Generation: int64(seq)}
		b, _ := json.Marshal(record.Event{Seq: int64(seq), T: time.Unix(1700000000, int64(seq)).UTC(), Kind: record.KindPage, Method: "tools/list", Page: &p, Items: items})
		return string(b) + "\n"
	}
	path = filepath.Join(t.TempDir(), "big.jsonl")
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	n, _ := out.WriteString(`{"format":"mcpwitness-session","version":1,"tool":"bench","target":{"transport":"stdio"},"started":"2023-11-14T22:13:20Z"}` + "\n")
	for n < size {
		events++
		m, err := out.WriteString(line(events))
		if err != nil {
			t.Fatal(err)
		}
		n += m
	}
	return path, events
}

func TestOpenLargeFileMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 50 MB file")
	}
	size := 50 << 20
	if raceEnabled() {
		size = 8 << 20 // the race detector reads ten times slower
	}
	path, events := bigFile(t, size)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f, err := record.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	runtime.GC()
	runtime.ReadMemStats(&after)
	held := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("%d events in %d MiB; heap held after open: %d KiB (%.1f bytes per event)", events, size>>20, held>>10, float64(held)/float64(events))
	if f.Len() != events {
		t.Fatalf("Len = %d, want %d", f.Len(), events)
	}
	if held > int64(size/20) {
		t.Errorf("open holds %d bytes of heap for a %d-byte file; want far less than the file (an index of offsets)", held, size)
	}
	ev, err := f.Event(events - 1)
	if err != nil || ev.Seq != int64(events) || len(ev.Items) != 10 {
		t.Errorf("last event = seq %d with %d items, %v", ev.Seq, len(ev.Items), err)
	}
}

func BenchmarkOpenFile(b *testing.B) {
	path, events := bigFile(b, 20<<20)
	st, _ := os.Stat(path)
	b.SetBytes(st.Size())
	b.ReportAllocs()
	for b.Loop() {
		f, err := record.OpenFile(path)
		if err != nil || f.Len() != events {
			b.Fatalf("open: %v, %d events", err, f.Len())
		}
		f.Close()
	}
}

// raceEnabled reports whether the test binary was built with -race.
func raceEnabled() bool {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, s := range bi.Settings {
		if s.Key == "-race" {
			return s.Value == "true"
		}
	}
	return false
}

// TestRecordTrimsWhatTheFrameSays: a walk's events leave out what their
// frame or event already says (a page's items, count, nextCursor, ttlMs and
// request id; a list request's cursor; a walk's method when it is the
// event's), and File.Event gives it back (TestOpenFileReadsWhatWasRecorded
// compares every event with the live one).
func TestRecordTrimsWhatTheFrameSays(t *testing.T) {
	t.Parallel()
	path, _ := recordDemoFile(t)
	f := openTestFile(t, path)
	pages, requests := 0, 0
	for i := range f.Len() {
		line, err := f.RawLine(i)
		if err != nil {
			t.Fatal(err)
		}
		ev, err := f.Event(i)
		if err != nil {
			t.Fatal(err)
		}
		var banned []string
		switch ev.Kind {
		case record.KindPage:
			pages++
			banned = []string{`"nextCursor"`, `"items"`, `"requestId"`, `"hasTTL"`, `"state"`, `"generation"`}
			if ev.Page.Count == 0 || ev.Page.RequestID == "" || len(ev.Items) != ev.Page.Count {
				t.Errorf("page %d read back with %d items (count %d), request %q", ev.Page.Number, len(ev.Items), ev.Page.Count, ev.Page.RequestID)
			}
		case record.KindListRequest:
			requests++
			banned = []string{`"cursor"`, `"items"`, `"ms"`, `"generation"`, `"state"`}
		case record.KindWalk:
			if ev.Walk.Method != ev.Method {
				t.Errorf("walk event read back with method %q, want %q", ev.Walk.Method, ev.Method)
			}
		}
		for _, b := range banned {
			if bytes.Contains(line, []byte(b)) {
				t.Errorf("a %s event repeats %s: %s", ev.Kind, b, line)
			}
		}
		if ev.Walk != nil && bytes.Count(line, []byte(`"method":"tools/list"`)) != 1 {
			t.Errorf("a %s event names its method twice: %s", ev.Kind, line)
		}
	}
	if pages < 2 || requests != pages {
		t.Fatalf("%d pages, %d list requests; want a walk of several pages", pages, requests)
	}
}

func lines(b []byte) [][]byte {
	return bytes.SplitAfter(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))
}
