package main

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mcpwitness/record"
)

// The terminal UI refuses to start without a terminal before --record
// touches its file (the headless commands' record, whose wiring the UI
// shares, is never overwritten either: see the e2e tests).
func TestTUIRecordNeverOverwrites(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte("evidence\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "--record", path)
	if code != exitUsage || stdout != "" || !strings.Contains(stderr, "needs a terminal") {
		t.Errorf("--record over a file: exit %d, stdout %q, stderr %q; want 2 and the reason", code, stdout, stderr)
	}
	if b, _ := os.ReadFile(path); string(b) != "evidence\n" {
		t.Errorf("the file now holds %q", b)
	}
}

// A command line the terminal UI refuses makes no record file.
func TestTUIRefusedMakesNoRecord(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "run.jsonl")
	code, _, stderr := runCLI(t, "--json", "--record", path)
	if code != exitUsage || !strings.Contains(stderr, "--json is not a flag of the terminal UI") {
		t.Errorf("the UI with --json: exit %d, stderr %q; want 2 and the reason", code, stderr)
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a refused command line left %s (%v)", path, err)
	}
}

// TestEndToEndRecord runs the terminal UI in tmux with --record, exports
// with e, and quits: the record, written through main's log, holds the
// whole session, and the export holds what was there when e was pressed,
// copied from the record (no spool file beside it: each event is written
// once), byte for byte.
func TestEndToEndRecord(t *testing.T) {
	t.Parallel()
	needTmux(t)
	work, tmp := t.TempDir(), t.TempDir()
	x := startTmux(t, work, 120, 40, "export TMPDIR="+shellQuote(tmp)+"; "+shellLine(t, "shell before mcpwitness", "--record", "run.jsonl"))
	x.wait(`✓ \d+ pages · \d+ tools`)
	x.keys("e")
	x.wait(`exported \d+ lines to \S+mcpwitness-\d{8}-\d{6}\.jsonl`)
	if spools, _ := filepath.Glob(filepath.Join(tmp, "mcpwitness-spool-*")); len(spools) != 0 {
		t.Errorf("with --record the UI keeps a spool as well: %q", spools)
	}
	x.keys("q")
	x.wait(`(?s)shell before mcpwitness\s*\nexit 0\s*$`)

	exports, _ := filepath.Glob(filepath.Join(work, "mcpwitness-*.jsonl"))
	if len(exports) != 1 {
		t.Fatalf("exports in %s: %v", work, exports)
	}
	recorded := readSession(t, filepath.Join(work, "run.jsonl"))
	export := readSession(t, exports[0])
	// One log, one header: the record and the export start alike.
	if rh, eh := recorded.Header(), export.Header(); rh.Tool != toolName() || !rh.Started.Equal(eh.Started) || rh.Target.String() != eh.Target.String() {
		t.Errorf("record header %+v, export header %+v", rh, eh)
	}
	kinds := map[record.Kind]int{}
	for ev, err := range recorded.Events() {
		if err != nil {
			t.Fatal(err)
		}
		kinds[ev.Kind]++
	}
	for _, k := range []record.Kind{record.KindConnect, record.KindWire, record.KindPage, record.KindWalk, record.KindClosed} {
		if kinds[k] == 0 {
			t.Errorf("the record has no %s events (kinds: %v)", k, kinds)
		}
	}
	if recorded.Len() <= export.Len() {
		t.Errorf("the record has %d events, the export %d; the record goes on to the session's end", recorded.Len(), export.Len())
	}
	rb, _ := os.ReadFile(filepath.Join(work, "run.jsonl"))
	eb, _ := os.ReadFile(exports[0])
	if len(eb) == 0 || !bytes.HasPrefix(rb, eb) {
		t.Errorf("the export (%d bytes) is not the start of the record (%d bytes)", len(eb), len(rb))
	}
}

// readSession opens a session file that must read whole.
func readSession(t *testing.T, path string) *record.File {
	t.Helper()
	f, err := record.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	if len(f.Warnings()) != 0 {
		t.Errorf("%s: warnings %q", path, f.Warnings())
	}
	return f
}
