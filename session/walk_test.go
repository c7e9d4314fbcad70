package session

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mcpwitness/demo"
	"mcpwitness/finding"
	"mcpwitness/paging"
	"mcpwitness/record"
)

func TestWalkDemoEveryPageOnEveryTransport(t *testing.T) {
	t.Parallel()
	targets := map[string]func(t *testing.T) *Session{
		"in-memory": func(t *testing.T) *Session { return demoInMemory(t, nil) },
		"stdio":     func(t *testing.T) *Session { return dial(t, demoStdio(t), nil) },
		"http":      func(t *testing.T) *Session { return dial(t, Target{URL: demoHTTP(t)}, nil) },
	}
	for name, open := range targets {
		t.Run(name, func(t *testing.T) {
			s := open(t)
			_, res := s.Walk(context.Background(), paging.Tools())
			if res.Incomplete != paging.Complete || res.Err != nil {
				t.Fatalf("walk incomplete: %q %v", res.Incomplete, res.Err)
			}
			total := 0
			seen := map[string]bool{}
			for i, p := range res.Pages {
				if p.Count > 10 {
					t.Errorf("page %d has %d tools, want at most 10", p.Number, p.Count)
				}
				if i < len(res.Pages)-1 && p.Count != 10 {
					t.Errorf("page %d has %d tools, want 10 on every page but the last", p.Number, p.Count)
				}
				total += p.Count
				for _, n := range toolNames(p.Items) {
					seen[n] = true
				}
			}
			if total < 40 || len(seen) != total {
				t.Errorf("got %d tools (%d distinct), want at least 40, all distinct", total, len(seen))
			}
			if want := (total + 9) / 10; len(res.Pages) != want {
				t.Errorf("got %d pages, want %d", len(res.Pages), want)
			}
			sent := wireFrames(s.Log(), record.Send, "tools/list")
			if len(sent) != len(res.Pages) {
				t.Errorf("%d tools/list frames sent for %d pages", len(sent), len(res.Pages))
			}
			if _, _, ok := s.Tool("add"); !ok {
				t.Error("the session does not know tool add after the walk")
			}
		})
	}
}

// A server's ttlMs must never let the SDK answer a walk from its cache.
func TestWalkAlwaysReachesTheWire(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := demo.New(&demo.Options{TTLMs: 60000}).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	s := dial(t, Target{Transport: ct}, nil)
	_, first := s.Walk(ctx, paging.Tools())
	_, second := s.Walk(ctx, paging.Tools())
	if len(first.Pages) == 0 || len(second.Pages) != len(first.Pages) {
		t.Fatalf("pages: first %d, second %d", len(first.Pages), len(second.Pages))
	}
	if !first.Pages[0].HasTTL || first.Pages[0].TTLMs != 60000 {
		t.Errorf("page ttl = %d (has %v), want 60000 recorded", first.Pages[0].TTLMs, first.Pages[0].HasTTL)
	}
	if got, want := len(wireFrames(s.Log(), record.Send, "tools/list")), 2*len(first.Pages); got != want {
		t.Errorf("%d tools/list frames on the wire, want %d: the second walk was answered from a cache", got, want)
	}
	if second.Pages[0].Generation <= first.Pages[len(first.Pages)-1].Generation {
		t.Errorf("second walk generation %d not after first %d", second.Pages[0].Generation, first.Generation)
	}
}

func TestWalkCursorLoopIsReportedAndEnds(t *testing.T) {
	t.Parallel()
	s := dial(t, hostile(t, "cursor-loop"), nil)
	_, res := s.Walk(context.Background(), paging.Tools())
	if res.Incomplete != paging.CursorRepeated {
		t.Fatalf("incomplete = %q, want cursor-repeated", res.Incomplete)
	}
	if len(res.Pages) != 3 {
		t.Errorf("kept %d pages, want the 3 read", len(res.Pages))
	}
	if !hasFinding(res.Findings, "cursor-repeated") {
		t.Errorf("no cursor-repeated finding in %+v", res.Findings)
	}
}

func TestWalkEndlessServerStopsAtPageLimit(t *testing.T) {
	t.Parallel()
	s := dial(t, hostile(t, "endless"), &Options{MaxPages: 7})
	_, res := s.Walk(context.Background(), paging.Tools())
	if res.Incomplete != paging.PageLimit {
		t.Fatalf("incomplete = %q, want page-limit", res.Incomplete)
	}
	if got := len(wireFrames(s.Log(), record.Send, "tools/list")); got != 7 {
		t.Errorf("%d requests sent, want exactly 7", got)
	}
	if len(res.Pages) != 7 {
		t.Errorf("kept %d pages, want 7", len(res.Pages))
	}
}

func TestWalkAbortMidWalk(t *testing.T) {
	t.Parallel()
	log := record.NewLog(&record.LogOptions{History: true})
	ctx, cancel := context.WithCancel(context.Background())
	// A sink runs as the event is appended, on the walk's goroutine, so the
	// cancel lands before the walk can ask for page 4 (a subscriber might
	// be scheduled only pages later on a busy machine).
	log.AddSink(func(ev record.Event) {
		if ev.Kind == record.KindPage && ev.Page.Number == 3 {
			cancel()
		}
	})
	s := dial(t, hostile(t, "endless"), &Options{Log: log, MaxPages: 1000})
	_, res := s.Walk(ctx, paging.Tools())
	cancel()
	if res.Incomplete != paging.Aborted {
		t.Fatalf("incomplete = %q, want aborted", res.Incomplete)
	}
	if len(res.Pages) < 3 || len(res.Pages) > 4 {
		t.Errorf("kept %d pages, want 3 (or 4 if one was in flight)", len(res.Pages))
	}
	sent := len(wireFrames(log, record.Send, "tools/list"))
	// A ping's answer comes after anything the walk could still have sent:
	// no tools/list may go out between the walk's end and that answer.
	pctx, pcancel := context.WithTimeout(context.Background(), time.Minute)
	defer pcancel()
	if err := s.cs.Ping(pctx, nil); err != nil {
		t.Fatalf("ping after the abort: %v", err)
	}
	if later := len(wireFrames(log, record.Send, "tools/list")); later != sent || sent > len(res.Pages)+1 {
		t.Errorf("requests after the abort: %d then %d for %d pages", sent, later, len(res.Pages))
	}
}

func TestGenerationsAndHeldAcrossOverlappingWalks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := demo.New(&demo.Options{PageSize: 1000}).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	s := dial(t, Target{Transport: ct}, nil)

	_, one := s.Walk(ctx, paging.Tools())
	if len(one.Pages) != 1 {
		t.Fatalf("want a one-page list, got %d pages", len(one.Pages))
	}
	if !s.Counter().Held(one) {
		t.Error("a one-page list that is still the latest answer is not held")
	}

	// Two walks at once: both are out together, each settles into its own
	// generation, and the first walk's tools are no longer held.
	var wg sync.WaitGroup
	results := make([]*paging.Result, 2)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, results[i] = s.Walk(ctx, paging.Tools())
		}()
	}
	wg.Wait()
	if s.Counter().Held(one) {
		t.Error("the first walk is still held after two later answers")
	}
	if results[0].Generation == results[1].Generation {
		t.Errorf("overlapping walks share generation %d", results[0].Generation)
	}
	gen, out := s.Generation()
	if out != 0 || gen != 3 {
		t.Errorf("counter = gen %d · out %d, want gen 3 · out 0", gen, out)
	}
	latest := results[0]
	if results[1].Generation > latest.Generation {
		latest = results[1]
	}
	if !s.Counter().Held(latest) {
		t.Error("the latest one-page answer is not held")
	}
	maxOut := 0
	for _, ev := range s.Log().Events() {
		if ev.Kind == record.KindListRequest && ev.Out > maxOut {
			maxOut = ev.Out
		}
	}
	if maxOut < 1 {
		t.Errorf("no list request was seen out (max out %d)", maxOut)
	}
}

func TestWalkOverHTTPRecordsPagesFromTheRawAnswer(t *testing.T) {
	t.Parallel()
	s := dial(t, Target{URL: demoHTTP(t)}, nil)
	_, res := s.Walk(context.Background(), paging.Tools())
	if res.Incomplete != paging.Complete {
		t.Fatalf("incomplete %q: %v", res.Incomplete, res.Err)
	}
	for _, p := range res.Pages {
		if p.RequestID == "" {
			t.Errorf("page %d has no request id: not matched on the wire", p.Number)
		}
	}
}

func hasFinding(fs []finding.Finding, check string) bool {
	for _, f := range fs {
		if f.Check == check {
			return true
		}
	}
	return false
}

// TestWalkWithStop: a walk the client stops records a done event that says
// stopped, with no error and no findings, and the session keeps what it
// read (a stopped walk forgets no tool).
func TestWalkWithStop(t *testing.T) {
	t.Parallel()
	log := record.NewLog(nil)
	var done *record.WalkInfo
	log.AddSink(func(ev record.Event) {
		if ev.Kind == record.KindWalk && ev.Walk != nil && ev.Walk.State == record.PhaseDone {
			done = ev.Walk
		}
	})
	s := demoInMemory(t, &Options{Log: log})
	ctx := context.Background()
	_, whole := s.Walk(ctx, paging.Tools())
	last := toolNames(whole.Pages[len(whole.Pages)-1].Items)[0]
	_, res := s.WalkWith(ctx, paging.Tools(), &WalkOptions{Stop: func(p paging.Page) bool { return p.Number == 1 }})
	if res.Incomplete != paging.Stopped || res.Err != nil || len(res.Pages) != 1 {
		t.Fatalf("walk: %q %v after %d pages, want stopped after 1", res.Incomplete, res.Err, len(res.Pages))
	}
	if done == nil || done.Incomplete != string(paging.Stopped) || done.Error != "" || len(done.Findings) != 0 || done.Pages != 1 {
		t.Errorf("done event = %+v, want stopped after 1 page", done)
	}
	if _, _, ok := s.Tool(last); !ok {
		t.Errorf("tool %q of the earlier whole walk was forgotten by the stopped one", last)
	}
}

// TestWalkNoCallsKeepsNoDefinitions: a walk for a command that calls
// nothing leaves the session's definitions as they were: it learns none
// and, complete, forgets none; its result's pages keep their counts, not
// their items (the page events had them).
func TestWalkNoCallsKeepsNoDefinitions(t *testing.T) {
	t.Parallel()
	s := demoInMemory(t, nil)
	ctx := context.Background()
	_, res := s.WalkWith(ctx, paging.Tools(), &WalkOptions{NoCalls: true})
	if res.Incomplete != paging.Complete {
		t.Fatalf("walk: %q %v", res.Incomplete, res.Err)
	}
	if p := res.Pages[0]; p.Items != nil || p.Count == 0 {
		t.Errorf("page 1 of the result kept %d items (count %d); want none kept, its count", len(p.Items), p.Count)
	}
	const name = "add" // the demo's first tool
	if _, _, ok := s.Tool(name); ok {
		t.Fatalf("the session kept %q from a walk that said no call follows", name)
	}
	s.Walk(ctx, paging.Tools())
	s.WalkWith(ctx, paging.Tools(), &WalkOptions{NoCalls: true})
	if _, _, ok := s.Tool(name); !ok {
		t.Errorf("a walk that said no call follows forgot %q, which the walk before it listed", name)
	}
}
