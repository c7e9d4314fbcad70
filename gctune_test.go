package main

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

// TestTuneGCLowersGOGCOnceTheHeapIsLarge: GOGC stays as it is while the live
// heap is small, and is lowered after a collection that finds it past the
// threshold.
func TestTuneGCLowersGOGCOnceTheHeapIsLarge(t *testing.T) {
	t.Setenv("GOGC", "") // restored after the test; unset for it
	if err := os.Unsetenv("GOGC"); err != nil {
		t.Fatal(err)
	}
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	percent := func() int { // read, not set: the tuner may set it meanwhile
		s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
		metrics.Read(s)
		return int(s[0].Value.Uint64())
	}
	tuneGC(8<<20, 37)
	runtime.GC()
	if p := percent(); p != 100 {
		t.Fatalf("GOGC %d with a small heap, want 100", p)
	}
	live := make([]byte, 16<<20)
	for i := range live {
		live[i] = byte(i)
	}
	deadline := time.Now().Add(10 * time.Second)
	for percent() != 37 {
		if time.Now().After(deadline) {
			t.Fatalf("GOGC still %d after collections with %d MiB live, want 37", percent(), len(live)>>20)
		}
		runtime.GC()
		runtime.Gosched()
	}
	runtime.KeepAlive(live)
}

// TestTuneGCLeavesAGOGCTheUserSet: with GOGC in the environment, the
// tuner does nothing.
func TestTuneGCLeavesAGOGCTheUserSet(t *testing.T) {
	t.Setenv("GOGC", "100")
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	tuneGC(0, 37)
	for range 3 {
		runtime.GC()
	}
	if p := debug.SetGCPercent(100); p != 100 {
		t.Errorf("GOGC %d although the environment sets it, want 100", p)
	}
}

// unsetGCEnv unsets GOGC and GOMEMLIMIT for the test, and restores them,
// the memory limit and GOGC after it.
func unsetGCEnv(t *testing.T) {
	for _, v := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Setenv(v, "") // restored after the test; unset for it
		if err := os.Unsetenv(v); err != nil {
			t.Fatal(err)
		}
	}
	limit, percent := debug.SetMemoryLimit(-1), debug.SetGCPercent(100)
	t.Cleanup(func() {
		debug.SetMemoryLimit(limit)
		debug.SetGCPercent(percent)
	})
}

// TestTuneGCForTheCommand: after tuneGC, a headless command keeps Go's
// defaults (no memory limit, GOGC 100) and the terminal UI gets uiHeapGC;
// where tuneGC did not run (a test running the command), nothing changes.
func TestTuneGCForTheCommand(t *testing.T) {
	for _, tc := range []struct {
		name     string
		tuned    bool // tuneGC ran first
		headless bool
		limit    int64
		percent  int
	}{
		{"headless", true, true, tunedNoLimit, 100},
		{"ui", true, false, tunedNoLimit, uiHeapGC},
		{"headless in a test", false, true, math.MaxInt64, 100},
		{"ui in a test", false, false, math.MaxInt64, 100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			unsetGCEnv(t)
			debug.SetMemoryLimit(math.MaxInt64)
			if tc.tuned {
				tuneGC(1<<40, 37)
			}
			tuneGCFor(tc.headless)
			if got := debug.SetMemoryLimit(-1); got != tc.limit {
				t.Errorf("memory limit %d, want %d", got, tc.limit)
			}
			if got := debug.SetGCPercent(100); got != tc.percent {
				t.Errorf("GOGC %d, want %d", got, tc.percent)
			}
		})
	}
}

// TestTuneGCLeavesWhatTheUserSet: with GOMEMLIMIT or GOGC in the
// environment, neither tuneGC nor tuneGCFor sets a memory limit or GOGC.
func TestTuneGCLeavesWhatTheUserSet(t *testing.T) {
	for _, v := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Run(v, func(t *testing.T) {
			unsetGCEnv(t)
			t.Setenv(v, "off")
			debug.SetMemoryLimit(math.MaxInt64)
			tuneGC(1<<40, 37)
			tuneGCFor(true)
			tuneGCFor(false)
			if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
				t.Errorf("memory limit %d with %s set, want none", got, v)
			}
			if got := debug.SetGCPercent(100); got != 100 {
				t.Errorf("GOGC %d with %s set, want 100", got, v)
			}
		})
	}
}
