package session

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"mcpwitness/demo"
	"mcpwitness/record"

	"mcpwitness/session/oauth"
)

// headerEcho serves the demo server and keeps the headers of every request
// it got.
type headerEcho struct {
	mu   sync.Mutex
	seen []http.Header
}

func (e *headerEcho) serve(t *testing.T) string {
	t.Helper()
	h := demo.Handler(nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e.mu.Lock()
		e.seen = append(e.seen, r.Header.Clone())
		e.mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func (e *headerEcho) headers() []http.Header {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.seen
}

// redirector answers every request with a 307 to the same path at to.
func redirector(t *testing.T, to string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, to+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// credentialTarget is an HTTP target at url with an -H API key, an -H
// Authorization and a --header-cmd header.
func credentialTarget(url string) Target {
	return Target{URL: url, OAuth: oauth.Off,
		Headers:   []string{"X-Api-Key: key-123", "Authorization: Bearer user-token"},
		HeaderCmd: `echo "X-Vended: vended-456"`}
}

// A redirect to another origin (here another port) is followed without
// the -H headers, --header-cmd and Authorization, and an event says so.
func TestRedirectToAnotherOriginDropsCredentials(t *testing.T) {
	t.Parallel()
	echo := &headerEcho{}
	other := echo.serve(t)
	log := record.NewLog(&record.LogOptions{History: true})
	s := dial(t, credentialTarget(redirector(t, other)), &Options{Log: log})
	if r := s.Ping(context.Background()); r.Err != nil {
		t.Fatal(r.Err)
	}
	seen := echo.headers()
	if len(seen) == 0 {
		t.Fatal("the other origin got no request")
	}
	for _, h := range seen {
		for _, name := range []string{"X-Api-Key", "X-Vended", "Authorization", "Cookie"} {
			if v := h.Get(name); v != "" {
				t.Errorf("the other origin got %s: %s", name, v)
			}
		}
	}
	var crossed int
	for _, ev := range log.Events() {
		if ev.Kind == record.KindHTTP && ev.HTTP.Step == record.HTTPCrossOrigin {
			crossed++
			if got := strings.Join(ev.HTTP.Dropped, ","); got != "Authorization,X-Api-Key" {
				t.Errorf("dropped = %q, want Authorization,X-Api-Key", got)
			}
			if !strings.Contains(ev.Text, "another origin") {
				t.Errorf("event %q does not say why", ev.Text)
			}
		}
	}
	if crossed == 0 {
		t.Error("no cross-origin event")
	}
}

// The target's own origin gets every header: the control of the test above.
func TestSameOriginGetsTheHeaders(t *testing.T) {
	t.Parallel()
	echo := &headerEcho{}
	s := dial(t, credentialTarget(echo.serve(t)), nil)
	if r := s.Ping(context.Background()); r.Err != nil {
		t.Fatal(r.Err)
	}
	for _, h := range echo.headers() {
		if h.Get("X-Api-Key") != "key-123" || h.Get("X-Vended") != "vended-456" || h.Get("Authorization") != "Bearer user-token" {
			t.Fatalf("the target's origin got %v", h)
		}
	}
}

// A legacy SSE endpoint event naming another origin ends the connection
// before anything is posted there.
func TestSSEEndpointOfAnotherOriginRefused(t *testing.T) {
	t.Parallel()
	echo := &headerEcho{}
	other := echo.serve(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "event: endpoint\ndata: %s/message?session=1\n\n", other)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := Dial(ctx, Target{URL: srv.URL + "/sse", SSE: true, Headers: []string{"X-Api-Key: key-123"}}, &Options{Timeout: 10 * time.Second})
	if err == nil {
		s.Close()
		t.Fatal("Dial succeeded with an endpoint on another origin")
	}
	u, _ := url.Parse(other)
	for _, want := range []string{"another origin", u.Host} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if n := len(echo.headers()); n > 0 {
		t.Errorf("the other origin got %d requests", n)
	}
}

func TestOrigin(t *testing.T) {
	tests := []struct {
		a, b string
		same bool
	}{
		{"https://a.example/mcp", "https://A.example:443/other", true},
		{"http://a.example/mcp", "http://a.example:80/x?y", true},
		{"https://a.example/mcp", "http://a.example/mcp", false},
		{"http://127.0.0.1:1/mcp", "http://127.0.0.1:2/mcp", false},
		{"https://a.example/mcp", "https://b.a.example/mcp", false},
		{"http://[::1]:8/mcp", "http://[::1]:8/", true},
	}
	for _, tc := range tests {
		a, _ := url.Parse(tc.a)
		b, _ := url.Parse(tc.b)
		if got := sameOrigin(a, b); got != tc.same {
			t.Errorf("sameOrigin(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.same)
		}
	}
}
