package hostiletest

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// The HTTP modes of testdata/hostile/http_origin.go, served with -http only.
const (
	ModeHTTPMetaInside     = "http-meta-inside"
	ModeHTTPMetaFile       = "http-meta-file"
	ModeHTTPRedirectOrigin = "http-redirect-origin"
	ModeHTTPSSEOrigin      = "http-sse-origin"
	ModeHTTPASElsewhere    = "http-as-elsewhere"
)

// HTTPServer is a hostile server serving Streamable HTTP.
type HTTPServer struct {
	// URL is its MCP endpoint, http://127.0.0.1:PORT/mcp; Inside its
	// second listener, http://127.0.0.1:PORT, the other origin.
	URL, Inside string
}

// Seen is one request the server's inside listener (the other origin, or
// the user's own network) got.
type Seen struct {
	Method  string      `json:"method"`
	Path    string      `json:"path"`
	Headers http.Header `json:"headers"`
	Form    url.Values  `json:"form"`
}

// ServeHTTP starts the hostile server bin in mode over HTTP on a free port
// of 127.0.0.1 (-http 127.0.0.1:0), with extra flags; it stops when tb ends.
func ServeHTTP(tb testing.TB, bin, mode string, args ...string) *HTTPServer {
	tb.Helper()
	cmd := Command(bin, mode, append([]string{"-http", "127.0.0.1:0"}, args...)...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		stdin.Close() // it exits when stdin closes
		cmd.Wait()
	})
	r := bufio.NewReader(stdout)
	line, err := r.ReadString('\n')
	if err != nil {
		tb.Fatalf("hostiletest: reading the server's URL: %v", err)
	}
	inside, err := r.ReadString('\n')
	if err != nil {
		tb.Fatalf("hostiletest: reading the server's inside URL: %v", err)
	}
	go io.Copy(io.Discard, r)
	return &HTTPServer{URL: strings.TrimPrefix(strings.TrimSpace(line), "listening on "),
		Inside: strings.TrimPrefix(strings.TrimSpace(inside), "inside ")}
}

// Seen lists the requests the inside listener got so far.
func (s *HTTPServer) Seen(tb testing.TB) []Seen {
	tb.Helper()
	resp, err := http.Get(strings.TrimSuffix(s.URL, "/mcp") + "/seen")
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	var seen []Seen
	if err := json.NewDecoder(resp.Body).Decode(&seen); err != nil {
		tb.Fatalf("hostiletest: reading /seen: %v", err)
	}
	return seen
}
