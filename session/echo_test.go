package session

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"mcpwitness/demo"
	"mcpwitness/paging"
)

// A server that quotes the user's credentials back in a JSON-RPC error does
// not get them onto the screen: the walk's error, and every event, shows the
// placeholder. The error names the method and page once.
func TestServerEchoOfASecretIsRedacted(t *testing.T) {
	t.Parallel()
	const token = "Bearer echo-canary-5f1c"
	inner := demo.Handler(nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if req, _ := readPost(r); req.Method == "tools/list" {
			w.Header().Set("Content-Type", "application/json")
			msg, _ := json.Marshal("token rejected: " + r.Header.Get("Authorization"))
			w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"error":{"code":-32001,"message":` + string(msg) + `}}`))
			return
		}
		inner.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	s := dial(t, Target{URL: srv.URL, Headers: []string{"Authorization: " + token}}, nil)
	_, res := s.Walk(context.Background(), paging.Tools())
	if res.Err == nil {
		t.Fatal("the walk did not fail")
	}
	text := res.Err.Error()
	if strings.Contains(text, "echo-canary") || !strings.Contains(text, "[REDACTED:Authorization") {
		t.Errorf("walk error %q: want the token replaced by its placeholder", text)
	}
	if n := strings.Count(text, "tools/list"); n != 1 {
		t.Errorf("walk error %q names tools/list %d times; want once", text, n)
	}
	for _, ev := range s.Log().Events() {
		if ev.Walk != nil && strings.Contains(ev.Walk.Error, "echo-canary") {
			t.Errorf("the %s event shows the token: %q", ev.Kind, ev.Walk.Error)
		}
	}
}

// A URL where nothing listens says so, with the transport's own words kept.
func TestConnectionRefusedSaysNothingListens(t *testing.T) {
	t.Parallel()
	url := "http://" + refusingAddr(t) + "/mcp"
	err := dialErr(t, Target{URL: url}, 10*time.Second)
	for _, want := range []string{"nothing is listening there (connection refused)", "is the server running", "connect: connection refused"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}
