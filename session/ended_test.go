package session

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mcpwitness/demo"
	"mcpwitness/record"
)

// A Streamable HTTP server that goes away ends the session on its own (the
// SDK's standalone stream cannot reconnect): a closed event says so and
// why, so that the screen does not go on as if connected.
func TestHTTPServerGoneEndsTheSession(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(demo.Handler(nil))
	t.Cleanup(srv.Close)
	s := dial(t, Target{URL: srv.URL}, nil)
	srv.CloseClientConnections()
	srv.Close()
	waitFor(t, "a closed event", func() bool { return hasEvent(s.Log(), record.KindClosed, "connection ended") })
	for _, ev := range s.Log().Events() {
		if ev.Kind == record.KindClosed && !strings.Contains(ev.Text, "connection ended: ") {
			t.Errorf("closed event %q does not say why", ev.Text)
		}
	}
}

// A legacy SSE server that goes away closes its event stream: the session
// ends, and the closed event says the server closed it.
func TestSSEServerGoneEndsTheSession(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return demo.New(nil) }, nil))
	t.Cleanup(srv.Close)
	s := dial(t, Target{URL: srv.URL, SSE: true}, nil)
	srv.CloseClientConnections()
	srv.Close()
	waitFor(t, "a closed event", func() bool { return hasEvent(s.Log(), record.KindClosed, "connection ended: ") })
}

// A session closed by the client says only that: no "connection ended"
// as if the server had gone.
func TestClosedHTTPSessionSaysNoMore(t *testing.T) {
	t.Parallel()
	s := dial(t, Target{URL: demoHTTP(t)}, nil)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	var closed []string
	for _, ev := range s.Log().Events() {
		if ev.Kind == record.KindClosed {
			closed = append(closed, ev.Text)
		}
	}
	if len(closed) != 1 || closed[0] != "session closed" {
		t.Errorf("closed events %q, want only \"session closed\"", closed)
	}
}
