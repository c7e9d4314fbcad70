package session

import (
	"context"
	"testing"
	"time"

	"mcpwitness/internal/hostiletest"
	"mcpwitness/paging"
	"mcpwitness/record"
)

// otherLists are the paginated lists other than tools.
func otherLists() []paging.Method {
	return []paging.Method{paging.Prompts(), paging.Resources(), paging.ResourceTemplates()}
}

func TestWalkOtherListsEveryPage(t *testing.T) {
	t.Parallel()
	s := dial(t, hostile(t, hostiletest.ModeListsPaged, "-pages", "4", "-page-size", "3"), nil)
	for _, m := range otherLists() {
		t.Run(m.Name, func(t *testing.T) {
			_, res := s.Walk(context.Background(), m)
			if res.Incomplete != paging.Complete || len(res.Pages) != 4 {
				t.Fatalf("incomplete = %q, %d pages (%v); want complete in 4", res.Incomplete, len(res.Pages), res.Err)
			}
			var items int
			for _, p := range res.Pages {
				items += len(p.Items)
			}
			if items != 12 {
				t.Errorf("%d items, want 12", items)
			}
			if got := len(wireFrames(s.Log(), record.Send, m.Name)); got != 4 {
				t.Errorf("%d requests sent, want 4", got)
			}
		})
	}
}

func TestWalkOtherListsCursorLoop(t *testing.T) {
	t.Parallel()
	s := dial(t, hostile(t, hostiletest.ModeListsLoop), nil)
	for _, m := range otherLists() {
		t.Run(m.Name, func(t *testing.T) {
			_, res := s.Walk(context.Background(), m)
			if res.Incomplete != paging.CursorRepeated || len(res.Pages) != 3 {
				t.Fatalf("incomplete = %q with %d pages, want cursor-repeated with 3", res.Incomplete, len(res.Pages))
			}
			if !hasFinding(res.Findings, "cursor-repeated") {
				t.Errorf("no cursor-repeated finding in %+v", res.Findings)
			}
		})
	}
}

func TestWalkOtherListsEndlessStopsAtPageLimit(t *testing.T) {
	t.Parallel()
	s := dial(t, hostile(t, hostiletest.ModeListsEndless), &Options{MaxPages: 5})
	for _, m := range otherLists() {
		t.Run(m.Name, func(t *testing.T) {
			_, res := s.Walk(context.Background(), m)
			if res.Incomplete != paging.PageLimit || len(res.Pages) != 5 {
				t.Fatalf("incomplete = %q with %d pages, want page-limit with 5", res.Incomplete, len(res.Pages))
			}
			if got := len(wireFrames(s.Log(), record.Send, m.Name)); got != 5 {
				t.Errorf("%d requests sent, want exactly 5", got)
			}
		})
	}
}

func TestWalkOtherListsAbort(t *testing.T) {
	t.Parallel()
	for _, m := range otherLists() {
		t.Run(m.Name, func(t *testing.T) {
			log := record.NewLog(&record.LogOptions{History: true})
			ctx, cancel := context.WithCancel(context.Background())
			// A sink cancels on the walk's goroutine, before it asks for
			// page 4 (see TestWalkAbortMidWalk).
			log.AddSink(func(ev record.Event) {
				if ev.Kind == record.KindPage && ev.Method == m.Name && ev.Page.Number == 3 {
					cancel()
				}
			})
			s := dial(t, hostile(t, hostiletest.ModeListsEndless), &Options{Log: log, MaxPages: 1000})
			_, res := s.Walk(ctx, m)
			cancel()
			if res.Incomplete != paging.Aborted || len(res.Pages) < 3 || len(res.Pages) > 4 {
				t.Fatalf("incomplete = %q with %d pages, want aborted after 3 (or 4)", res.Incomplete, len(res.Pages))
			}
			sent := len(wireFrames(log, record.Send, m.Name))
			pctx, pcancel := context.WithTimeout(context.Background(), time.Minute)
			defer pcancel()
			if r := s.Ping(pctx); r.Err != nil {
				t.Fatalf("ping after the abort: %v", r.Err)
			}
			if later := len(wireFrames(log, record.Send, m.Name)); later != sent {
				t.Errorf("requests after the abort: %d then %d", sent, later)
			}
		})
	}
}
