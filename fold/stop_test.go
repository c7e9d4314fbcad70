package fold_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mcpwitness/demo"
	"mcpwitness/fold"
	"mcpwitness/paging"
	"mcpwitness/record"
	"mcpwitness/session"
)

// TestStoppedWalkIsNoWarning folds a tools walk the client stopped on the
// demo's second page: the walk is stopped, not complete, and its row is
// information, not a warning, with no findings.
func TestStoppedWalkIsNoWarning(t *testing.T) {
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := demo.New(nil).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	log := record.NewLog(nil)
	live := fold.New(nil)
	log.AddSink(live.Apply)
	s, err := session.Dial(ctx, session.Target{Transport: ct, Name: "demo"}, &session.Options{Log: log, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	stop := func(p paging.Page) bool { return p.Number == 2 }
	_, res := s.WalkWith(ctx, paging.Tools(), &session.WalkOptions{Stop: stop})
	s.Close()
	log.Close()
	if res.Incomplete != paging.Stopped || len(res.Pages) != 2 {
		t.Fatalf("walk: %q after %d pages, want stopped after 2", res.Incomplete, len(res.Pages))
	}
	w := live.LatestTools()
	if w == nil || !w.Stopped() || w.Complete() || len(w.Pages) != 2 || len(w.Findings) != 0 {
		t.Fatalf("folded walk = %+v, want stopped (not complete) after 2 pages, no findings", w)
	}
	rows := live.Rows()
	var levels []fold.Level
	for i := range rows.Len() {
		if r := rows.At(i); r.Kind == fold.RowWalk || r.Kind == fold.RowFinding {
			levels = append(levels, r.Level)
		}
	}
	if !slices.Equal(levels, []fold.Level{fold.LevelInfo}) {
		t.Errorf("walk and finding rows have levels %v, want one walk row at info", levels)
	}
}
