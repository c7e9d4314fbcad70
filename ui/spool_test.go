package ui

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"mcpwitness/fold"
	"mcpwitness/record"
	"mcpwitness/session"
)

// spoolHarness opens the UI on the demo server with a spool capped at max
// bytes that exports into dir, wired as the command line wires the
// terminal UI's spool: when it stops, the session's log says so.
func spoolHarness(t *testing.T, max int64, dir string) *harness {
	t.Helper()
	target := demoTarget(t)
	log := record.NewLog(nil)
	spool, err := record.NewSpool(record.NewHeader("test", target.Describe()), target.Secrets(), &record.SpoolOptions{
		Max:     max,
		Stopped: func(ev record.Event) { go log.Append(ev) },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { spool.Close() })
	log.AddSink(spool.Write)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := session.Dial(ctx, target, &session.Options{Log: log, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	h := newHarness(t, options{Backend: s, Export: func(ctx context.Context) (record.Exported, error) { return spool.Export(ctx, dir) }})
	h.bridge(log)
	info := s.Info()
	h.feed(record.Event{Kind: record.KindConnect, Server: &info})
	return h
}

// spoolRows counts the rows of the events pane that say the spool stopped.
func spoolRows(st *fold.State) int {
	n := 0
	for i := range st.Rows().Len() {
		if r := st.Rows().At(i); r.Kind == fold.RowError && strings.HasPrefix(r.Text, "the export spool reached") {
			n++
		}
	}
	return n
}

// A spool that reaches its cap while the demo's lists are walked says so on
// the status line, once, as it happens; e then exports what it holds and
// says where the spool stopped and why; and the export, opened, shows the
// note that ends it.
func TestSpoolCapIsSaidOnceAndExportKeepsWhatWasWritten(t *testing.T) {
	dir := t.TempDir()
	h := spoolHarness(t, 16<<10, dir)
	h.until("the status line to say the spool stopped", func() bool {
		return strings.HasPrefix(h.m.status.text, "the export spool reached 16 KiB at ")
	})
	if h.m.status.level != levelWarn {
		t.Errorf("the spool's stop is said at level %v, want a warning", h.m.status.level)
	}
	if !strings.HasSuffix(h.m.status.text, "; later events are not in exports") {
		t.Errorf("the status line says %q, want that exports lack what follows", h.m.status.text)
	}
	if s := h.screen(); !strings.Contains(s, "the export spool reached 16 KiB at") {
		t.Errorf("the screen does not say the spool stopped:\n%s", s)
	}
	h.firstWalks()
	h.key("r") // more events: the spool says nothing more
	h.until("the walk again", func() bool {
		walks := h.m.St.Walks()
		return len(walks) == 5 && walks[4].Done && !h.m.ops.walking()
	})
	h.drain()
	if n := spoolRows(h.m.St); n != 1 {
		t.Errorf("%d rows say the spool stopped, want one", n)
	}

	h.key("e")
	exported := regexp.MustCompile(`^exported (\d+) lines to (\S+\.jsonl) \(the spool stopped at \d\d:\d\d:\d\d: it reached its cap of 16 KiB\)$`)
	h.until("the export", func() bool { return !h.m.ops.export && exported.MatchString(h.m.status.text) })
	path := exported.FindStringSubmatch(h.m.status.text)[2]

	r := replayHarness(t, path, 120, 40, "dark")
	if n := spoolRows(r.m.St); n != 1 {
		t.Fatalf("the export, opened, has %d rows saying the spool stopped; want its last", n)
	}
	rows := r.m.St.Rows()
	if last := rows.At(rows.Len() - 1); !strings.HasPrefix(last.Text, "the export spool reached 16 KiB at ") {
		t.Errorf("the export, opened, ends with %s %q; want the note", last.Kind, last.Text)
	}
}

// With several servers the spool is the shared log's: when it stops at its
// cap, every server's status line says so, though no server's own log,
// which its screen folds, has the event.
func TestSpoolCapIsSaidOnEveryServer(t *testing.T) {
	shared := record.NewLog(nil)
	target := session.Target{Name: "two demos"}
	spool, err := record.NewSpool(record.NewHeader("test", target.Describe()), nil, &record.SpoolOptions{
		Max:     16 << 10,
		Stopped: func(ev record.Event) { go shared.Append(ev) },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { spool.Close() })
	shared.AddSink(spool.Write)
	notes := shared.Subscribe()
	t.Cleanup(notes.Close)
	forwarded := func(names []string, dial func(context.Context, *record.Log) (Backend, error)) func(context.Context, *record.Log) (Backend, error) {
		return func(ctx context.Context, log *record.Log) (Backend, error) {
			log.AddSink(record.Forward(shared, names))
			return dial(ctx, log)
		}
	}
	h := newServersHarness(t, [][]string{{"alpha"}, {"beta"}}, []func(context.Context, *record.Log) (Backend, error){
		forwarded([]string{"alpha"}, demoDial(t)), forwarded([]string{"beta"}, demoDial(t)),
	})
	go spoolNotes(notes.C(), len(h.r.servers), func(msg tea.Msg) {
		select {
		case h.msgs <- msg:
		case <-h.done:
		}
	})
	said := func(i int) bool {
		return strings.HasPrefix(h.r.servers[i].m.status.text, "the export spool reached 16 KiB at ")
	}
	h.until("both servers' status lines to say the spool stopped", func() bool { return said(0) && said(1) })
	if s := h.screen(); !strings.Contains(s, "the export spool reached 16 KiB at") {
		t.Errorf("the screen does not say the spool stopped:\n%s", s)
	}
	for i, v := range h.r.servers {
		if n := spoolRows(v.m.St); n != 0 {
			t.Errorf("server %d folded %d rows of the shared spool; its events are its own", i+1, n)
		}
	}
}
