package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"mcpwitness/demo"
)

// A server that loses the HTTP session mid-command: the headless command
// fails with exit 1, naming the lost session.
func TestLostHTTPSessionExits1NamingIt(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	lost := map[string]bool{}
	inner := demo.Handler(nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("Mcp-Session-Id")
		var body []byte
		if r.Body != nil {
			body, _ = io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		mu.Lock()
		// The first tools/list finds the session gone, as after a
		// server restart; so does every request after it.
		if id != "" && bytes.Contains(body, []byte(`"tools/list"`)) {
			lost[id] = true
		}
		gone := lost[id]
		mu.Unlock()
		if gone {
			http.Error(w, "session not found", http.StatusNotFound)
			return
		}
		inner.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	code, _, stderr := runCLI(t, "tools", "--url", srv.URL)
	if code != 1 {
		t.Errorf("exit %d, want 1; stderr: %s", code, stderr)
	}
	mu.Lock()
	var id string
	for k := range lost {
		id = k
	}
	mu.Unlock()
	if id == "" {
		t.Fatal("no request carried a session id to lose")
	}
	if want := "the server lost HTTP session " + id[:8] + "…"; !strings.Contains(stderr, want) {
		t.Errorf("stderr does not say %q:\n%s", want, stderr)
	}
}
