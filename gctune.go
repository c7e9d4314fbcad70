package main

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// A walk keeps what it listed: at 100,000 tools some 50 MB are live when it
// ends, and with Go's default GOGC of 100 the heap may grow to twice the
// live bytes before it is collected, so the peak RSS follows (117 MiB for
// tools --json at 100k tools). Collecting at 1.3 times the live heap
// instead (GOGC 30) once more than 24 MiB are live brings that to 91-96
// MiB; the rest is what is live when the document is built.
//
// A headless walk of a small list (10,000 tools: some 6 MiB live at the
// end) is capped instead by a soft memory limit (see [tuneGCFor]):
// the heap grows at GOGC 100 until the runtime's memory nears the limit,
// and only then is collected more often. That brings the peak RSS of
// tools --json at 10k tools from 27-29 to 23.5-24.5 MiB, for some 35 more
// collections at the end of the walk: its CPU time doubles (70 -> 140 ms),
// its wall time grows by some 25% (0.67 -> 0.85 times the bare go-sdk
// lister's). A looser limit costs less and keeps less: 15 MiB gives 25
// MiB for 30% more CPU. The limit is lifted once the live heap outgrows
// it, so that a large list is not collected over and over against a limit
// it cannot meet.
const (
	// largeHeap is the live heap, in bytes, past which GOGC is lowered.
	largeHeap = 24 << 20
	// largeHeapGC is the GOGC of a large heap.
	largeHeapGC = 30
	// smallHeapLimit is the soft memory limit of a headless command while
	// its live heap is small: the runtime's own memory (heap, its
	// metadata, stacks), not the mapped binary.
	smallHeapLimit = 13 << 20
	// liftLimitAt is the live heap past which the small heap's limit is
	// lifted: beyond it, the limit would leave the collector too little
	// room.
	liftLimitAt = 8 << 20
	// uiHeapGC is the terminal UI's GOGC while its heap is small.
	uiHeapGC = 200
	// tunedNoLimit is the memory limit of a process [tuneGC] looks after
	// while nothing is limited: as good as none (Go's default is
	// math.MaxInt64), and distinct from it.
	tunedNoLimit = math.MaxInt64 - 1
)

// tuneGC sets the collector up for the process, unless GOGC or GOMEMLIMIT
// is set in the environment: after each collection until the live heap
// passes threshold bytes it looks at the live heap, lifts the small heap's
// limit past [liftLimitAt] (see [tuneGCFor]), and past threshold sets GOGC
// to percent, for good. It is called once, by main; it marks the process
// as tuned with a memory limit of [tunedNoLimit], which limits nothing.
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
			n := live[0].Value.Uint64()
			if n > liftLimitAt && debug.SetMemoryLimit(-1) == smallHeapLimit {
				debug.SetMemoryLimit(tunedNoLimit)
			}
			if n > threshold {
				debug.SetGCPercent(percent)
				return
			}
			arm()
		})
	}
	arm()
}

// tuneGCFor adapts what [tuneGC] set to a command that has a session,
// about to run: a headless command gets the small heap's soft memory limit
// ([smallHeapLimit]), which tuneGC lifts when the heap outgrows it; the
// terminal UI a higher GOGC instead ([uiHeapGC]), until tuneGC lowers it
// for a large heap. The UI keeps more than a walk's pages (the fold with
// their frames, the screen) and runs its loop beside the walk, so that
// collecting less often while the heap is small is worth more to it than a
// few MiB (at 10k tools it spends some 10% less CPU up to the walk's end).
// The other commands (demo-server, open, report, diff) keep Go's defaults
// until their heap is large. Where tuneGC set nothing (the environment
// said, or a test runs the command in its own process), it does nothing
// either.
func tuneGCFor(headless bool) {
	if debug.SetMemoryLimit(-1) != tunedNoLimit {
		return
	}
	if headless {
		debug.SetMemoryLimit(smallHeapLimit)
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
