package session

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// badTasks is a server transport whose connections answer tools/call with
// handle and tasks/get with get, as a server of the tasks extension that
// gets them wrong might; the SDK's server answers everything else.
type badTasks struct {
	inner       mcp.Transport
	handle, get string
}

func (b *badTasks) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := b.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &badTaskConn{Connection: c, b: b}, nil
}

type badTaskConn struct {
	mcp.Connection
	b *badTasks
}

func (c *badTaskConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		msg, err := c.Connection.Read(ctx)
		if err != nil {
			return msg, err
		}
		req, ok := msg.(*jsonrpc.Request)
		if !ok || (req.Method != "tools/call" && req.Method != "tasks/get") {
			return msg, nil
		}
		res := c.b.handle
		if req.Method == "tasks/get" {
			res = c.b.get
		}
		if err := c.Connection.Write(ctx, &jsonrpc.Response{ID: req.ID, Result: json.RawMessage(res)}); err != nil {
			return nil, err
		}
	}
}

func TestExtensionBadAnswersNameTheCause(t *testing.T) {
	t.Parallel()
	const handle = `{"resultType":"task","taskId":"t1","status":"working","createdAt":"2026-01-01T00:00:00Z","lastUpdatedAt":"2026-01-01T00:00:00Z","ttlMs":null,"pollIntervalMs":100}`
	tests := []struct {
		name, handle, get, says string
	}{
		{"a handle without taskId", `{"resultType":"task","status":"working"}`, `{}`, "no taskId"},
		{"a status the extension does not name", handle, `{"resultType":"complete","taskId":"t1","status":"paused"}`, `status "paused"`},
		{"completed without a result", handle, `{"resultType":"complete","taskId":"t1","status":"completed"}`, "gave no result"},
		{"failed without an error", handle, `{"resultType":"complete","taskId":"t1","status":"failed"}`, "gave no error"},
		{"input requests that cannot be read", handle, `{"resultType":"complete","taskId":"t1","status":"input_required","inputRequests":{"k":{"method":"tools/call"}}}`, `its inputRequests cannot be answered: unsupported InputRequest method: "tools/call"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st, ct := mcp.NewInMemoryTransports()
			srv := mcp.NewServer(&mcp.Implementation{Name: "bad-tasks", Version: "1"}, nil)
			ss, err := srv.Connect(context.Background(), &badTasks{inner: st, handle: tc.handle, get: tc.get}, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { ss.Close() })
			s := dial(t, Target{Transport: ct, Name: "bad-tasks"}, &Options{Protocol: newProtocol})
			r := s.CallTask(context.Background(), "work", nil, &TaskOptions{Force: true})
			if r.Err == nil || !strings.Contains(r.Err.Error(), tc.says) {
				t.Errorf("err %v, want it to say %q", r.Err, tc.says)
			}
			if len(r.Result) != 0 {
				t.Errorf("result %s, want none", r.Result)
			}
		})
	}
}
