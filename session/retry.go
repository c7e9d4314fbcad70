package session

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"mcpwitness/record"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Throttle retry bounds: a 429 is a rejection before the server ran
// anything, so retrying it cannot run a request twice.
const (
	retryAttempts = 3                // attempts in all, the first included
	retryBudget   = 10 * time.Second // waiting in all, per request
	retryBackoff  = 500 * time.Millisecond
)

// ThrottleError is a request that HTTP 429 answers stopped: the attempts
// ran out, or the server asked for a wait past the budget.
type ThrottleError struct {
	Method, URL string
	Attempts    int
	// Asked is the wait the last Retry-After asked for (0 if none);
	// Budget what was left to wait.
	Asked, Budget time.Duration
}

func (e *ThrottleError) Error() string {
	if e.Asked > e.Budget {
		return fmt.Sprintf("HTTP 429 Too Many Requests for %s %s: the server asked to retry after %s; mcpwitness waits at most %s per request (--no-retry to see the 429 itself)",
			e.Method, e.URL, seconds(e.Asked), seconds(retryBudget))
	}
	return fmt.Sprintf("HTTP 429 Too Many Requests for %s %s, %d attempts in all; the server is throttling: try again later",
		e.Method, e.URL, e.Attempts)
}

// seconds writes d in whole seconds when it is one, else to a tenth.
func seconds(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%d s", d/time.Second)
	}
	return fmt.Sprintf("%.1f s", d.Seconds())
}

// retryTripper retries HTTP 429 answers: up to [retryAttempts] attempts,
// each after what Retry-After asks (seconds or an HTTP date) or a jittered
// backoff, never more than [retryBudget] of waiting per request. Nothing
// else is retried. It sits above the tap, so the tap records every attempt.
type retryTripper struct {
	next    http.RoundTripper
	log     *record.Log
	secrets *record.Redactor
	// backoff is the first wait when Retry-After is absent; it doubles.
	backoff time.Duration
	now     func() time.Time
}

func (r *retryTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil && req.Body != http.NoBody {
		b, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		body = b
	}
	left := retryBudget
	for attempt := 1; ; attempt++ {
		try := req
		if body != nil {
			try = req.Clone(req.Context())
			try.Body = io.NopCloser(bytes.NewReader(body))
			try.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
			try.ContentLength = int64(len(body))
		}
		resp, err := r.next.RoundTrip(try)
		if err != nil || resp.StatusCode != http.StatusTooManyRequests {
			return resp, err
		}
		after := resp.Header.Get("Retry-After")
		asked, ok := r.retryAfter(after)
		wait := asked
		if !ok {
			wait = r.jitter(attempt)
		}
		info := &record.HTTPInfo{Method: req.Method, URL: record.EventURL(req.URL, r.secrets), Status: resp.StatusCode, RetryAfter: after, Attempt: attempt}
		if !ok && wait > left {
			wait = left // a backoff is cut to what is left, never refused
		}
		if attempt >= retryAttempts || wait > left {
			drain(resp)
			e := &ThrottleError{Method: req.Method, URL: record.EventURL(req.URL, r.secrets), Attempts: attempt, Budget: left}
			if ok {
				e.Asked = asked
			}
			info.Step, info.Error = record.HTTPGiveUp, e.Error()
			r.log.Append(record.Event{Kind: record.KindHTTP, HTTP: info, Text: e.Error()})
			return nil, e
		}
		info.Step, info.WaitMs = record.HTTPRetry, float64(wait)/float64(time.Millisecond)
		r.log.Append(record.Event{Kind: record.KindHTTP, HTTP: info, Text: fmt.Sprintf(
			"HTTP 429 for %s %s (attempt %d of %d); retrying in %s", req.Method, req.URL.Path, attempt, retryAttempts, seconds(wait.Round(100*time.Millisecond)))})
		drain(resp)
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-req.Context().Done():
			t.Stop()
			return nil, req.Context().Err()
		}
		left -= wait
	}
}

// retryAfter reads a Retry-After value: delay seconds or an HTTP date.
func (r *retryTripper) retryAfter(v string) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
		if n > int64(24*time.Hour/time.Second) {
			n = int64(24 * time.Hour / time.Second)
		}
		return time.Duration(n) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		d := t.Sub(r.now())
		if d < 0 {
			d = 0
		}
		return d, true
	}
	return 0, false
}

// jitter is the wait before attempt+1 when the server named none: the
// backoff doubled per attempt, times a random factor in [0.5, 1.5).
func (r *retryTripper) jitter(attempt int) time.Duration {
	d := r.backoff << (attempt - 1)
	return time.Duration(float64(d) * (0.5 + rand.Float64()))
}

// drain reads a little of a response body and closes it, so its
// connection can be used again.
func drain(resp *http.Response) {
	if resp.Body != nil {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		resp.Body.Close()
	}
}
