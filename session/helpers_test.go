package session

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mcpwitness/demo"
	"mcpwitness/internal/hostiletest"
	"mcpwitness/record"
)

// demoInMemory dials the demo server in-process.
func demoInMemory(t *testing.T, opts *Options) *Session {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	srv := demo.New(nil)
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	return dial(t, Target{Transport: ct, Name: "demo"}, opts)
}

// demoStdio is a stdio target running the demo server in a child process.
func demoStdio(t *testing.T) Target {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Target{Command: []string{exe, "-test.run=^$"}, Env: []string{"MCPWITNESS_TEST_DEMO=1"}}
}

// demoHTTP serves the demo server on 127.0.0.1 and returns its URL.
func demoHTTP(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(demo.Handler(nil))
	t.Cleanup(srv.Close)
	return srv.URL
}

// hostile is a stdio target running a hostile test server in mode.
func hostile(t testing.TB, mode string, args ...string) Target {
	t.Helper()
	bin := hostiletest.Build(t)
	return Target{Command: append([]string{bin, "-mode", mode}, args...)}
}

// quickPace polls tasks and backs off throttled requests at a few
// milliseconds, so that a test waits on the server, not on the
// production intervals. Stopping a child keeps its own pace: a child has
// its step to exit on its own before it is signalled.
func quickPace() pace {
	return pace{poll: 5 * time.Millisecond, backoff: 5 * time.Millisecond}
}

// dial connects to target with opts (nil means defaults), a log with
// history, a 10 s timeout and [quickPace] unless opts says otherwise.
func dial(t testing.TB, target Target, opts *Options) *Session {
	t.Helper()
	if opts == nil {
		opts = &Options{}
	}
	if opts.pace == (pace{}) {
		opts.pace = quickPace()
	}
	if opts.Log == nil {
		opts.Log = record.NewLog(&record.LogOptions{History: true})
	}
	if opts.Timeout == 0 {
		opts.Timeout = 10 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := Dial(ctx, target, opts)
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// wireFrames returns the wire events of the log with the given method and
// direction.
func wireFrames(l *record.Log, dir, method string) []record.Event {
	var out []record.Event
	for _, ev := range l.Events() {
		if ev.Kind == record.KindWire && ev.Dir == dir && ev.Method == method {
			out = append(out, ev)
		}
	}
	return out
}

func toolNames(items []json.RawMessage) []string {
	var names []string
	for _, it := range items {
		var t struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal(it, &t)
		names = append(names, t.Name)
	}
	return names
}

// fourTools is a go-sdk server listing two tools a page: add (a+b as sum),
// then tool_a, tool_b and tool_c (each answering "ok").
func fourTools(name string) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: name, Version: "1"}, &mcp.ServerOptions{PageSize: 2})
	type in struct {
		A int `json:"a"`
		B int `json:"b"`
	}
	type out struct {
		Sum int `json:"sum"`
	}
	mcp.AddTool(srv, &mcp.Tool{Name: "add"}, func(_ context.Context, _ *mcp.CallToolRequest, a in) (*mcp.CallToolResult, out, error) {
		return nil, out{Sum: a.A + a.B}, nil
	})
	for _, name := range []string{"tool_a", "tool_b", "tool_c"} {
		mcp.AddTool(srv, &mcp.Tool{Name: name}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
		})
	}
	return srv
}

// postedRequest is what a test server reads of a POSTed JSON-RPC request.
type postedRequest struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Cursor string `json:"cursor"`
	} `json:"params"`
}

// readPost reads the body of r, gives it back to r for the handler that
// serves it, and returns the request it holds: the zero request when the
// body is not one.
func readPost(r *http.Request) (postedRequest, error) {
	body, err := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	var req postedRequest
	if err != nil {
		return req, err
	}
	if json.Unmarshal(body, &req) != nil {
		return postedRequest{}, nil
	}
	return req, nil
}

// shortTimeout sets the request timeout of a session already connected
// and walked: a test of a timeout wants it short for the request it tests,
// not for the connection and the handshake, which a busy machine slows.
func shortTimeout(s *Session, d time.Duration) *Session {
	s.timeout = d
	return s
}
