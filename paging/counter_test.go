package paging_test

import (
	"context"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"

	"mcpwitness/paging"
)

func TestCounterSequential(t *testing.T) {
	c := paging.NewCounter()
	if gen, out := c.Snapshot(); gen != 0 || out != 0 {
		t.Fatalf("new counter = gen %d out %d", gen, out)
	}
	if c.IsLatest(0) {
		t.Error("IsLatest(0) on a new counter: nothing has settled")
	}
	r := c.Begin()
	if gen, out := c.Snapshot(); gen != 0 || out != 1 {
		t.Errorf("after Begin = gen %d out %d, want 0 1", gen, out)
	}
	if g := r.Settle(); g != 1 {
		t.Errorf("Settle = %d, want 1", g)
	}
	if !c.IsLatest(1) {
		t.Error("IsLatest(1) false after the only request settled")
	}
	if g := r.Settle(); g != 1 {
		t.Errorf("second Settle = %d, want the same 1", g)
	}
	if gen, out := c.Snapshot(); gen != 1 || out != 0 {
		t.Errorf("after two Settles = gen %d out %d, want 1 0: Settle is idempotent", gen, out)
	}
}

func TestCounterZeroValue(t *testing.T) {
	var c paging.Counter
	if g := c.Begin().Settle(); g != 1 || !c.IsLatest(1) {
		t.Errorf("zero Counter: Settle = %d, IsLatest(1) = %v", g, c.IsLatest(1))
	}
}

func TestCounterOverlapping(t *testing.T) {
	for _, firstSettles := range []string{"older", "newer"} {
		t.Run(firstSettles+" settles first", func(t *testing.T) {
			c := paging.NewCounter()
			older, newer := c.Begin(), c.Begin()
			if gen, out := c.Snapshot(); gen != 0 || out != 2 {
				t.Fatalf("two out = gen %d out %d", gen, out)
			}
			first, second := older, newer
			if firstSettles == "newer" {
				first, second = newer, older
			}
			g1 := first.Settle()
			if gen, out := c.Snapshot(); g1 != 1 || gen != 1 || out != 1 {
				t.Errorf("one settled = Settle %d, gen %d out %d; want 1, 1, 1", g1, gen, out)
			}
			if c.IsLatest(g1) {
				t.Error("IsLatest true while a request is out")
			}
			g2 := second.Settle()
			if gen, out := c.Snapshot(); g2 != 2 || gen != 2 || out != 0 {
				t.Errorf("both settled = Settle %d, gen %d out %d; want 2, 2, 0", g2, gen, out)
			}
			if c.IsLatest(g1) || !c.IsLatest(g2) {
				t.Errorf("IsLatest(%d) = %v, IsLatest(%d) = %v; want false, true", g1, c.IsLatest(g1), g2, c.IsLatest(g2))
			}
			if first.Settle() != g1 || second.Settle() != g2 {
				t.Error("a repeated Settle changed its generation")
			}
		})
	}
}

func TestCounterHeld(t *testing.T) {
	onePage := scripted(map[string]string{"": page("tools", []string{"a", "b"}, "")})
	twoPages := scripted(map[string]string{
		"":   page("tools", []string{"a"}, "p2"),
		"p2": page("tools", []string{"b"}, ""),
	})
	ctx := context.Background()

	c := paging.NewCounter()
	r := paging.Walk(ctx, paging.Tools(), c, onePage.fetch, nil)
	if !c.Held(r) {
		t.Fatal("a one-page complete walk, still latest, is not held")
	}
	other := c.Begin()
	if c.Held(r) {
		t.Error("held while another list request is out")
	}
	other.Settle()
	if c.Held(r) {
		t.Error("held after another list request settled")
	}

	r = paging.Walk(ctx, paging.Tools(), c, onePage.fetch, nil)
	if !c.Held(r) {
		t.Error("a fresh one-page walk is not held")
	}
	c.Begin().Settle() // e.g. a failed list request: a settle all the same
	if c.Held(r) {
		t.Error("held after a failed list request settled")
	}

	if r := paging.Walk(ctx, paging.Tools(), c, twoPages.fetch, nil); c.Held(r) {
		t.Error("a two-page walk is held")
	}
	limited := paging.Walk(ctx, paging.Tools(), c, twoPages.fetch, &paging.Options{MaxPages: 1})
	if len(limited.Pages) != 1 || c.Held(limited) {
		t.Errorf("a one-page walk stopped at its bound (%d pages) is held", len(limited.Pages))
	}
	if c.Held(nil) || c.Held(&paging.Result{}) {
		t.Error("nil or empty result is held")
	}
}

func TestCounterOnChange(t *testing.T) {
	c := paging.NewCounter()
	var seen [][2]int64
	c.SetOnChange(func(gen int64, out int) {
		// Calls are outside the lock: reading the counter must not deadlock.
		if g, o := c.Snapshot(); g != gen || o != out {
			t.Errorf("OnChange(%d, %d) but Snapshot = %d, %d", gen, out, g, o)
		}
		seen = append(seen, [2]int64{gen, int64(out)})
	})
	a, b := c.Begin(), c.Begin()
	b.Settle()
	a.Settle()
	a.Settle() // no change, no call
	if want := [][2]int64{{0, 1}, {0, 2}, {1, 1}, {2, 0}}; !reflect.DeepEqual(seen, want) {
		t.Errorf("OnChange saw %v, want %v", seen, want)
	}
	c.SetOnChange(nil)
	c.Begin().Settle()
	if len(seen) != 4 {
		t.Errorf("OnChange called after SetOnChange(nil): %v", seen)
	}
}

func TestCounterOnChangeReentrant(t *testing.T) {
	c := paging.NewCounter()
	var seen [][2]int64
	c.SetOnChange(func(gen int64, out int) {
		seen = append(seen, [2]int64{gen, int64(out)})
		if gen == 1 && out == 0 {
			c.Begin().Settle() // a callback may start another request
		}
	})
	c.Begin().Settle()
	if want := [][2]int64{{0, 1}, {1, 0}, {1, 1}, {2, 0}}; !reflect.DeepEqual(seen, want) {
		t.Errorf("OnChange saw %v, want %v", seen, want)
	}
}

func TestCounterConcurrent(t *testing.T) {
	const workers, each = 16, 200
	c := paging.NewCounter()
	var calls, inside atomic.Int64
	var mu sync.Mutex
	var last [2]int64
	var lastGen int64
	c.SetOnChange(func(gen int64, out int) {
		if inside.Add(1) != 1 {
			t.Error("OnChange called concurrently")
		}
		calls.Add(1)
		mu.Lock()
		if gen < lastGen {
			t.Errorf("OnChange went back from gen %d to %d", lastGen, gen)
		}
		lastGen, last = gen, [2]int64{gen, int64(out)}
		mu.Unlock()
		inside.Add(-1)
	})

	var wg sync.WaitGroup
	seen := make([]map[int64]bool, workers)
	for w := range workers {
		seen[w] = make(map[int64]bool)
		wg.Go(func() {
			for range each {
				r := c.Begin()
				if _, out := c.Snapshot(); out < 1 {
					t.Errorf("out = %d while this request is out", out)
				}
				g := r.Settle()
				if r.Settle() != g {
					t.Error("repeated Settle changed its generation")
				}
				seen[w][g] = true
				c.IsLatest(g)
			}
		})
	}
	wg.Wait()

	if gen, out := c.Snapshot(); gen != workers*each || out != 0 {
		t.Errorf("after all = gen %d out %d, want %d 0", gen, out, workers*each)
	}
	all := make(map[int64]bool)
	for _, s := range seen {
		for g := range s {
			if all[g] {
				t.Errorf("generation %d returned to two requests", g)
			}
			all[g] = true
		}
	}
	if len(all) != workers*each {
		t.Errorf("%d distinct generations, want %d", len(all), workers*each)
	}
	if n := calls.Load(); n != 2*workers*each {
		t.Errorf("OnChange called %d times, want %d", n, 2*workers*each)
	}
	if want := [2]int64{workers * each, 0}; last != want {
		t.Errorf("last OnChange = %v, want %v: the last call reports the current state", last, want)
	}
}

func TestCounterOnChangeNotConcurrent(t *testing.T) {
	c := paging.NewCounter()
	entered, release := make(chan struct{}), make(chan struct{})
	var inside atomic.Int32
	var seen [][2]int64
	c.SetOnChange(func(gen int64, out int) {
		if inside.Add(1) != 1 {
			t.Error("OnChange called while another call is running")
		}
		seen = append(seen, [2]int64{gen, int64(out)})
		if len(seen) == 1 {
			close(entered)
			<-release
		}
		inside.Add(-1)
	})
	var wg sync.WaitGroup
	wg.Go(func() { c.Begin() })
	<-entered
	// The first call is blocked in the callback: this change must wait its
	// turn, not run the callback alongside it.
	c.Begin()
	close(release)
	wg.Wait()
	if want := [][2]int64{{0, 1}, {0, 2}}; !reflect.DeepEqual(seen, want) {
		t.Errorf("OnChange saw %v, want %v", seen, want)
	}
}
