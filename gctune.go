package main

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// A walk keeps what it listed, so at a large list most of the heap is live
// when the walk ends, and with Go's default GOGC of 100 the heap may grow
// to twice the live bytes before it is collected. Past [largeHeap] live
// bytes, the collector runs at [largeHeapGC] instead, which keeps the peak
// RSS of a 100,000-tool walk under 100 MiB (figures in docs/bench.md).
// A small heap keeps Go's defaults; GOGC and GOMEMLIMIT in the
// environment override all of it.
const (
	// largeHeap is the live heap, in bytes, past which GOGC is lowered.
	largeHeap = 24 << 20
	// largeHeapGC is the GOGC of a large heap.
	largeHeapGC = 30
	// uiHeapGC is the terminal UI's GOGC while its heap is small.
	uiHeapGC = 200
	// tunedNoLimit is the memory limit of a process [tuneGC] looks after:
	// as good as none (Go's default is math.MaxInt64), and distinct from
	// it, so that [tuneGCFor] knows tuneGC ran.
	tunedNoLimit = math.MaxInt64 - 1
)

// tuneGC sets the collector up for the process, unless GOGC or GOMEMLIMIT
// is set in the environment: after each collection until the live heap
// passes threshold bytes it looks at the live heap, and past threshold
// sets GOGC to percent, for good. It is called once, by main; it marks the
// process as tuned with a memory limit of [tunedNoLimit], which limits
// nothing.
func tuneGC(threshold uint64, percent int) {
	if userTuned() {
		return
	}
	debug.SetMemoryLimit(tunedNoLimit)
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var arm func()
	arm = func() {
		// The sentinel is unreachable at once; its finalizer runs after
		// the next collection.
		runtime.SetFinalizer(new(gcSentinel), func(*gcSentinel) {
			metrics.Read(live)
			if live[0].Value.Kind() != metrics.KindUint64 {
				return
			}
			if live[0].Value.Uint64() > threshold {
				debug.SetGCPercent(percent)
				return
			}
			arm()
		})
	}
	arm()
}

// tuneGCFor adapts what [tuneGC] set to a command that has a session,
// about to run: the terminal UI gets a higher GOGC ([uiHeapGC]) until
// tuneGC lowers it for a large heap; a headless command keeps Go's default
// GOGC while its heap is small. The UI keeps more than a walk's pages (the
// fold with their frames, the screen) and runs its loop beside the walk,
// so collecting less often while the heap is small is worth more to it
// than a few MiB. Where tuneGC set nothing (the environment said, or a
// test runs the command in its own process), it does nothing either.
func tuneGCFor(headless bool) {
	if headless || debug.SetMemoryLimit(-1) != tunedNoLimit {
		return
	}
	debug.SetGCPercent(uiHeapGC)
}

// userTuned reports whether the environment tunes the collector (GOGC or
// GOMEMLIMIT); then it is left as the user set it.
func userTuned() bool {
	for _, v := range []string{"GOGC", "GOMEMLIMIT"} {
		if _, set := os.LookupEnv(v); set {
			return true
		}
	}
	return false
}

// gcSentinel is an object only a finalizer looks at; it is too big for the
// tiny allocator, whose objects may never be finalized.
type gcSentinel struct{ _ [32]byte }
