package session

import (
	"context"
	"testing"
	"time"

	"mcpwitness/internal/hostiletest"
	"mcpwitness/paging"
	"mcpwitness/record"
)

// A walk during which the server says its list changed is taken again until
// one holds still, up to the bound; one that holds still at once is taken
// once, and so is any walk with a bound of 1 (--no-settle).
func TestWalkSettled(t *testing.T) {
	t.Parallel()
	tests := []struct {
		mode     string
		bound    int
		walks    int
		settled  bool
		changed  bool
		toolWalk int // tools/list walks the log holds
	}{
		{hostiletest.ModeNormal, SettleWalks, 1, true, false, 1},
		{hostiletest.ModeListChangedOnce, SettleWalks, 2, true, true, 2},
		{hostiletest.ModeListChangedWalk, SettleWalks, 3, false, true, 3},
		{hostiletest.ModeListChangedWalk, 1, 1, false, true, 1},
	}
	for _, tc := range tests {
		t.Run(tc.mode, func(t *testing.T) {
			t.Parallel()
			s := dial(t, hostile(t, tc.mode), nil)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			st := s.WalkSettled(ctx, paging.Tools(), nil, tc.bound)
			if st.Walks != tc.walks || st.Settled != tc.settled || st.Changed != tc.changed {
				t.Errorf("walks %d settled %v changed %v, want %d %v %v", st.Walks, st.Settled, st.Changed, tc.walks, tc.settled, tc.changed)
			}
			if st.Result.Incomplete != paging.Complete || len(st.Result.Pages) != 3 {
				t.Errorf("last walk %s with %d pages", st.Result.Incomplete, len(st.Result.Pages))
			}
			done := 0
			for _, ev := range s.Log().Events() {
				if ev.Kind == record.KindWalk && ev.Walk.State == record.PhaseDone {
					done++
				}
			}
			if done != tc.toolWalk {
				t.Errorf("%d walks in the log, want %d", done, tc.toolWalk)
			}
		})
	}
}
