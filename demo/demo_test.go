package demo

//lint:file-ignore SA1019 logging is deprecated as of protocol 2026-07-28 (SEP-2577), but still in use, and showing it is part of the demo.

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// legacy is the newest handshake protocol: list results are never served
// from the client's TTL cache, so every ListTools call reaches the wire.
var legacy = &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"}

// tap is an [mcp.Transport] that records every message the client reads,
// as encoded JSON.
type tap struct {
	mcp.Transport

	mu     sync.Mutex
	frames [][]byte
}

func (t *tap) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &tapConn{Connection: c, tap: t}, nil
}

// Frames returns a copy of the frames read so far.
func (t *tap) Frames() [][]byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Clone(t.frames)
}

type tapConn struct {
	mcp.Connection
	tap *tap
}

func (c *tapConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	m, err := c.Connection.Read(ctx)
	if err == nil {
		if b, err := jsonrpc.EncodeMessage(m); err == nil {
			c.tap.mu.Lock()
			c.tap.frames = append(c.tap.frames, b)
			c.tap.mu.Unlock()
		}
	}
	return m, err
}

// bodyTap is an [http.RoundTripper] that records every response body the
// client reads, raw (for Streamable HTTP, where wrapping the connection
// would break the standalone stream).
type bodyTap struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *bodyTap) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.TeeReader(resp.Body, b), resp.Body}
	return resp, nil
}

func (b *bodyTap) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *bodyTap) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// events collects what the server sends a client besides answers.
type events struct {
	mu          sync.Mutex
	progress    []*mcp.ProgressNotificationParams
	logs        []*mcp.LoggingMessageParams
	listChanged chan struct{}
	progressed  chan struct{}
	logged      chan struct{}
}

func newEvents() *events {
	return &events{
		listChanged: make(chan struct{}, 16),
		progressed:  make(chan struct{}, 1024),
		logged:      make(chan struct{}, 1024),
	}
}

func (e *events) clientOptions() *mcp.ClientOptions {
	return &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			e.listChanged <- struct{}{}
		},
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			e.mu.Lock()
			e.progress = append(e.progress, req.Params)
			e.mu.Unlock()
			e.progressed <- struct{}{}
		},
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			e.mu.Lock()
			e.logs = append(e.logs, req.Params)
			e.mu.Unlock()
			e.logged <- struct{}{}
		},
	}
}

func (e *events) Progress() []*mcp.ProgressNotificationParams {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.progress)
}

func (e *events) Logs() []*mcp.LoggingMessageParams {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.logs)
}

// wait waits for one signal on c, failing the test after a generous bound
// (a hang guard, not a timing assertion).
func wait(t *testing.T, c <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-c:
	case <-time.After(time.Minute):
		t.Fatalf("no %s within 10s", what)
	}
}

// connect connects a client to a new demo server in memory.
func connect(t *testing.T, opts *Options, ev *events, so *mcp.ClientSessionOptions) (*mcp.ClientSession, *tap) {
	t.Helper()
	return connectTo(t, New(opts), ev, so)
}

// connectTo connects a client to s in memory.
func connectTo(t *testing.T, s *mcp.Server, ev *events, so *mcp.ClientSessionOptions) (*mcp.ClientSession, *tap) {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatalf("server connect: %v", err)
	}
	t.Cleanup(func() { ss.Close() })
	if ev == nil {
		ev = newEvents()
	}
	tp := &tap{Transport: ct}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "demo-test", Version: "0"}, ev.clientOptions()).Connect(ctx, tp, so)
	if err != nil {
		t.Fatalf("client connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, tp
}

// connectHTTP connects a client to url over Streamable HTTP, recording the
// raw response bodies.
func connectHTTP(t *testing.T, url string, ev *events) (*mcp.ClientSession, *bodyTap) {
	t.Helper()
	if ev == nil {
		ev = newEvents()
	}
	bt := &bodyTap{}
	tr := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bt}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "demo-test", Version: "0"}, ev.clientOptions()).Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatalf("client connect over HTTP: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, bt
}

// walk reads every page of tools with raw ListTools calls, following
// NextCursor, and returns the pages.
func walk(t *testing.T, cs *mcp.ClientSession) [][]*mcp.Tool {
	t.Helper()
	var pages [][]*mcp.Tool
	cursor := ""
	for {
		res, err := cs.ListTools(context.Background(), &mcp.ListToolsParams{Cursor: cursor})
		if err != nil {
			t.Fatalf("ListTools(cursor %q) after %d pages: %v", cursor, len(pages), err)
		}
		pages = append(pages, res.Tools)
		if res.NextCursor == "" {
			return pages
		}
		if len(pages) > 2000 {
			t.Fatalf("more than 2000 pages: the cursor loop never ends")
		}
		cursor = res.NextCursor
	}
}

// flatten returns the tools of all pages, in order.
func flatten(pages [][]*mcp.Tool) []*mcp.Tool {
	var all []*mcp.Tool
	for _, p := range pages {
		all = append(all, p...)
	}
	return all
}

// names returns the tools' names.
func names(tools []*mcp.Tool) []string {
	out := make([]string, len(tools))
	for i, t := range tools {
		out[i] = t.Name
	}
	return out
}

// call calls a tool and fails the test on a protocol error.
func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("CallTool(%s): %v", name, err)
	}
	return res
}

// textOf returns the text of a result's text blocks, joined by newlines.
func textOf(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// structured returns a result's structuredContent as a JSON object.
func structured(t *testing.T, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("structuredContent %s is not an object: %v", b, err)
	}
	return m
}

// startHTTP serves a new demo server with httptest on 127.0.0.1.
func startHTTP(t *testing.T, opts *Options) string {
	t.Helper()
	srv := httptest.NewServer(Handler(opts))
	t.Cleanup(srv.Close)
	return srv.URL
}
