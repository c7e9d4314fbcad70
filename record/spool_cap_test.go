package record

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A record (--record) whose file goes away under it still exports, through
// the spool that follows it, every line written before, and the note names
// the record and the failure. A record is never capped.
func TestFollowedRecordExportsWhatWasWrittenBeforeAFailedWrite(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "run.jsonl")
	rec := createTestRecord(t, path)
	defer rec.Close()
	s, err := FollowRecord(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	line := strings.Repeat("r", 1000)
	for i := range 10 {
		rec.Write(stderrEvent(i+1, line)) // 10 KiB: past any small cap
	}
	rec.f.Close() // the disk goes away under the record
	rec.Write(stderrEvent(11, "lost"))
	ex, err := s.Export(context.Background(), t.TempDir())
	if err != nil {
		t.Fatalf("export of a record that failed a write: %v", err)
	}
	wantStart := "the record " + path + " stopped at "
	if !strings.HasPrefix(ex.Stopped, wantStart) || !strings.HasSuffix(ex.Stopped, ": writing failed: file already closed in "+filepath.Dir(path)) {
		t.Errorf("the export's note = %q, want it to start %q and name the failed write", ex.Stopped, wantStart)
	}
	if last := lastEvent(t, ex.Path, 10); ex.Lines != 11 || last.Text != line {
		t.Errorf("the export holds %d lines and ends with %q; want the header and the 10 events written", ex.Lines, last.Text)
	}
}

// With no cap (a negative Max, --spool-max 0) the spool takes everything;
// with none given it stops at [DefaultSpoolMax].
func TestSpoolCapZeroMeansNone(t *testing.T) {
	t.Parallel()
	stopped := false
	s := newSpoolWith(t, &SpoolOptions{Max: -1, Stopped: func(Event) { stopped = true }})
	line := strings.Repeat("n", 4<<10)
	for i := range 256 { // 1 MiB
		s.Write(stderrEvent(i+1, line))
	}
	ex, err := s.Export(context.Background(), t.TempDir())
	if err != nil || stopped || ex.Stopped != "" || ex.Lines != 257 {
		t.Errorf("an uncapped spool after 1 MiB: %+v, %v, stopped %v; want all 256 events", ex, err, stopped)
	}
	if d := newSpoolWith(t, nil); d.max != DefaultSpoolMax || d.rec.rec.w.(*capWriter).max != 1<<30 {
		t.Errorf("a spool with no options is capped at %d, want 1 GiB", d.max)
	}
}

// A write that fails (the disk is full) stops the spool; an export still
// holds every whole line written before, leaves out the part of the line
// that failed, and says why.
func TestSpoolExportsWhatWasWrittenBeforeAFailedWrite(t *testing.T) {
	t.Parallel()
	var stops []Event
	s := newSpoolWith(t, &SpoolOptions{Stopped: func(ev Event) { stops = append(stops, ev) }})
	header, err := s.src.Stat()
	if err != nil {
		t.Fatal(err)
	}
	cw := s.rec.rec.w.(*capWriter)
	cw.w = &failAfter{w: cw.w, left: 1000}
	for i := range 40 {
		s.Write(stderrEvent(i+1, strings.Repeat("z", 90)))
	}
	if len(stops) != 1 || !strings.Contains(stops[0].Text, "no space left on device") || !SpoolStopped(stops[0]) {
		t.Fatalf("the stop events: %+v; want one naming the full disk", stops)
	}
	want := "the export spool stopped at " + stops[0].T.Format(time.TimeOnly) + ": writing failed: no space left on device in /full/disk; later events are not in exports (record with --record FILE to keep everything)"
	if stops[0].Text != want {
		t.Errorf("the stop event says %q\nwant %q", stops[0].Text, want)
	}
	ex, err := s.Export(context.Background(), t.TempDir())
	if err != nil {
		t.Fatalf("export after a failed write: %v", err)
	}
	if want := "the spool stopped at " + stops[0].T.Format(time.TimeOnly) + ": writing failed: no space left on device in /full/disk"; ex.Stopped != want {
		t.Errorf("the export's note = %q, want %q", ex.Stopped, want)
	}
	written := spoolBytes(t, s)
	lines := bytes.Count(written, []byte("\n"))
	if int64(len(written)) != header.Size()+1000 || written[len(written)-1] == '\n' || ex.Lines != int64(lines) {
		t.Errorf("the spool holds %d bytes in %d whole lines; the export %d lines", len(written), lines, ex.Lines)
	}
	if last := lastEvent(t, ex.Path, lines-1); last.Kind != KindStderr || last.Seq != int64(lines-1) {
		t.Errorf("the export ends with %s #%d; want the last whole stderr line", last.Kind, last.Seq)
	}
}

// spoolBytes is what s's file holds, read through the spool's own handle
// (the file has no name).
func spoolBytes(t *testing.T, s *Spool) []byte {
	t.Helper()
	st, err := s.src.Stat()
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, st.Size())
	if _, err := s.src.ReadAt(b, 0); err != nil && !errors.Is(err, io.EOF) {
		t.Fatal(err)
	}
	return b
}

// newSpoolWith is a spool of its own made with opts, removed when the test
// ends.
func newSpoolWith(t *testing.T, opts *SpoolOptions) *Spool {
	t.Helper()
	target := TargetInfo{Transport: "stdio", Command: []string{"true"}}
	s, err := NewSpool(NewHeader("test", target), NewRedactor(nil), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// lastEvent reads the last event of the session file at path, which must
// read whole: n events, no warnings.
func lastEvent(t *testing.T, path string, n int) Event {
	t.Helper()
	f, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Len() != n || len(f.Warnings()) != 0 || f.Cut() != 0 {
		t.Fatalf("%s has %d events, warnings %q and %d bytes cut; want %d events and nothing forgiven", path, f.Len(), f.Warnings(), f.Cut(), n)
	}
	ev, err := f.Event(n - 1)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

// checkStoppedAtCap checks that got, the export of a spool capped at max,
// holds the lines of full, the uncapped spool's, that fit in max, then one
// error event.
func checkStoppedAtCap(t *testing.T, got, full []byte, max int) {
	t.Helper()
	// The headers differ in their start times; the lines after are one
	// session's.
	body, note := splitLastLine(got)
	_, body, _ = bytes.Cut(body, []byte("\n"))
	_, full, _ = bytes.Cut(full, []byte("\n"))
	rest, ok := bytes.CutPrefix(full, body)
	next, _, _ := bytes.Cut(rest, []byte("\n"))
	kept := len(got) - len(note)
	switch {
	case !ok || len(rest) == 0:
		t.Fatalf("the capped export's %d bytes before its note are not the start of the uncapped %d", len(body), len(full))
	case kept > max || kept+len(next)+1 <= max:
		t.Errorf("the spool stopped after %d bytes, before a line of %d: want the last line that fits in %d", kept, len(next)+1, max)
	case !bytes.Contains(note, []byte(`"kind":"error"`)):
		t.Errorf("the last line is not the note: %s", note)
	}
}

// splitLastLine splits b, whole lines, before its last line.
func splitLastLine(b []byte) (before, last []byte) {
	i := bytes.LastIndexByte(b[:len(b)-1], '\n')
	return b[:i+1], b[i+1:]
}

// failAfter writes to w until left bytes have gone, writing a short part
// of the write that passes it, then fails as a full disk does.
type failAfter struct {
	w    io.Writer
	left int
}

func (f *failAfter) Write(p []byte) (int, error) {
	if len(p) <= f.left {
		f.left -= len(p)
		return f.w.Write(p)
	}
	n, _ := f.w.Write(p[:f.left])
	f.left = 0
	return n, &os.PathError{Op: "write", Path: "/full/disk/mcpwitness-spool-1.jsonl", Err: syscall.ENOSPC}
}

// A cap smaller than the header is refused, and no file is left behind.
func TestSpoolCapBelowTheHeader(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	target := TargetInfo{Transport: "stdio", Command: []string{"true"}}
	_, err := NewSpool(NewHeader("test", target), NewRedactor(nil), &SpoolOptions{Max: 10})
	if err == nil || err.Error() != "writing the session spool file: its cap of 10 B is less than the header" {
		t.Errorf("a spool capped at 10 bytes: err = %v", err)
	}
	if names := dirNames(t, tmp); len(names) != 0 {
		t.Errorf("a refused spool left %q behind", names)
	}
}

// BenchmarkSpoolWrite writes stderr events of 200 bytes to a spool of its
// own under its cap: what the bound costs each event.
func BenchmarkSpoolWrite(b *testing.B) {
	target := TargetInfo{Transport: "stdio", Command: []string{"true"}}
	s, err := NewSpool(NewHeader("test", target), NewRedactor(nil), &SpoolOptions{Max: 1 << 40})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ev := stderrEvent(1, strings.Repeat("b", 200))
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		ev.Seq = int64(i + 1)
		s.Write(ev)
	}
}

// The status line's brief of the spool's stop fits 80 columns, at the
// largest cap and with the longest clock; the event keeps the whole text.
func TestSpoolStoppedBriefFitsEightyColumns(t *testing.T) {
	t.Parallel()
	full := "the export spool reached 1023.9 GiB at 23:59:59; later events are not in exports " +
		"(record with --record FILE to keep everything, or raise --spool-max)"
	got := SpoolStoppedBrief(Event{Kind: KindError, Text: full})
	if got != "the export spool reached 1023.9 GiB at 23:59:59; later events are not in exports" || len(got) > 80 {
		t.Errorf("SpoolStoppedBrief = %q (%d columns)", got, len(got))
	}
	if odd := "the export spool stopped"; SpoolStoppedBrief(Event{Kind: KindError, Text: odd}) != odd {
		t.Errorf("a text with no clause after ; became %q", SpoolStoppedBrief(Event{Kind: KindError, Text: odd}))
	}
}
