package session

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mcpwitness/demo"
	"mcpwitness/internal/hostiletest"
	"mcpwitness/paging"
	"mcpwitness/record"
)

// hostileHTTP starts the hostile server in an HTTP mode and returns its URL.
func hostileHTTP(t *testing.T, mode string) string {
	t.Helper()
	cmd := hostiletest.Command(hostiletest.Build(t), mode)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close() // it exits when stdin closes
		cmd.Wait()
	})
	url, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the hostile server's URL: %v", err)
	}
	go io.Copy(io.Discard, stdout)
	return strings.TrimSpace(url)
}

// An endless HTTP body or server-sent event ends the connection at the
// limit, with an error naming it; what came before stays in the record.
func TestHTTPFrameOverTheLimitEndsTheConnection(t *testing.T) {
	t.Parallel()
	tests := []struct {
		mode, what string
	}{
		{hostiletest.ModeHTTPHugeJSON, "an HTTP body"},
		{hostiletest.ModeHTTPHugeSSE, "a server-sent event"},
	}
	for _, tc := range tests {
		t.Run(tc.mode, func(t *testing.T) {
			s, rec := recorded(t, Target{URL: hostileHTTP(t, tc.mode)}, &Options{MaxFrame: 1 << 20})
			_, res := s.Walk(context.Background(), paging.Tools())
			want := "the server sent " + tc.what + " larger than 1 MiB (--max-frame raises the limit); the connection was closed"
			if res.Err == nil || !strings.Contains(res.Err.Error(), want) {
				t.Fatalf("walk error %v, want it to contain %q", res.Err, want)
			}
			if !hasEvent(s.Log(), record.KindError, want) {
				t.Error("no error event names the limit")
			}
			// The connection stays ended.
			if r := s.Call(context.Background(), "anything", nil, nil); r.Err == nil || !strings.Contains(r.Err.Error(), want) {
				t.Errorf("a call after the limit: %v", r.Err)
			}
			s.Close()
			readable(t, rec.Bytes())
			if !strings.Contains(rec.String(), `"serverInfo"`) {
				t.Error("the handshake answer before the big frame is not in the record")
			}
		})
	}
}

// Secrets in the URL never show in an error, neither when connecting nor
// when a request fails later.
func TestErrorsAreRedacted(t *testing.T) {
	t.Parallel()
	const pass, token = "pw-canary-41d2", "tok-canary-8e3a"
	secret := func(t *testing.T, err error) {
		t.Helper()
		if err == nil {
			t.Fatal("no error")
		}
		for _, c := range []string{pass, token, "user:***"} {
			if strings.Contains(err.Error(), c) {
				t.Errorf("error shows %q: %v", c, err)
			}
		}
		if !strings.Contains(err.Error(), "[REDACTED:") {
			t.Errorf("error shows no placeholder: %v", err)
		}
	}
	withSecrets := func(url string) string {
		return strings.Replace(url, "http://", "http://user:"+pass+"@", 1) + "/mcp?token=" + token
	}

	t.Run("dial", func(t *testing.T) {
		url := "http://" + refusingAddr(t)
		secret(t, dialErr(t, Target{URL: withSecrets(url)}, 5*time.Second))
	})
	t.Run("request", func(t *testing.T) {
		srv := httptest.NewServer(demo.Handler(nil))
		s := dial(t, Target{URL: withSecrets(srv.URL)}, nil)
		srv.CloseClientConnections()
		srv.Close()
		_, res := s.Walk(context.Background(), paging.Tools())
		secret(t, res.Err)
		for _, ev := range s.Log().Events() {
			for _, c := range []string{pass, token} {
				if strings.Contains(ev.Text, c) || (ev.Walk != nil && strings.Contains(ev.Walk.Error, c)) {
					t.Errorf("the log's %s event shows %q: %+v", ev.Kind, c, ev)
				}
			}
		}
	})
}

// Legacy SSE works against a real SSE server: the stream lives as long as
// the session, not as long as Dial.
func TestLegacySSEWalksAndCalls(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return demo.New(nil) }, nil))
	t.Cleanup(srv.Close)
	s := dial(t, Target{URL: srv.URL, SSE: true}, nil)
	if s.Info().Transport != "sse" {
		t.Fatalf("transport %q", s.Info().Transport)
	}
	_, res := s.Walk(context.Background(), paging.Tools())
	if res.Incomplete != paging.Complete || len(res.Pages) < 2 {
		t.Fatalf("walk: %q, %d pages, %v", res.Incomplete, len(res.Pages), res.Err)
	}
	r := s.Call(context.Background(), "add", json.RawMessage(`{"a":2,"b":3}`), nil)
	if r.Err != nil || !strings.Contains(string(r.Result), `"sum":5`) {
		t.Fatalf("call: %v %s", r.Err, r.Result)
	}
	if n := len(wireFrames(s.Log(), record.Recv, "tools/call")); n != 1 {
		t.Errorf("%d tools/call answers recorded, want 1", n)
	}
}

// On legacy SSE, an event that never ends ends the connection at the limit
// too, before the SDK's reader buffers it.
func TestLegacySSEEventOverTheLimitEndsTheConnection(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "event: endpoint\ndata: /message\n\nevent: message\ndata: {\"pad\":\"")
		pad := strings.Repeat("x", 64<<10)
		for {
			if _, err := io.WriteString(w, pad); err != nil {
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	s, err := Dial(context.Background(), Target{URL: srv.URL, SSE: true}, &Options{Timeout: 10 * time.Second, MaxFrame: 1 << 20})
	if err == nil {
		s.Close()
		t.Fatal("Dial succeeded")
	}
	const want = "the server sent a server-sent event larger than 1 MiB"
	if !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not contain %q", err, want)
	}
}
