package record

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// A line the spool holds only part of (it is being written) is not
// exported.
func TestExportLeavesOutALineInProgress(t *testing.T) {
	t.Parallel()
	s := newTestSpool(t)
	s.Write(stderrEvent(1, "whole"))
	if _, err := s.rec.f.WriteString(`{"seq":2,"t":"2026-12-01T05:30:00Z","kind":"std`); err != nil {
		t.Fatal(err)
	}
	ex, err := s.Export(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	path, lines := ex.Path, ex.Lines
	b, _ := os.ReadFile(path)
	if lines != 2 || !strings.HasSuffix(string(b), "\"text\":\"whole\"}\n") {
		t.Errorf("export of %d lines:\n%s", lines, b)
	}
}

// An export never replaces a file: a name that is taken gets the next
// number, and the file under the taken name is untouched.
func TestExportNeverOverwrites(t *testing.T) {
	t.Parallel()
	s := newTestSpool(t)
	s.Write(stderrEvent(1, "line"))
	dir := t.TempDir()
	now := time.Date(2026, 12, 1, 5, 30, 0, 0, time.Local)
	taken := filepath.Join(dir, "mcpwitness-20261201-053000.jsonl")
	if err := os.WriteFile(taken, []byte("someone else's\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"mcpwitness-20261201-053000-2.jsonl", "mcpwitness-20261201-053000-3.jsonl"} {
		ex, err := s.export(context.Background(), dir, now)
		if err != nil {
			t.Fatal(err)
		}
		path := ex.Path
		if filepath.Base(path) != want {
			t.Errorf("export named %s, want %s", filepath.Base(path), want)
		}
		openExport(t, path, 1)
	}
	if b, _ := os.ReadFile(taken); string(b) != "someone else's\n" {
		t.Errorf("the taken file now holds %q", b)
	}
}

// Exports taken while events stream in are each a whole session file: the
// line being written is left for the next export, never cut in half.
func TestExportOfALiveLogIsWhole(t *testing.T) {
	t.Parallel()
	s := newTestSpool(t)
	log := NewLog(nil)
	log.AddSink(s.Write)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		// A bounded stream (at most ~15 MB), so a slow export cannot let
		// it fill the disk.
		text := strings.Repeat("stderr of a busy server ", 200)
		for range 3000 {
			select {
			case <-stop:
				return
			default:
				log.Append(Event{Kind: KindStderr, Text: text})
			}
		}
	})
	dir := t.TempDir()
	last := -1
	for i := range 20 {
		ex, err := s.export(context.Background(), dir, time.Unix(int64(i), 0))
		if err != nil {
			t.Fatal(err)
		}
		path, lines := ex.Path, ex.Lines
		f, err := OpenFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(f.Warnings()) != 0 || int64(f.Len()) != lines-1 || f.Len() < last {
			t.Errorf("export %d: %d events in %d lines (previous export %d events), warnings %q", i, f.Len(), lines, last, f.Warnings())
		}
		last = f.Len()
		f.Close()
	}
	close(stop)
	wg.Wait()
	log.Close()
}

// A record streams each event as it comes, and Close says when a write
// failed.
func TestRecordFileStreamsAndReportsAFailedWrite(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "run.jsonl")
	r := createTestRecord(t, path)
	r.Write(stderrEvent(1, "first"))
	openExport(t, path, 1)
	r.f.Close() // the disk goes away under the record
	r.Write(stderrEvent(2, "lost"))
	if err := r.Close(); err == nil || !strings.Contains(err.Error(), "writing session record") {
		t.Errorf("Close after a failed write = %v, want the write's error", err)
	}
	openExport(t, path, 1)
}

// The spool holds the session on disk, not in memory: tens of MB of events
// leave the heap where it was, through writes and an export.
func TestSpoolIsBoundedByDiskNotMemory(t *testing.T) {
	s := newTestSpool(t)
	line := strings.Repeat("x", 16<<10)
	const events = 2048 // 32 MiB
	base := heapAfterGC()
	for i := range events {
		s.Write(stderrEvent(i+1, line))
	}
	st, err := s.rec.f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	if st.Size() < events*int64(len(line)) {
		t.Errorf("the spool file holds %d bytes, less than the %d written", st.Size(), events*len(line))
	}
	ex, err := s.Export(context.Background(), t.TempDir())
	path, lines := ex.Path, ex.Lines
	if err != nil || lines != events+1 {
		t.Fatalf("export: %d lines, %v", lines, err)
	}
	if grew := int64(heapAfterGC()) - int64(base); grew > 8<<20 {
		t.Errorf("the heap grew by %d MiB for a 32 MiB session; the spool must keep it on disk", grew>>20)
	}
	if st, err := os.Stat(path); err != nil || st.Size() < events*int64(len(line)) {
		t.Errorf("the export holds %v bytes (%v)", st.Size(), err)
	}
}

// exportForever exports 1 MiB of session lines into dir from a source that
// stops answering after the first 64 KiB: the export hangs mid-write until
// the process is killed.
func exportForever(dir string) {
	line := []byte(`{"seq":1,"t":"2026-12-01T05:30:00Z","kind":"stderr","text":"` + strings.Repeat("y", 1000) + "\"}\n")
	src := stallingReader{line: line, stallAt: 64 << 10}
	exportLines(context.Background(), src, int64(len(line))*1024, dir, time.Now())
	os.Exit(3) // unreachable: the source never ends
}

// newTestSpool is a spool for a stdio target, removed when the test ends.
func newTestSpool(t *testing.T) *Spool {
	t.Helper()
	return newSpoolWith(t, nil)
}

func stderrEvent(seq int, text string) Event {
	return Event{Seq: int64(seq), T: time.Now(), Kind: KindStderr, Text: text}
}

// createTestRecord creates the record path of a session with a stdio
// target, failing the test if it cannot.
func createTestRecord(t *testing.T, path string) *RecordFile {
	t.Helper()
	target := TargetInfo{Transport: "stdio", Command: []string{"true"}}
	rec, err := CreateRecord(path, NewHeader("test", target), NewRedactor(nil))
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

func heapAfterGC() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// crashEnv makes the test binary a process that exports a session into
// the directory it names and is killed while writing it.
const crashEnv = "MCPWITNESS_TEST_EXPORT_CRASH"

func init() {
	if dir := os.Getenv(crashEnv); dir != "" {
		exportForever(dir)
	}
}

// stallingReader reads as an endless repetition of line, and blocks for
// good at and after stallAt.
type stallingReader struct {
	line    []byte
	stallAt int64
}

func (r stallingReader) ReadAt(p []byte, off int64) (int, error) {
	if off >= r.stallAt {
		select {}
	}
	for i := range p {
		p[i] = r.line[(off+int64(i))%int64(len(r.line))]
	}
	return len(p), nil
}

// A failed export says what failed and keeps the session: the next export
// to a place that works holds everything.
func TestExportFailureKeepsTheSession(t *testing.T) {
	t.Parallel()
	s := newTestSpool(t)
	for i := range 50 {
		s.Write(stderrEvent(i+1, "line"))
	}
	blocker := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(blocker, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Export(context.Background(), filepath.Join(blocker, "sub")); err == nil || !strings.Contains(err.Error(), "creating a file in") {
		t.Fatalf("export into a file's path: err = %v", err)
	}

	dir := t.TempDir()
	ex, err := s.Export(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	path, lines := ex.Path, ex.Lines
	if lines != 51 {
		t.Errorf("exported %d lines, want the header and 50 events", lines)
	}
	if !filepath.IsAbs(path) || filepath.Dir(path) != dir {
		t.Errorf("export path %q: want an absolute path in %s", path, dir)
	}
	openExport(t, path, 50)
	again, err := s.Export(context.Background(), dir)
	if err != nil || again.Path == path {
		t.Errorf("a second export = %q (%v); it must not replace %q", again.Path, err, path)
	}
	if names := dirNames(t, dir); len(names) != 2 {
		t.Errorf("%s holds %q; want the two exports and nothing else", dir, names)
	}
}

// A process killed in the middle of an export leaves no file under an
// export's name: only the hidden temporary file, which holds what was
// written.
func TestExportKilledMidWriteLeavesNoPartialFile(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), crashEnv+"="+dir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	var tmp string
	for deadline := time.Now().Add(2 * time.Minute); tmp == ""; {
		if time.Now().After(deadline) {
			t.Fatalf("the export never wrote 64 KiB; %s holds %q", dir, dirNames(t, dir))
		}
		matches, _ := filepath.Glob(filepath.Join(dir, ".mcpwitness-export-*.tmp"))
		if len(matches) == 1 {
			if st, err := os.Stat(matches[0]); err == nil && st.Size() >= 64<<10 {
				tmp = matches[0]
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if finals, _ := filepath.Glob(filepath.Join(dir, "mcpwitness-*.jsonl")); len(finals) != 0 {
		t.Errorf("a killed export left %q under an export's name", finals)
	}
	if st, err := os.Stat(tmp); err != nil || st.Size() >= 1<<20 {
		t.Errorf("the temporary file: %v, %v; want a partial file left behind", st, err)
	}
}

// A record is never written over an existing file.
func TestCreateRecordNeverOverwrites(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte("evidence\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	target := TargetInfo{Transport: "stdio", Command: []string{"true"}}
	_, err := CreateRecord(path, NewHeader("test", target), NewRedactor(nil))
	if !errors.Is(err, fs.ErrExist) {
		t.Errorf("CreateRecord over a file: err = %v, want fs.ErrExist", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "evidence\n" {
		t.Errorf("the file now holds %q", b)
	}
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// A spool cannot follow a record whose name now holds another file: it
// would export the wrong session.
func TestFollowRecordRefusesAReplacedFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "run.jsonl")
	rec := createTestRecord(t, path)
	defer rec.Close()
	if err := os.Rename(path, path+".moved"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("another\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := FollowRecord(rec); err == nil || !strings.Contains(err.Error(), "no longer the record") {
		t.Errorf("FollowRecord of a replaced file: err = %v", err)
	}
}

// openExport opens an exported file and checks it reads whole: a header,
// n events, no warnings.
func openExport(t *testing.T, path string, n int) {
	t.Helper()
	f, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Len() != n || len(f.Warnings()) != 0 {
		t.Errorf("%s has %d events and warnings %q; want %d and none", path, f.Len(), f.Warnings(), n)
	}
}
