package paging_test

import (
	"context"
	"errors"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"mcpwitness/paging"
)

func TestWalkAbortBeforeFirstPage(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	srv := endless()
	asked := 0
	c := paging.NewCounter()
	r := paging.Walk(ctx, paging.Tools(), c, srv.fetch, &paging.Options{OnRequest: func(int, string) { asked++ }})
	if r.Incomplete != paging.Aborted || !errors.Is(r.Err, context.Canceled) {
		t.Errorf("walk = %q, %v; want aborted, context canceled", r.Incomplete, r.Err)
	}
	if n := len(srv.cursors()); n != 0 || asked != 0 {
		t.Errorf("%d fetches, %d OnRequest calls after an abort; want none", n, asked)
	}
	if len(r.Pages) != 0 || r.Generation != 0 {
		t.Errorf("pages %d, generation %d; want none", len(r.Pages), r.Generation)
	}
	if gen, out := c.Snapshot(); gen != 0 || out != 0 {
		t.Errorf("counter = gen %d out %d, want untouched", gen, out)
	}
}

func TestWalkAbortBetweenPages(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := endless()
	var accepted []int
	opts := &paging.Options{OnPage: func(p paging.Page) {
		accepted = append(accepted, p.Number)
		if p.Number == 2 {
			cancel() // the user presses Esc as page 2 is shown
		}
	}}
	r := paging.Walk(ctx, paging.Tools(), nil, srv.fetch, opts)
	if r.Incomplete != paging.Aborted {
		t.Fatalf("Incomplete = %q, want aborted", r.Incomplete)
	}
	if got, want := srv.cursors(), []string{"", "c1"}; !reflect.DeepEqual(got, want) {
		t.Errorf("cursors sent = %q, want %q: nothing is sent after the abort", got, want)
	}
	if want := []int{1, 2}; !reflect.DeepEqual(accepted, want) || len(r.Pages) != 2 {
		t.Errorf("accepted %v, %d pages; want %v kept", accepted, len(r.Pages), want)
	}
	if len(r.Findings) != 0 {
		t.Errorf("findings = %+v; an abort says nothing about the server", r.Findings)
	}
}

func TestWalkAbortWhileAnswerInFlight(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started := make(chan struct{})
	var returned atomic.Bool
	srv := &server{answer: func(ctx context.Context, cursor string) (string, error) {
		if cursor == "" {
			return page("tools", []string{"a"}, "p2"), nil
		}
		defer returned.Store(true)
		close(started)
		<-ctx.Done() // a slow server: page 2 arrives only after the abort
		return "", ctx.Err()
	}}
	go func() {
		<-started
		cancel()
	}()
	var accepted []int
	c := paging.NewCounter()
	r := paging.Walk(ctx, paging.Tools(), c, srv.fetch, &paging.Options{OnPage: func(p paging.Page) { accepted = append(accepted, p.Number) }})

	if !returned.Load() {
		t.Error("Walk returned before the fetch in flight did")
	}
	if r.Incomplete != paging.Aborted || !errors.Is(r.Err, context.Canceled) {
		t.Errorf("walk = %q, %v; want aborted, not failed", r.Incomplete, r.Err)
	}
	if want := []int{1}; !reflect.DeepEqual(accepted, want) || len(r.Pages) != 1 {
		t.Errorf("accepted %v, %d pages; want only page 1", accepted, len(r.Pages))
	}
	if gen, out := c.Snapshot(); gen != 2 || out != 0 {
		t.Errorf("counter = gen %d out %d, want gen 2 out 0: the aborted request settled", gen, out)
	}
	if r.Generation != 1 {
		t.Errorf("Generation = %d, want 1: page 2 was not accepted", r.Generation)
	}
}

func TestWalkAnswerAfterAbortNotAccepted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := &server{answer: func(_ context.Context, cursor string) (string, error) {
		if cursor == "p2" {
			cancel() // the abort lands while the answer is on its way
		}
		return page("tools", []string{"item-" + cursor}, "p2"), nil
	}}
	var accepted []int
	r := paging.Walk(ctx, paging.Tools(), nil, srv.fetch, &paging.Options{OnPage: func(p paging.Page) { accepted = append(accepted, p.Number) }})
	if r.Incomplete != paging.Aborted {
		t.Errorf("Incomplete = %q, want aborted", r.Incomplete)
	}
	if want := []int{1}; !reflect.DeepEqual(accepted, want) {
		t.Errorf("OnPage for %v, want %v: the page that arrived after the abort is not accepted", accepted, want)
	}
	if got, want := names(r), []string{"item-"}; !reflect.DeepEqual(got, want) {
		t.Errorf("items = %q, want %q", got, want)
	}
	if n := len(srv.cursors()); n != 2 {
		t.Errorf("%d fetches, want 2", n)
	}
}

func TestWalkErrorAfterAbortIsAbort(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := &server{answer: func(context.Context, string) (string, error) {
		cancel()
		return "", errors.New("broken pipe")
	}}
	r := paging.Walk(ctx, paging.Tools(), nil, srv.fetch, nil)
	if r.Incomplete != paging.Aborted {
		t.Errorf("Incomplete = %q, want aborted: the error follows from the abort", r.Incomplete)
	}
}

func TestWalkAbortKeepsCause(t *testing.T) {
	esc := errors.New("user pressed Esc")
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(esc)
	r := paging.Walk(ctx, paging.Tools(), nil, endless().fetch, nil)
	if !errors.Is(r.Err, esc) {
		t.Errorf("Err = %v, want it to wrap the cause %v", r.Err, esc)
	}

	past, stop := context.WithDeadline(context.Background(), time.Unix(0, 0))
	defer stop()
	r = paging.Walk(past, paging.Tools(), nil, endless().fetch, nil)
	if r.Incomplete != paging.Aborted || !errors.Is(r.Err, context.DeadlineExceeded) {
		t.Errorf("walk = %q, %v; want aborted by the deadline", r.Incomplete, r.Err)
	}
}
