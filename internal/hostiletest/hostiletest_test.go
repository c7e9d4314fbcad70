package hostiletest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mcpwitness/internal/hostiletest"
)

// legacy pins the protocol so the SDK never answers ListTools from its TTL
// cache and skips server/discover.
var legacy = &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"}

// syncBuffer is a bytes.Buffer safe to write from exec's stderr copier while
// a test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// server is one hostile server under test.
type server struct {
	cmd    *exec.Cmd
	stderr *syncBuffer
	cs     *mcp.ClientSession
}

// start runs the server in mode and connects the go-sdk client to it.
func start(t *testing.T, mode string, opts *mcp.ClientSessionOptions, args ...string) (*server, error) {
	t.Helper()
	bin := hostiletest.Build(t)
	s := &server{cmd: hostiletest.Command(bin, mode, args...), stderr: &syncBuffer{}}
	s.cmd.Stderr = s.stderr
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "hostiletest", Version: "0"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: s.cmd, TerminateDuration: time.Second}, opts)
	if err != nil {
		return s, err
	}
	s.cs = cs
	t.Cleanup(func() { _ = cs.Close() })
	return s, nil
}

// mustStart is start that fails the test if the client cannot connect.
func mustStart(t *testing.T, mode string, args ...string) *server {
	t.Helper()
	s, err := start(t, mode, legacy, args...)
	if err != nil {
		t.Fatalf("connect %s: %v (stderr: %q)", mode, err, s.stderr.String())
	}
	return s
}

// page is one ListTools answer.
type page struct {
	cursor string // the cursor sent
	names  []string
	next   string
	ttlMs  int
}

// walk follows cursors for at most limit requests.
func walk(t *testing.T, cs *mcp.ClientSession, limit int) []page {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var pages []page
	cursor := ""
	for range limit {
		res, err := cs.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
		if err != nil {
			t.Fatalf("ListTools(cursor %q): %v", cursor, err)
		}
		p := page{cursor: cursor, next: res.NextCursor, ttlMs: res.TTLMs}
		for _, tool := range res.Tools {
			p.names = append(p.names, tool.Name)
		}
		pages = append(pages, p)
		if res.NextCursor == "" {
			break
		}
		cursor = res.NextCursor
	}
	return pages
}

func cursors(pages []page) (sent, next []string) {
	for _, p := range pages {
		sent = append(sent, p.cursor)
		next = append(next, p.next)
	}
	return sent, next
}

func allNames(pages []page) []string {
	var names []string
	for _, p := range pages {
		names = append(names, p.names...)
	}
	return names
}

func call(t *testing.T, cs *mcp.ClientSession, timeout time.Duration, name string, args map[string]any) (*mcp.CallToolResult, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
}

func text(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func TestBuildIsCached(t *testing.T) {
	a := hostiletest.Build(t)
	b := hostiletest.Build(t)
	if a != b {
		t.Fatalf("Build returned %q then %q", a, b)
	}
}

func TestHandshake(t *testing.T) {
	t.Parallel()
	t.Run("discover falls back to initialize", func(t *testing.T) {
		t.Parallel()
		s, err := start(t, hostiletest.ModeNormal, nil, "-trace")
		if err != nil {
			t.Fatal(err)
		}
		res := s.cs.InitializeResult()
		if res.ProtocolVersion != "2025-11-25" {
			t.Errorf("protocol %q, want 2025-11-25", res.ProtocolVersion)
		}
		if res.ServerInfo == nil || res.ServerInfo.Name != "hostile-normal" || res.ServerInfo.Version != "0.0.1" {
			t.Errorf("serverInfo %+v", res.ServerInfo)
		}
		if c := res.Capabilities; c.Tools == nil || !c.Tools.ListChanged || c.Prompts == nil || c.Resources == nil {
			t.Errorf("capabilities %+v", c)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := s.cs.Ping(ctx, nil); err != nil {
			t.Errorf("ping: %v", err)
		}
		_ = s.cs.Close()
		want := "recv server/discover\nrecv initialize\nrecv notifications/initialized\nrecv ping\n"
		if got := s.stderr.String(); got != want {
			t.Errorf("server received:\n%s\nwant:\n%s", got, want)
		}
	})
	for _, v := range []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"} {
		t.Run(v, func(t *testing.T) {
			t.Parallel()
			s, err := start(t, hostiletest.ModeNormal, &mcp.ClientSessionOptions{ProtocolVersion: v})
			if err != nil {
				t.Fatal(err)
			}
			if got := s.cs.InitializeResult().ProtocolVersion; got != v {
				t.Errorf("protocol %q, want %q", got, v)
			}
		})
	}
}

func TestNormal(t *testing.T) {
	t.Parallel()
	s := mustStart(t, hostiletest.ModeNormal, "-pages", "4", "-page-size", "3")
	pages := walk(t, s.cs, 10)
	sent, next := cursors(pages)
	if want := []string{"", "c1", "c2", "c3"}; !slices.Equal(sent, want) {
		t.Errorf("cursors sent %q, want %q", sent, want)
	}
	if want := []string{"c1", "c2", "c3", ""}; !slices.Equal(next, want) {
		t.Errorf("next cursors %q, want %q", next, want)
	}
	names := allNames(pages)
	if len(names) != 12 || names[0] != "tool_1_1" || names[11] != "tool_4_3" {
		t.Errorf("tools %q", names)
	}
	res, err := call(t, s.cs, 5*time.Second, "tool_2_3", nil)
	if err != nil || res.IsError || text(res) != "ok" {
		t.Errorf("call tool_2_3: %+v, %v", res, err)
	}
	_, err = call(t, s.cs, 5*time.Second, "tool_9_9", nil)
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("call of an unknown tool: %v, want JSON-RPC error %d", err, jsonrpc.CodeInvalidParams)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := s.cs.ListTools(ctx, &mcp.ListToolsParams{Cursor: "bogus"}); !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("ListTools(bogus cursor): %v, want JSON-RPC error %d", err, jsonrpc.CodeInvalidParams)
	}
	if _, err := s.cs.ListPrompts(ctx, nil); err != nil {
		t.Errorf("ListPrompts: %v", err)
	}
	if _, err := s.cs.ListResources(ctx, nil); err != nil {
		t.Errorf("ListResources: %v", err)
	}
}

func TestCursorLoop(t *testing.T) {
	t.Parallel()
	s := mustStart(t, hostiletest.ModeCursorLoop)
	pages := walk(t, s.cs, 6)
	sent, next := cursors(pages)
	if want := []string{"", "A", "B", "A", "B", "A"}; !slices.Equal(sent, want) {
		t.Errorf("cursors sent %q, want %q", sent, want)
	}
	if want := []string{"A", "B", "A", "B", "A", "B"}; !slices.Equal(next, want) {
		t.Errorf("next cursors %q, want %q", next, want)
	}
	if got := pages[3].names; !slices.Equal(got, pages[1].names) || slices.Equal(got, pages[0].names) {
		t.Errorf("page for cursor A again: %q (first: %q)", got, pages[1].names)
	}
}

func TestEndless(t *testing.T) {
	t.Parallel()
	s := mustStart(t, hostiletest.ModeEndless)
	pages := walk(t, s.cs, 10)
	if len(pages) != 10 {
		t.Fatalf("%d pages", len(pages))
	}
	for i, p := range pages {
		if want := fmt.Sprintf("p%d", i+1); p.next != want {
			t.Errorf("page %d next %q, want %q", i+1, p.next, want)
		}
		if want := fmt.Sprintf("tool_%d_1", i+1); len(p.names) != 2 || p.names[0] != want {
			t.Errorf("page %d tools %q", i+1, p.names)
		}
	}
	if res, err := call(t, s.cs, 5*time.Second, "tool_10_2", nil); err != nil || text(res) != "ok" {
		t.Errorf("call tool_10_2: %+v, %v", res, err)
	}
}

func TestHangList(t *testing.T) {
	t.Parallel()
	s := mustStart(t, hostiletest.ModeHangList)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if _, err := s.cs.ListTools(ctx, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("ListTools: %v, want DeadlineExceeded", err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := s.cs.Ping(ctx, nil); err != nil {
		t.Errorf("ping after the hang: %v", err)
	}
}

func TestHangCall(t *testing.T) {
	t.Parallel()
	s := mustStart(t, hostiletest.ModeHangCall)
	if got := allNames(walk(t, s.cs, 10)); len(got) != 6 {
		t.Errorf("tools %q", got)
	}
	if _, err := call(t, s.cs, 300*time.Millisecond, "tool_1_1", nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("CallTool: %v, want DeadlineExceeded", err)
	}
}

func TestDieOnCall(t *testing.T) {
	t.Parallel()
	s := mustStart(t, hostiletest.ModeDieOnCall)
	if got := allNames(walk(t, s.cs, 10)); len(got) != 6 {
		t.Errorf("tools %q", got)
	}
	_, err := call(t, s.cs, 5*time.Second, "tool_1_1", nil)
	if err == nil {
		t.Fatal("CallTool succeeded against a server that exits")
	}
	// The client reads EOF where the answer should be.
	if !errors.Is(err, io.EOF) {
		t.Errorf("CallTool: %v, want io.EOF", err)
	}
	if _, err := call(t, s.cs, 5*time.Second, "tool_1_1", nil); !errors.Is(err, mcp.ErrConnectionClosed) {
		t.Errorf("second CallTool: %v, want ErrConnectionClosed", err)
	}
	closeErr := s.cs.Close()
	var exitErr *exec.ExitError
	if !errors.As(closeErr, &exitErr) || exitErr.ExitCode() != 3 {
		t.Errorf("Close: %v, want exit status 3", closeErr)
	}
	if got := s.stderr.String(); got != "fatal: crashing on purpose\n" {
		t.Errorf("stderr %q", got)
	}
}

func TestExitAtOnce(t *testing.T) {
	t.Parallel()
	for _, opts := range []*mcp.ClientSessionOptions{nil, legacy} {
		bin := hostiletest.Build(t)
		cmd := hostiletest.Command(bin, hostiletest.ModeExitAtOnce)
		stderr := &syncBuffer{}
		cmd.Stderr = stderr
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		client := mcp.NewClient(&mcp.Implementation{Name: "hostiletest", Version: "0"}, nil)
		cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: time.Second}, opts)
		cancel()
		if err == nil {
			_ = cs.Close()
			t.Fatal("Connect succeeded against a server that exits at once")
		}
		// Typically `calling "initialize": EOF`, or with server/discover
		// first `connection closed: calling "initialize": client is
		// closing: EOF`; a write racing the exit may fail with EPIPE instead.
		t.Logf("Connect error (opts %+v): %v", opts, err)
		if errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), `calling "initialize"`) {
			t.Errorf("Connect: %v, want a failed initialize before the deadline", err)
		}
		if got := stderr.String(); got != "cannot start: missing API key\n" {
			t.Errorf("stderr %q", got)
		}
	}
}

// TestGarbage pins what the go-sdk client does with a non-JSON line on
// stdout: its decoder fails on the first one ("this is not json" reads as a
// broken "true"), the call in flight fails with that *json.SyntaxError, and
// the connection is closed for good. The answer after the garbage is never
// read.
func TestGarbage(t *testing.T) {
	t.Parallel()
	s := mustStart(t, hostiletest.ModeGarbage)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := s.cs.ListTools(ctx, nil)
	var syntaxErr *json.SyntaxError
	if !errors.As(err, &syntaxErr) {
		t.Fatalf("ListTools: %v, want a *json.SyntaxError", err)
	}
	if want := `calling "tools/list": invalid character 'h' in literal true (expecting 'r')`; err.Error() != want {
		t.Errorf("ListTools: %q, want %q", err, want)
	}
	if _, err := call(t, s.cs, 5*time.Second, "tool_1_1", nil); !errors.Is(err, mcp.ErrConnectionClosed) {
		t.Errorf("CallTool after the garbage: %v, want ErrConnectionClosed", err)
	}
}

func TestFloodStderr(t *testing.T) {
	t.Parallel()
	const lines = 20000 // several times a pipe buffer
	s := mustStart(t, hostiletest.ModeFloodStderr, "-stderr-lines", fmt.Sprint(lines))
	if got := allNames(walk(t, s.cs, 10)); len(got) != 6 {
		t.Errorf("tools %q", got)
	}
	if res, err := call(t, s.cs, 5*time.Second, "tool_3_2", nil); err != nil || text(res) != "ok" {
		t.Errorf("call: %+v, %v", res, err)
	}
	_ = s.cs.Close()
	out := s.stderr.String()
	if n := strings.Count(out, "\n"); n != lines {
		t.Errorf("%d stderr lines, want %d", n, lines)
	}
	if want := fmt.Sprintf("flood line %d of %d:", lines, lines); !strings.Contains(out, want) {
		t.Errorf("stderr lacks %q", want)
	}
}

func TestEmptyPageCursor(t *testing.T) {
	t.Parallel()
	s := mustStart(t, hostiletest.ModeEmptyPageCursor)
	pages := walk(t, s.cs, 10)
	_, next := cursors(pages)
	if want := []string{"c1", "c2", ""}; !slices.Equal(next, want) {
		t.Errorf("next cursors %q, want %q", next, want)
	}
	var counts []int
	for _, p := range pages {
		counts = append(counts, len(p.names))
	}
	if want := []int{2, 0, 2}; !slices.Equal(counts, want) {
		t.Errorf("tools per page %v, want %v", counts, want)
	}
}

func TestDuplicate(t *testing.T) {
	t.Parallel()
	s := mustStart(t, hostiletest.ModeDuplicate)
	pages := walk(t, s.cs, 10)
	if len(pages) != 3 || !slices.Contains(pages[0].names, "tool_1_1") || !slices.Contains(pages[1].names, "tool_1_1") {
		t.Errorf("pages %+v, want tool_1_1 on pages 1 and 2", pages)
	}
}
