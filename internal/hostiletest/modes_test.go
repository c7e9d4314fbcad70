package hostiletest_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mcpwitness/internal/hostiletest"
)

func TestTaskRequired(t *testing.T) {
	t.Parallel()
	s := mustStart(t, hostiletest.ModeTaskRequired)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	tools := map[string]*mcp.Tool{}
	for tool, err := range s.cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		tools[tool.Name] = tool
	}
	for _, name := range []string{"tool_1_1", "tool_1_2", "tool_3_2", "ref_broken", "schema_broken"} {
		if tools[name] == nil {
			t.Errorf("tool %s not listed", name)
		}
	}
	if tools["tool_1_2"] == nil || tools["tool_1_2"].OutputSchema == nil {
		t.Fatalf("tool_1_2 has no outputSchema")
	}

	res, err := call(t, s.cs, 5*time.Second, "tool_1_2", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := json.Marshal(res.StructuredContent); string(got) != `{"n":"not a number"}` {
		t.Errorf("tool_1_2 structuredContent %s", got)
	}
	for _, name := range []string{"ref_broken", "schema_broken"} {
		res, err := call(t, s.cs, 5*time.Second, name, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := json.Marshal(res.StructuredContent); string(got) != `{}` {
			t.Errorf("%s structuredContent %s", name, got)
		}
	}
	_, err = call(t, s.cs, 5*time.Second, "tool_1_1", nil)
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeMethodNotFound {
		t.Errorf("plain call of tool_1_1: %v, want JSON-RPC error %d", err, jsonrpc.CodeMethodNotFound)
	}
	_ = s.cs.Close()
	want := "recv initialize\nrecv notifications/initialized\n" +
		strings.Repeat("recv tools/list\n", 3) + strings.Repeat("recv tools/call\n", 4)
	if got := s.stderr.String(); got != want {
		t.Errorf("server received:\n%s\nwant:\n%s", got, want)
	}
}

func TestEnv(t *testing.T) {
	t.Parallel()
	bin := hostiletest.Build(t)
	cmd := hostiletest.Command(bin, hostiletest.ModeEnv)
	cmd.Env = append(cmd.Environ(), "HOSTILE_SECRET=s3cret-value")
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "hostiletest", Version: "0"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: time.Second}, legacy)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if got := allNames(walk(t, cs, 10)); !slices.Equal(got, []string{"env"}) {
		t.Errorf("tools %q", got)
	}
	res, err := call(t, cs, 5*time.Second, "env", map[string]any{"name": "HOSTILE_SECRET"})
	if err != nil || res.IsError || text(res) != "s3cret-value" {
		t.Errorf("env HOSTILE_SECRET: %+v, %v", res, err)
	}
	res, err = call(t, cs, 5*time.Second, "env", map[string]any{"name": "HOSTILE_UNSET"})
	if err != nil || !res.IsError {
		t.Errorf("env HOSTILE_UNSET: %+v, %v", res, err)
	}
	if got := stderr.String(); got != "started\n" {
		t.Errorf("stderr %q", got)
	}
}

func TestTTL(t *testing.T) {
	t.Parallel()
	s := mustStart(t, hostiletest.ModeTTL, "-trace")
	for range 2 {
		for _, p := range walk(t, s.cs, 10) {
			if p.ttlMs != 60000 {
				t.Errorf("page %q ttlMs %d, want 60000", p.cursor, p.ttlMs)
			}
		}
	}
	_ = s.cs.Close()
	if n := strings.Count(s.stderr.String(), "recv tools/list\n"); n != 6 {
		t.Errorf("server saw %d tools/list requests, want 6", n)
	}
}

func TestDelay(t *testing.T) {
	t.Parallel()
	s := mustStart(t, hostiletest.ModeNormal, "-delay", "1m")
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if _, err := s.cs.ListTools(ctx, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("ListTools: %v, want DeadlineExceeded", err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := s.cs.Ping(ctx, nil); err != nil {
		t.Errorf("ping while an answer is held back: %v", err)
	}
}

// TestRawWire reads what the server writes, byte for byte, for the fields
// and lines the SDK hides or cannot survive.
func TestRawWire(t *testing.T) {
	t.Parallel()
	bin := hostiletest.Build(t)
	exchange := func(t *testing.T, mode string, requests ...string) []string {
		t.Helper()
		cmd := hostiletest.Command(bin, mode)
		cmd.Stdin = strings.NewReader(strings.Join(requests, "\n") + "\n")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", mode, err)
		}
		var lines []string
		sc := bufio.NewScanner(bytes.NewReader(out))
		for sc.Scan() {
			lines = append(lines, sc.Text())
		}
		return lines
	}
	const list = `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`

	t.Run("task-required execution", func(t *testing.T) {
		t.Parallel()
		lines := exchange(t, hostiletest.ModeTaskRequired, list)
		if len(lines) != 1 || !strings.Contains(lines[0], `"name":"tool_1_1","description":"Requires task-based execution.","inputSchema":{"type":"object"},"execution":{"taskSupport":"required"}`) {
			t.Errorf("got %q", lines)
		}
	})
	t.Run("garbage lines", func(t *testing.T) {
		t.Parallel()
		lines := exchange(t, hostiletest.ModeGarbage, list)
		if len(lines) != 3 || lines[0] != "this is not json" || lines[1] != `{"jsonrpc":"2.0","id":` ||
			!strings.HasPrefix(lines[2], `{"jsonrpc":"2.0","id":1,"result":{"tools":[`) {
			t.Errorf("got %q", lines)
		}
	})
	t.Run("errors", func(t *testing.T) {
		t.Parallel()
		lines := exchange(t, hostiletest.ModeNormal,
			`not json`,
			`{"jsonrpc":"2.0","id":"a","method":"server/discover","params":{}}`,
			`{"jsonrpc":"2.0","id":"b","method":"no/such"}`,
			`{"jsonrpc":"2.0","method":"notifications/whatever"}`,
			`{"jsonrpc":"2.0","id":"c","method":"initialize","params":{"protocolVersion":"1999-01-01"}}`,
			`{"jsonrpc":"2.0","id":"d","method":"ping"}`)
		want := []string{
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: invalid character 'o' in literal null (expecting 'u')"}}`,
			`{"jsonrpc":"2.0","id":"a","error":{"code":-32601,"message":"method not found: server/discover"}}`,
			`{"jsonrpc":"2.0","id":"b","error":{"code":-32601,"message":"method not found: no/such"}}`,
			`{"jsonrpc":"2.0","id":"c","result":{"capabilities":{"prompts":{},"resources":{},"tools":{"listChanged":true}},"protocolVersion":"2025-11-25","serverInfo":{"name":"hostile-normal","version":"0.0.1"}}}`,
			`{"jsonrpc":"2.0","id":"d","result":{}}`,
		}
		if !slices.Equal(lines, want) {
			t.Errorf("got\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
		}
	})
	t.Run("long line", func(t *testing.T) {
		t.Parallel()
		// A request far beyond bufio.Scanner's 64 KiB default.
		pad := strings.Repeat("x", 1<<20)
		lines := exchange(t, hostiletest.ModeNormal, `{"jsonrpc":"2.0","id":7,"method":"ping","params":{"_meta":{"pad":"`+pad+`"}}}`)
		if !slices.Equal(lines, []string{`{"jsonrpc":"2.0","id":7,"result":{}}`}) {
			t.Errorf("got %q", lines)
		}
	})
}
