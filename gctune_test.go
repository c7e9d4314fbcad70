package main

import (
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
