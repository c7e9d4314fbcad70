package session

import (
	"context"
	"errors"
	"fmt"
	"mcpwitness/record"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"mcpwitness/session/oauth"
)

func TestUnauthorizedSaysTheChallenge(t *testing.T) {
	for _, status := range []int{http.StatusUnauthorized, http.StatusForbidden} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="demo", resource_metadata="http://127.0.0.1:1/.well-known/oauth-protected-resource", scope="tools:read tools:call", error="insufficient_scope"`)
			http.Error(w, "no", status)
		}))
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		s, err := Dial(ctx, Target{URL: srv.URL + "/mcp"}, &Options{Timeout: 10 * time.Second})
		cancel()
		srv.Close()
		if err == nil {
			s.Close()
			t.Fatalf("%d: Dial succeeded", status)
		}
		var ce *oauth.ChallengeError
		if !errors.As(err, &ce) {
			t.Fatalf("%d: error %v is not a oauth.ChallengeError", status, err)
		}
		msg := err.Error()
		for _, want := range []string{
			fmt.Sprintf("HTTP %d %s", status, http.StatusText(status)), "the server asks for Bearer authorization", `realm="demo"`,
			`resource_metadata="http://127.0.0.1:1/.well-known/oauth-protected-resource"`,
			`scope="tools:read tools:call"`, `error="insufficient_scope"`,
		} {
			if !strings.Contains(msg, want) {
				t.Errorf("%d: error %q does not say %q", status, msg, want)
			}
		}
		// Cause first: right after what failed.
		if _, after, _ := strings.Cut(msg, ": "); !strings.HasPrefix(after, "HTTP ") {
			t.Errorf("%d: error %q does not start with the HTTP status", status, msg)
		}
	}
}

func TestHTTPEvidenceEvents(t *testing.T) {
	t.Parallel()
	url := demoHTTP(t)
	log := record.NewLog(&record.LogOptions{History: true})
	s := dial(t, Target{URL: url}, &Options{Log: log})
	if r := s.Ping(context.Background()); r.Err != nil {
		t.Fatal(r.Err)
	}
	var ok, withSession bool
	for _, h := range httpEvents(log, record.HTTPExchange) {
		if h.Method == http.MethodPost && h.Status == 200 && h.ContentType != "" && h.Ms > 0 {
			ok = true
		}
		if h.SessionID != "" {
			withSession = true
		}
	}
	if !ok || !withSession {
		t.Errorf("exchange events %+v: want a POST answered 200 with its content type and time, and one with Mcp-Session-Id", httpEvents(log, record.HTTPExchange))
	}
}

func TestUnauthorizedOverLegacySSESaysTheChallenge(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="legacy", error="invalid_token"`)
		http.Error(w, "no", http.StatusUnauthorized)
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := Dial(ctx, Target{URL: srv.URL + "/sse", SSE: true}, &Options{Timeout: 10 * time.Second})
	if err == nil {
		s.Close()
		t.Fatal("Dial succeeded")
	}
	if !strings.Contains(err.Error(), `realm="legacy"`) || !strings.Contains(err.Error(), "HTTP 401") {
		t.Errorf("error %q does not say the 401 and its challenge", err)
	}
}
