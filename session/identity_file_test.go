package session

import (
	"bytes"
	"context"
	"slices"
	"testing"

	"mcpwitness/paging"
	"mcpwitness/record"
)

// TestServersOfARecord records two servers through one shared log, as the
// UI over several servers does, and reads each back on its own: its
// events only, its pages' items read back from its own frames.
func TestServersOfARecord(t *testing.T) {
	t.Parallel()
	shared := record.NewLog(nil)
	var out bytes.Buffer
	rec, err := record.NewRecorder(&out, record.NewHeader("mcpwitness test", Target{Name: "two"}.Describe()), nil)
	if err != nil {
		t.Fatal(err)
	}
	shared.AddSink(rec.Write)
	names := [][]string{{"alpha", "alpha-copy"}, {"beta"}}
	var sessions []*Session
	for _, n := range names {
		log := record.NewLog(nil)
		log.AddSink(record.Forward(shared, n))
		info := Target{Name: n[0]}.Describe()
		log.Append(record.Event{Kind: record.KindServer, Target: &info})
		sessions = append(sessions, demoInMemory(t, &Options{Log: log}))
	}
	ctx := context.Background()
	// Interleaved walks, so the frames of both are mixed in the file.
	for range 2 {
		for _, s := range sessions {
			if _, res := s.Walk(ctx, paging.Tools()); res.Incomplete != paging.Complete {
				t.Fatalf("walk: %s %v", res.Incomplete, res.Err)
			}
		}
	}
	shared.Close()
	if err := rec.Err(); err != nil {
		t.Fatal(err)
	}

	f, err := record.NewFile(bytes.NewReader(out.Bytes()), int64(out.Len()), "two.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	servers, files, err := f.Servers()
	if err != nil {
		t.Fatal(err)
	}
	if len(servers) != 2 || !slices.Equal(servers[0].Names, names[0]) || servers[0].Target == nil || servers[0].Target.Name != "alpha" {
		t.Fatalf("servers = %+v", servers)
	}
	for i, srv := range servers {
		g := files[i]
		if g.Len() != srv.Events || g.Meta().Server == nil || g.Meta().Target.Name != names[i][0] {
			t.Errorf("%s: %d events (want %d), meta %+v", srv.Name(), g.Len(), srv.Events, g.Meta())
		}
		pages := 0
		for ev, err := range g.Events() {
			if err != nil {
				t.Fatalf("%s: %v", srv.Name(), err)
			}
			if !slices.Equal(ev.Source, srv.Names) {
				t.Fatalf("%s holds an event of %v", srv.Name(), ev.Source)
			}
			if ev.Kind == record.KindPage {
				pages++
				if len(ev.Items) == 0 || len(ev.Items) != ev.Page.Count {
					t.Errorf("%s: page %d has %d items read back, count %d", srv.Name(), ev.Page.Number, len(ev.Items), ev.Page.Count)
				}
			}
		}
		if pages < 2 {
			t.Errorf("%s: %d pages", srv.Name(), pages)
		}
	}
	// A file of one server, from before several could be recorded, has none.
	old, err := record.OpenFile("testdata/walk-items.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	if s, _, err := old.Servers(); err != nil || len(s) != 0 {
		t.Errorf("a file of one server: servers %+v, %v", s, err)
	}
}
