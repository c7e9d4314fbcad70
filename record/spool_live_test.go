package record_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mcpwitness/demo"
	"mcpwitness/paging"
	"mcpwitness/record"
	"mcpwitness/session"
)

// demoInMemory dials the demo server over an in-memory transport.
func demoInMemory(t *testing.T, opts *session.Options) *session.Session {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := demo.New(nil).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	opts.Timeout = 10 * time.Second
	s, err := session.Dial(ctx, session.Target{Transport: ct, Name: "demo"}, opts)
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// A spool of its own stops at its cap: a session's real events (a walk of
// the demo's tools, some 40 KiB) fill 4 KiB; the export holds every line
// that fitted, exactly as an uncapped spool wrote them, then one event
// saying when and why the spool stopped, and the spool's owner hears of it
// once, with that event.
func TestSpoolStopsAtItsCap(t *testing.T) {
	t.Parallel()
	const max = 4 << 10
	var stops []record.Event
	capped := record.NewSpoolWith(t, &record.SpoolOptions{Max: max, Stopped: func(ev record.Event) { stops = append(stops, ev) }})
	whole := record.NewSpoolWith(t, &record.SpoolOptions{Max: -1})
	log := record.NewLog(nil)
	log.AddSink(capped.Write)
	log.AddSink(whole.Write)
	s := demoInMemory(t, &session.Options{Log: log})
	ctx := context.Background()
	if _, res := s.Walk(ctx, paging.Tools()); res.Err != nil || res.Incomplete != "" {
		t.Fatalf("walk: %v %q", res.Err, res.Incomplete)
	}
	if _, res := s.Walk(ctx, paging.Tools()); res.Err != nil {
		t.Fatalf("second walk: %v", res.Err)
	}
	if len(stops) != 1 {
		t.Fatalf("the spool said it stopped %d times, want once: %+v", len(stops), stops)
	}
	stop := stops[0]
	at := stop.T.Format(time.TimeOnly)
	wantText := "the export spool reached 4 KiB at " + at + "; later events are not in exports (record with --record FILE to keep everything, or raise --spool-max)"
	if stop.Kind != record.KindError || stop.Text != wantText || !record.SpoolStopped(stop) {
		t.Errorf("the stop event: %s %q\nwant error %q", stop.Kind, stop.Text, wantText)
	}

	dir := t.TempDir()
	ex, err := capped.Export(ctx, dir)
	if err != nil {
		t.Fatalf("export of a spool at its cap: %v", err)
	}
	if want := "the spool stopped at " + at + ": it reached its cap of 4 KiB"; ex.Stopped != want {
		t.Errorf("the export's note = %q, want %q", ex.Stopped, want)
	}
	all, err := whole.Export(ctx, dir)
	if err != nil || all.Stopped != "" {
		t.Fatalf("export of the uncapped spool: %+v, %v", all, err)
	}
	got, _ := os.ReadFile(ex.Path)
	full, _ := os.ReadFile(all.Path)
	record.CheckStoppedAtCap(t, got, full, max)
	last := record.LastEvent(t, ex.Path, int(ex.Lines)-1)
	if last.Kind != record.KindError || last.Text != wantText || last.Seq <= 0 {
		t.Errorf("the export ends with %s #%d %q; want the note", last.Kind, last.Seq, last.Text)
	}

	// Later exports hold the same, and nothing more is written.
	again, err := capped.Export(ctx, dir)
	if err != nil || again.Lines != ex.Lines || again.Stopped != ex.Stopped {
		t.Errorf("a later export: %+v, %v; want %d lines as the first", again, err, ex.Lines)
	}
	if st, _ := record.SpoolFileStat(capped); st.Size() != int64(len(got)) {
		t.Errorf("the spool file grew to %d bytes after its note (%d)", st.Size(), len(got))
	}
}
