package ui

import (
	"context"
	"io"
	"runtime"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// TestOpenQuitsCleanly runs the whole replay program on the fixture,
// scrubs, quits with q while a fold may be in flight, and checks that every
// goroutine it started has ended.
func TestOpenQuitsCleanly(t *testing.T) {
	base := runtime.NumGoroutine()
	in, keys := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- open(context.Background(), OpenConfig{Path: fixture, Theme: "mono"},
			tea.WithInput(in), tea.WithOutput(io.Discard), tea.WithWindowSize(80, 24), tea.WithoutSignals())
	}()
	// A write to the pipe returns once the program has read it: each key is
	// in before the next is sent, and q comes while folds may be running.
	for _, k := range []string{"<", "<", "{", ">", ".", ",", "}", "w", "?", "q"} {
		if _, err := keys.Write([]byte(k)); err != nil {
			t.Fatalf("key %q: %v", k, err)
		}
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("open: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("open did not return after q")
	}
	keys.Close()
	deadline := time.Now().Add(time.Minute)
	for runtime.NumGoroutine() > base+2 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > base+2 {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines left after open (%d before):\n%s", n, base, buf[:runtime.Stack(buf, true)])
	}
}
