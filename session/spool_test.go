package session

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"mcpwitness/paging"
	"mcpwitness/record"
)

// With a record (--record), the UI's export copies the record instead of a
// spool of its own: a session over stdio, walked and called, exports the
// same bytes either way, each event written once; and the record outlives
// the spool that follows it.
func TestExportOfARecordEqualsTheSpool(t *testing.T) {
	t.Parallel()
	target := demoStdio(t)
	h := record.NewHeader("test", target.Describe())
	own, err := record.NewSpool(h, target.Secrets(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { own.Close() })
	path := filepath.Join(t.TempDir(), "run.jsonl")
	rec, err := record.CreateRecord(path, h, target.Secrets())
	if err != nil {
		t.Fatal(err)
	}
	followed, err := record.FollowRecord(rec)
	if err != nil {
		t.Fatal(err)
	}
	log := record.NewLog(nil)
	log.AddSink(own.Write)
	log.AddSink(rec.Write)
	log.AddSink(followed.Write) // writes nothing: the record's sink does

	s := dial(t, target, &Options{Log: log})
	ctx := context.Background()
	if _, res := s.Walk(ctx, paging.Tools()); res.Err != nil || res.Incomplete != "" {
		t.Fatalf("walk: %v %q", res.Err, res.Incomplete)
	}
	if r := s.Call(ctx, "add", json.RawMessage(`{"a":2,"b":3}`), nil); r.Err != nil {
		t.Fatal(r.Err)
	}
	s.Close()
	log.Close()

	dir := t.TempDir()
	ex, err := own.Export(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	ownPath, ownLines := ex.Path, ex.Lines
	fx, err := followed.Export(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	recPath, recLines := fx.Path, fx.Lines
	a, _ := os.ReadFile(ownPath)
	b, _ := os.ReadFile(recPath)
	if ownLines < 20 || recLines != ownLines || string(a) != string(b) {
		t.Errorf("the export of the record (%d lines, %d bytes) differs from the spool's (%d lines, %d bytes)", recLines, len(b), ownLines, len(a))
	}
	openExport(t, recPath, int(recLines-1))
	if err := followed.Close(); err != nil {
		t.Fatal(err)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	if c, err := os.ReadFile(path); err != nil || string(c) != string(a) {
		t.Errorf("the record after its spool closed: %d bytes (%v), want the %d exported", len(c), err, len(a))
	}
}

// openExport opens an exported file and checks it reads whole: a header,
// n events, no warnings.
func openExport(t *testing.T, path string, n int) {
	t.Helper()
	f, err := record.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Len() != n || len(f.Warnings()) != 0 {
		t.Errorf("%s has %d events and warnings %q; want %d and none", path, f.Len(), f.Warnings(), n)
	}
}
