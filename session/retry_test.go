package session

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"mcpwitness/demo"
	"mcpwitness/record"
)

// throttled serves the demo server behind a front that answers the first
// initialize POSTs with 429 and the given Retry-After values ("" for none), one per
// 429, then lets every request through. It counts the POSTs it saw.
type throttled struct {
	mu     sync.Mutex
	after  []func() string
	posts  int
	bodies []string
}

func (th *throttled) serve(t *testing.T) string {
	t.Helper()
	next := demo.Handler(nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			p, err := readPost(r)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			th.mu.Lock()
			var after func() string
			if p.Method == "initialize" {
				th.posts++
				th.bodies = append(th.bodies, p.Method)
			}
			if p.Method == "initialize" && len(th.after) > 0 {
				after, th.after = th.after[0], th.after[1:]
			}
			th.mu.Unlock()
			if after != nil {
				if v := after(); v != "" {
					w.Header().Set("Retry-After", v)
				}
				http.Error(w, "slow down", http.StatusTooManyRequests)
				return
			}
		}
		next.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func fixed(v string) func() string { return func() string { return v } }

func httpEvents(l *record.Log, step record.HTTPStep) []*record.HTTPInfo {
	var out []*record.HTTPInfo
	for _, ev := range l.Events() {
		if ev.Kind == record.KindHTTP && ev.HTTP != nil && ev.HTTP.Step == step {
			out = append(out, ev.HTTP)
		}
	}
	return out
}

func TestThrottleOneThenSuccess(t *testing.T) {
	t.Parallel()
	th := &throttled{after: []func() string{fixed("0")}}
	url := th.serve(t)
	log := record.NewLog(&record.LogOptions{History: true})
	s := dial(t, Target{URL: url}, &Options{Log: log})
	if r := s.Ping(context.Background()); r.Err != nil {
		t.Fatal(r.Err)
	}
	retries := httpEvents(log, record.HTTPRetry)
	if len(retries) != 1 || retries[0].Attempt != 1 || retries[0].RetryAfter != "0" || retries[0].Status != 429 {
		t.Fatalf("retry events = %+v, want one for attempt 1 with Retry-After 0", retries)
	}
	// The tap saw both attempts of initialize.
	if got := len(wireFrames(log, record.Send, "initialize")); got != 2 {
		t.Errorf("initialize frames sent = %d, want 2 (the 429 and the retry)", got)
	}
	if th.posts != 2 {
		t.Errorf("the server saw %d initialize posts, want 2 (the body sent again)", th.posts)
	}
}

func TestThrottleRetryAfterDate(t *testing.T) {
	t.Parallel()
	th := &throttled{after: []func() string{func() string {
		return time.Now().Add(2 * time.Second).UTC().Format(http.TimeFormat)
	}}}
	url := th.serve(t)
	log := record.NewLog(&record.LogOptions{History: true})
	start := time.Now()
	dial(t, Target{URL: url}, &Options{Log: log})
	retries := httpEvents(log, record.HTTPRetry)
	if len(retries) != 1 {
		t.Fatalf("retry events = %+v, want one", retries)
	}
	// An HTTP date has whole seconds: 2 s ahead is a wait of 1 to 2 s.
	if w := retries[0].WaitMs; w < 900 || w > 2100 {
		t.Errorf("wait = %.0f ms, want what the date asks (1000-2000 ms)", w)
	}
	if waited := time.Since(start); waited < time.Duration(retries[0].WaitMs)*time.Millisecond {
		t.Errorf("dial took %s, less than the wait announced (%.0f ms)", waited, retries[0].WaitMs)
	}
}

func TestThrottleThreeTimesFails(t *testing.T) {
	t.Parallel()
	th := &throttled{after: []func() string{fixed(""), fixed(""), fixed(""), fixed("")}}
	url := th.serve(t)
	log := record.NewLog(&record.LogOptions{History: true})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := Dial(ctx, Target{URL: url}, &Options{Log: log, Timeout: 15 * time.Second, pace: quickPace()})
	if err == nil {
		s.Close()
		t.Fatal("Dial succeeded through three 429s")
	}
	var te *ThrottleError
	if !errors.As(err, &te) || te.Attempts != 3 {
		t.Fatalf("error = %v, want a ThrottleError after 3 attempts", err)
	}
	if !strings.Contains(err.Error(), "429") || !strings.Contains(err.Error(), "3 attempts") {
		t.Errorf("error %q does not say 429 and 3 attempts", err)
	}
	if th.posts != 3 {
		t.Errorf("server saw %d posts, want 3", th.posts)
	}
	if n := len(httpEvents(log, record.HTTPRetry)); n != 2 {
		t.Errorf("retry events = %d, want 2", n)
	}
	if n := len(httpEvents(log, record.HTTPGiveUp)); n != 1 {
		t.Errorf("give-up events = %d, want 1", n)
	}
}

func TestThrottlePastTheBudgetFailsAtOnce(t *testing.T) {
	t.Parallel()
	th := &throttled{after: []func() string{fixed("3600")}}
	url := th.serve(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	start := time.Now()
	s, err := Dial(ctx, Target{URL: url}, &Options{Timeout: 15 * time.Second})
	if err == nil {
		s.Close()
		t.Fatal("Dial succeeded")
	}
	want := "the server asked to retry after 3600 s; mcpwitness waits at most 10 s"
	if !strings.Contains(err.Error(), want) {
		t.Errorf("error = %q, want it to say %q", err, want)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("failing took %s; it should not wait at all", d)
	}
	if th.posts != 1 {
		t.Errorf("server saw %d posts, want 1", th.posts)
	}
}

func TestNoRetrySeesThe429(t *testing.T) {
	t.Parallel()
	th := &throttled{after: []func() string{fixed("0")}}
	url := th.serve(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := Dial(ctx, Target{URL: url, NoRetry: true}, &Options{Timeout: 15 * time.Second})
	if err == nil {
		s.Close()
		t.Fatal("Dial succeeded with --no-retry through a 429")
	}
	if th.posts != 1 {
		t.Errorf("server saw %d posts, want 1", th.posts)
	}
}

func TestServerErrorIsNotRetried(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	posts := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p, err := readPost(r); err == nil && p.Method == "initialize" {
			mu.Lock()
			posts++
			mu.Unlock()
		}
		http.Error(w, "boom", http.StatusServiceUnavailable)
	}))
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if s, err := Dial(ctx, Target{URL: srv.URL}, &Options{Timeout: 15 * time.Second}); err == nil {
		s.Close()
		t.Fatal("Dial succeeded against a 503")
	}
	mu.Lock()
	defer mu.Unlock()
	if posts != 1 {
		t.Errorf("server saw %d initialize requests, want 1 (5xx is never retried)", posts)
	}
}
