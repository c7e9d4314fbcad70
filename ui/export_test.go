package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mcpwitness/session"
)

// A failed export says what failed and keeps the session: the next export
// to a place that works holds everything.
func TestExportFailureKeepsTheSession(t *testing.T) {
	r, err := newRecording(Config{Target: session.Target{Command: []string{"true"}}, Tool: "test"})
	if err != nil {
		t.Fatal(err)
	}
	defer r.close()
	for i := range 50 {
		r.write(session.Event{Seq: int64(i + 1), T: time.Now(), Kind: session.KindStderr, Text: "line"})
	}

	blocker := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(blocker, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	r.dir = filepath.Join(blocker, "sub") // a directory that cannot exist
	_, _, err = r.export(context.Background())
	if err == nil || !strings.Contains(err.Error(), "creating a file in") {
		t.Fatalf("export into a file's path: err = %v", err)
	}

	r.dir = t.TempDir()
	path, lines, err := r.export(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if lines != 51 {
		t.Errorf("exported %d lines, want the header and 50 events", lines)
	}
	f, err := session.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Len() != 50 || len(f.Warnings()) != 0 {
		t.Errorf("the export has %d events and warnings %v", f.Len(), f.Warnings())
	}
	again, _, err := r.export(context.Background())
	if err != nil || again == path {
		t.Errorf("a second export = %q (%v); it must not replace %q", again, err, path)
	}
}
