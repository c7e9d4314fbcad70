package fold_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mcpwitness/demo"
	"mcpwitness/fold"
	"mcpwitness/paging"
	"mcpwitness/record"
	"mcpwitness/session"
)

// fixture is the session file `open` replays in the UI's golden tests,
// recorded from the demo server: one walk of five pages, three calls.
const fixture = "../ui/testdata/demo-session.jsonl"

// foldFile folds every event of the session file at path.
func foldFile(t *testing.T, path string) *fold.State {
	t.Helper()
	f, err := record.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := fold.New(nil)
	for ev, err := range f.Events() {
		if err != nil {
			t.Fatal(err)
		}
		s.Apply(ev)
	}
	return s
}

func TestFoldsTheFixture(t *testing.T) {
	s := foldFile(t, fixture)
	if srv := s.Server(); srv == nil || srv.Name != "mcpwitness-demo" || srv.Transport != "in-memory" {
		t.Errorf("server %+v", srv)
	}
	if !s.Closed() || s.ClosedWhy() != "session closed" || s.Gen() != 10 || s.Out() != 0 {
		t.Errorf("closed %v %q, gen %d out %d", s.Closed(), s.ClosedWhy(), s.Gen(), s.Out())
	}
	// Tools, then resources (3 pages), templates and prompts (1 each).
	walks := s.Walks()
	var lists []string
	for _, w := range walks {
		lists = append(lists, fmt.Sprintf("%s:%d:%d", w.Method, len(w.Pages), len(s.Items(w))))
	}
	if got, want := strings.Join(lists, " "), "tools/list:5:0 resources/list:3:30 resources/templates/list:1:3 prompts/list:1:3"; got != want {
		t.Fatalf("walks %s, want %s", got, want)
	}
	w := walks[0]
	if w.Method != "tools/list" || !w.Complete() || w.Items != 49 || len(w.Tools) != 49 || w.Generation != 5 {
		t.Errorf("walk %+v", w)
	}
	var pages []string
	for _, p := range w.Pages {
		pages = append(pages, fmt.Sprintf("%d:gen%d:%d@%d", p.Number, p.Generation, p.Count, p.First))
	}
	if got, want := strings.Join(pages, " "), "1:gen1:10@0 2:gen2:10@10 3:gen3:10@20 4:gen4:10@30 5:gen5:9@40"; got != want {
		t.Errorf("pages %s, want %s", got, want)
	}
	// Five pages: a typical client does not hold its checks.
	if s.Held(w) || w.Stale() || s.Shown() != w {
		t.Errorf("held %v stale %v shown %v", s.Held(w), w.Stale(), s.Shown() == w)
	}
	for i, tool := range w.Tools {
		if tool.Walk != 1 || tool.Gen != int64(i/10+1) || tool.Page != i/10+1 || tool.Bad != "" {
			t.Errorf("tool %d %s: walk %d page %d gen %d bad %q", i, tool.Name, tool.Walk, tool.Page, tool.Gen, tool.Bad)
		}
	}
	type call struct {
		tool     string
		outcome  fold.Outcome
		gen      int64
		verdicts int
		reqID    string
	}
	var got []call
	for _, c := range s.Calls() {
		got = append(got, call{c.Tool, c.Outcome(), c.Generation, len(c.Verdicts), c.RequestID})
	}
	want := []call{{"weather", fold.OutcomePass, 5, 4, "13"}, {"forecast_broken", fold.OutcomeFail, 2, 4, "14"},
		{"render_video", fold.OutcomeRefused, 3, 2, ""}}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(call{})); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	if n := len(s.CallsOf("weather")); n != 1 || len(s.Running()) != 0 {
		t.Errorf("%d weather calls, %d running", n, len(s.Running()))
	}
	var kinds []string
	for i := range s.Rows().Len() {
		r := s.Rows().At(i)
		kinds = append(kinds, string(r.Kind)+"/"+string(r.Level))
	}
	if got, want := strings.Join(kinds, " "), "connect/info instructions/ notify/ walk/info walk/info walk/info walk/info call/ call/error call/warn "+
		"request/info request/error request/info request/info request/info closed/"; got != want {
		t.Errorf("rows %s, want %s", got, want)
	}
	if n := s.Frames().Len(); n != 39 {
		t.Errorf("%d frames, want 39", n)
	}
}

// evs builds events shaped as a session records them, numbered and timed.
type evs struct {
	seq    int64
	gen    int64
	out    int
	all    []record.Event
	walkID int64
}

func (b *evs) add(ev record.Event) {
	b.seq++
	ev.Seq, ev.T = b.seq, time.Date(2026, 12, 1, 14, 0, 0, 0, time.UTC).Add(time.Duration(b.seq)*time.Millisecond)
	b.all = append(b.all, ev)
}

// request sends a list request for page n of walk id: one more out.
func (b *evs) request(id int64, n int) {
	b.out++
	b.add(record.Event{Kind: record.KindListRequest, Method: "tools/list", Gen: b.gen, Out: b.out,
		Walk: &record.WalkInfo{ID: id, Method: "tools/list", State: "request"}, Page: &paging.Page{Number: n}})
}

// page answers the request: it settles, starting a generation.
func (b *evs) page(id int64, n int, names ...string) {
	b.out--
	b.gen++
	items := make([]json.RawMessage, len(names))
	for i, name := range names {
		items[i] = json.RawMessage(fmt.Sprintf(`{"name":%q,"inputSchema":{"type":"object"}}`, name))
	}
	b.add(record.Event{Kind: record.KindPage, Method: "tools/list", Gen: b.gen, Out: b.out, Items: items,
		Walk: &record.WalkInfo{ID: id, Method: "tools/list", State: "page"},
		Page: &paging.Page{Number: n, Count: len(items), Generation: b.gen}})
}

// walk walks the tools list, one page per entry of pages; incomplete, when
// set, is how it ended.
func (b *evs) walk(incomplete paging.Incomplete, errText string, pages ...[]string) int64 {
	b.walkID++
	id := b.walkID
	b.add(record.Event{Kind: record.KindWalk, Method: "tools/list", Walk: &record.WalkInfo{ID: id, Method: "tools/list", State: "start"}})
	items := 0
	for i, names := range pages {
		b.request(id, i+1)
		b.page(id, i+1, names...)
		items += len(names)
	}
	b.add(record.Event{Kind: record.KindWalk, Method: "tools/list", Gen: b.gen, Out: b.out,
		Walk: &record.WalkInfo{ID: id, Method: "tools/list", State: "done", Pages: len(pages), Items: items,
			Incomplete: string(incomplete), Error: errText, Generation: b.gen}})
	return id
}

func (b *evs) changed() {
	b.add(record.Event{Kind: record.KindNotification, Method: fold.ToolsListChanged})
}

func TestHeldOwnAndGenerations(t *testing.T) {
	one, two := []string{"a", "b"}, []string{"c"}
	cases := []struct {
		name string
		do   func(b *evs)
		// held and stale per walk; gens are the tools' generations of
		// the shown walk.
		held, stale []bool
		gens        []int64
	}{
		{"one page, latest, nothing out", func(b *evs) { b.walk(paging.Complete, "", one) },
			[]bool{true}, []bool{false}, []int64{1, 1}},
		// The request is a new walk's first, not yet answered.
		{"one page, then a request out", func(b *evs) { b.walk(paging.Complete, "", one); b.request(9, 1) },
			[]bool{false, false}, []bool{false, false}, []int64{1, 1}},
		{"two pages", func(b *evs) { b.walk(paging.Complete, "", one, two) },
			[]bool{false}, []bool{false}, []int64{1, 1, 2}},
		{"one page, cut by the page limit", func(b *evs) { b.walk(paging.PageLimit, "", one) },
			[]bool{false}, []bool{false}, []int64{1, 1}},
		{"one page, then an error", func(b *evs) { b.walk(paging.Failed, "boom", one) },
			[]bool{false}, []bool{false}, []int64{1, 1}},
		{"a later walk settles", func(b *evs) { b.walk(paging.Complete, "", one); b.walk(paging.Complete, "", two) },
			[]bool{false, true}, []bool{false, false}, []int64{2}},
		{"the list changes after a walk", func(b *evs) {
			b.walk(paging.Complete, "", one)
			b.changed()
			b.walk(paging.Complete, "", two)
		}, []bool{false, true}, []bool{true, false}, []int64{2}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := &evs{}
			c.do(b)
			s := fold.New(nil)
			for _, ev := range b.all {
				s.Apply(ev)
			}
			var held, stale []bool
			for _, w := range s.Walks() {
				held, stale = append(held, s.Held(w)), append(stale, w.Stale())
			}
			var gens []int64
			for _, tool := range s.Shown().Tools {
				gens = append(gens, tool.Gen)
			}
			if diff := cmp.Diff(c.held, held); diff != "" {
				t.Errorf("held (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(c.stale, stale); diff != "" {
				t.Errorf("stale (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(c.gens, gens); diff != "" {
				t.Errorf("tool generations (-want +got):\n%s", diff)
			}
		})
	}
}

// TestHeldIsTheCountersRule checks that the fold and a live Counter agree
// on held/own for the same walks: both call [paging.Holds].
func TestHeldIsTheCountersRule(t *testing.T) {
	for _, pages := range []int{1, 2} {
		for _, later := range []bool{false, true} {
			c := paging.NewCounter()
			b := &evs{}
			r := &paging.Result{Incomplete: paging.Complete}
			id := int64(1)
			b.add(record.Event{Kind: record.KindWalk, Walk: &record.WalkInfo{ID: id, Method: "tools/list", State: "start"}})
			for n := 1; n <= pages; n++ {
				req := c.Begin()
				b.request(id, n)
				gen := req.Settle()
				b.page(id, n, "t")
				r.Pages = append(r.Pages, paging.Page{Number: n, Generation: gen})
			}
			b.add(record.Event{Kind: record.KindWalk, Gen: b.gen, Walk: &record.WalkInfo{ID: id, Method: "tools/list", State: "done", Pages: pages}})
			if later {
				c.Begin().Settle()
				b.request(2, 1)
				b.page(2, 1)
			}
			s := fold.New(nil)
			for _, ev := range b.all {
				s.Apply(ev)
			}
			if got, want := s.Held(s.Walk(1)), c.Held(r); got != want || got != (pages == 1 && !later) {
				t.Errorf("%d pages, later %v: fold says held %v, counter %v", pages, later, got, want)
			}
		}
	}
}

// TestLiveFoldEqualsRecorded folds a session against the demo server as
// its events happen, records it to a file, folds the file, and compares:
// one fold feeds live and replay.
func TestLiveFoldEqualsRecorded(t *testing.T) {
	ctx := context.Background()
	live, path := foldLiveAndRecord(t, func(s *session.Session) {
		s.Walk(ctx, paging.Tools())
		for _, c := range []struct{ tool, args string }{{"weather", `{"city":"Lisbon"}`}, {"forecast_broken", `{"city":"Paris"}`},
			{"render_video", `{"prompt":"x"}`}, {"fail_always", `{}`}, {"toggle_tools", `{}`}} {
			s.Call(ctx, c.tool, json.RawMessage(c.args), nil)
		}
		s.Walk(ctx, paging.Tools())
	})
	replayed := foldFile(t, path)
	if live.Applied() != replayed.Applied() || live.Applied() < 50 {
		t.Fatalf("live folded %d events, the file %d", live.Applied(), replayed.Applied())
	}
	if diff := cmp.Diff(describe(live), describe(replayed)); diff != "" {
		t.Errorf("live and recorded folds differ (-live +recorded):\n%s", diff)
	}
	if len(live.Walks()) != 2 || len(live.Calls()) != 5 {
		t.Errorf("%d walks, %d calls", len(live.Walks()), len(live.Calls()))
	}
}

// foldLiveAndRecord connects to the demo in memory, folds its events live
// while recording them to a file, runs do on the session, closes it, and
// returns the live fold and the file's path.
func foldLiveAndRecord(t *testing.T, do func(s *session.Session)) (*fold.State, string) {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := demo.New(nil).Connect(ctx, demo.Tasks(st), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	path := filepath.Join(t.TempDir(), "run.jsonl")
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	target := session.Target{Name: "demo"}
	rec, err := record.NewRecorder(out, record.NewHeader("mcpwitness test", target.Describe()), target.Secrets())
	if err != nil {
		t.Fatal(err)
	}
	log := record.NewLog(nil)
	live := fold.New(nil)
	log.AddSink(live.Apply)
	log.AddSink(rec.Write)
	s, err := session.Dial(ctx, session.Target{Transport: ct, Name: "demo"}, &session.Options{Log: log, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	do(s)
	s.Close()
	log.Close()
	if err := rec.Err(); err != nil {
		t.Fatal(err)
	}
	return live, path
}

// describe is everything a state holds, in words, times as RFC 3339.
func describe(s *fold.State) []string {
	ts := func(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }
	out := []string{fmt.Sprintf("gen %d out %d closed %v %q applied %d at %s last answer %s server %+v",
		s.Gen(), s.Out(), s.Closed(), s.ClosedWhy(), s.Applied(), ts(s.At()), ts(s.LastAnswer()), s.Server())}
	for _, w := range s.Walks() {
		out = append(out, fmt.Sprintf("walk %d %s %s-%s done %v %q %q items %d gen %d held %v stale %v after %v findings %+v",
			w.ID, w.Method, ts(w.Start), ts(w.End), w.Done, w.Incomplete, w.Err, w.Items, w.Generation, s.Held(w), w.Stale(), w.AfterChange, w.Findings))
		for _, p := range w.Pages {
			out = append(out, fmt.Sprintf("  page %d gen %d count %d first %d cursor %q next %q", p.Number, p.Generation, p.Count, p.First, p.Cursor, p.NextCursor))
		}
		for _, t := range w.Tools {
			out = append(out, fmt.Sprintf("  tool %s gen %d page %d task %q raw %s", t.Name, t.Gen, t.Page, t.TaskSupport, t.Raw))
		}
	}
	for _, c := range s.Calls() {
		out = append(out, fmt.Sprintf("call %d %s %s-%s outcome %d args %s result %s rpc %s err %q gen %d stale %v req %q verdicts %+v",
			c.ID, c.Tool, ts(c.Start), ts(c.End), c.Outcome(), c.Args, c.Result, c.RPCError, c.Err, c.Generation, c.Stale, c.RequestID, c.Verdicts))
	}
	for i := range s.Rows().Len() {
		r := s.Rows().At(i)
		out = append(out, fmt.Sprintf("row %s %s %s %q %q", ts(r.T), r.Kind, r.Level, r.Method, r.Text))
	}
	for i := range s.Frames().Len() {
		f := s.Frames().At(i)
		out = append(out, fmt.Sprintf("frame %s %s %s %q %d %q %s", ts(f.T), f.Dir, f.Method, f.ID, f.Size, f.Note, f.Frame))
	}
	return out
}
