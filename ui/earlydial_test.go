package ui

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
)

// The model's first dial takes what the dial begun before the program
// came to; a later one (another try) dials anew; a caller that gives up
// first gets its own context's error, and the early dial still ends.
func TestEarlyDialIsTheFirstDial(t *testing.T) {
	var calls atomic.Int32
	failing := errors.New("no server")
	dial := func(context.Context) (Backend, error) {
		calls.Add(1)
		return nil, failing
	}
	e := &earlyDial{done: make(chan struct{})}
	go e.run(context.Background(), dial)
	d := e.then(dial)
	if _, err := d(context.Background()); !errors.Is(err, failing) {
		t.Fatalf("first dial: %v, want the early dial's error", err)
	}
	if n := calls.Load(); n != 1 {
		t.Fatalf("%d dials after the first, want the early one alone", n)
	}
	if _, err := d(context.Background()); !errors.Is(err, failing) || calls.Load() != 2 {
		t.Fatalf("second dial: %v after %d dials, want a dial of its own", err, calls.Load())
	}

	block := make(chan struct{})
	slow := &earlyDial{done: make(chan struct{})}
	go slow.run(context.Background(), func(context.Context) (Backend, error) { <-block; return nil, failing })
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := slow.then(dial)(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("a dial given up: %v, want context.Canceled", err)
	}
	close(block)
	<-slow.done
}
