package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// A walk keeps what it listed: at 100,000 tools some 50 MB are live when it
// ends, and with Go's default GOGC of 100 the heap may grow to twice the
// live bytes before it is collected, so the peak RSS follows (117 MiB for
// tools --json at 100k tools). Collecting at 1.5 times the live heap instead
// (GOGC 50) brings that to 100 MiB for some 10% more CPU (0.75 -> 0.85 s);
// for a small list the same setting buys 2 MiB for 10% more wall time at
// 10k tools, so it is set only once the live heap is large.
const (
	// largeHeap is the live heap, in bytes, past which GOGC is lowered.
	largeHeap = 32 << 20
	// largeHeapGC is the GOGC of a large heap.
	largeHeapGC = 50
)

// tuneGC sets GOGC to percent once a collection finds more than threshold
// bytes live, unless the GOGC environment variable says otherwise. It
// looks after each collection until then, and never raises GOGC again.
func tuneGC(threshold uint64, percent int) {
	if _, set := os.LookupEnv("GOGC"); set {
		return
	}
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var arm func()
	arm = func() {
		// The sentinel is unreachable at once; its finalizer runs after
		// the next collection.
		runtime.SetFinalizer(new(gcSentinel), func(*gcSentinel) {
			metrics.Read(live)
			if live[0].Value.Kind() == metrics.KindUint64 && live[0].Value.Uint64() > threshold {
				debug.SetGCPercent(percent)
				return
			}
			arm()
		})
	}
	arm()
}

// gcSentinel is an object only a finalizer looks at; it is too big for the
// tiny allocator, whose objects may never be finalized.
type gcSentinel struct{ _ [32]byte }
