package demo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tasks wraps a server transport (stdio, in-memory) so that each of its
// connections answers the task methods — tools/call with a task parameter,
// tasks/get, tasks/result, tasks/cancel and tasks/list — before the SDK,
// which has no tasks support, sees them. Each connection has tasks of its
// own.
func Tasks(t mcp.Transport) mcp.Transport { return &taskTransport{inner: t} }

// TasksWith is [Tasks] with opts' task options ([Options.TaskStep]).
func TasksWith(t mcp.Transport, opts *Options) mcp.Transport {
	tt := &taskTransport{inner: t}
	if opts != nil {
		tt.step = opts.TaskStep
	}
	return tt
}

type taskTransport struct {
	inner mcp.Transport
	step  func(ctx context.Context, message string)
}

func (t *taskTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	life, end := context.WithCancel(context.Background())
	store := newTaskStore()
	store.step = t.step
	return &taskConn{inner: c, store: store, life: life, end: end, pending: map[string]chan *jsonrpc.Response{}}, nil
}

// taskConn is a server connection that answers the task methods itself.
type taskConn struct {
	inner mcp.Connection
	store *taskStore
	// life ends when the connection closes, and with it every answer
	// still being written.
	life context.Context
	end  context.CancelFunc

	mu sync.Mutex
	// elicit says the client declared elicitation at initialize.
	canElicit bool
	seq       int
	// pending are the task's own requests to the client, by id.
	pending map[string]chan *jsonrpc.Response
}

// Read passes on what the SDK answers and answers the task methods, and
// the client's answers to the tasks' own requests, itself.
func (c *taskConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		msg, err := c.inner.Read(ctx)
		if err != nil {
			return msg, err
		}
		switch m := msg.(type) {
		case *jsonrpc.Request:
			if m.Method == "initialize" {
				c.noteClient(m.Params)
			}
			if m.IsCall() && isTaskMethod(m.Method, m.Params) {
				go c.answer(m)
				continue
			}
		case *jsonrpc.Response:
			if ch := c.takePending(m.ID); ch != nil {
				ch <- m
				continue
			}
		}
		return msg, nil
	}
}

// noteClient keeps whether the client can be asked for input.
func (c *taskConn) noteClient(params json.RawMessage) {
	var p struct {
		Capabilities struct {
			Elicitation json.RawMessage `json:"elicitation"`
		} `json:"capabilities"`
	}
	if json.Unmarshal(params, &p) == nil {
		c.mu.Lock()
		c.canElicit = len(p.Capabilities.Elicitation) > 0 && string(p.Capabilities.Elicitation) != "null"
		c.mu.Unlock()
	}
}

// answer writes the answer to task request req.
func (c *taskConn) answer(req *jsonrpc.Request) {
	res, rerr := c.store.handle(c.life, c, req.Method, req.Params)
	resp := &jsonrpc.Response{ID: req.ID}
	if rerr != nil {
		resp.Error = rerr
	} else if b, err := json.Marshal(res); err != nil {
		resp.Error = rpcError(jsonrpc.CodeInternalError, "encoding the answer: %v", err)
	} else {
		resp.Result = b
	}
	_ = c.inner.Write(c.life, resp)
}

func (c *taskConn) notify(method string, params any) {
	b, err := json.Marshal(params)
	if err != nil {
		return
	}
	_ = c.inner.Write(c.life, &jsonrpc.Request{Method: method, Params: b})
}

func (c *taskConn) takePending(id jsonrpc.ID) chan *jsonrpc.Response {
	s, ok := id.Raw().(string)
	if !ok {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := c.pending[s]
	delete(c.pending, s)
	return ch
}

// elicit sends elicitation/create as a request of the task's own (the
// SDK's session knows nothing of tasks) and waits for the answer.
func (c *taskConn) elicit(ctx context.Context, _ string, params *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	c.mu.Lock()
	if !c.canElicit {
		c.mu.Unlock()
		return nil, errors.New("client does not support elicitation")
	}
	c.seq++
	idStr := fmt.Sprintf("demo-task-request-%d", c.seq)
	ch := make(chan *jsonrpc.Response, 1)
	c.pending[idStr] = ch
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.pending, idStr)
		c.mu.Unlock()
	}()
	id, err := jsonrpc.MakeID(idStr)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	if err := c.inner.Write(ctx, &jsonrpc.Request{ID: id, Method: "elicitation/create", Params: b}); err != nil {
		return nil, err
	}
	select {
	case resp := <-ch:
		if resp.Error != nil {
			return nil, resp.Error
		}
		var res mcp.ElicitResult
		if err := json.Unmarshal(resp.Result, &res); err != nil {
			return nil, err
		}
		return &res, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.life.Done():
		return nil, errors.New("the connection closed")
	}
}

func (c *taskConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	return c.inner.Write(ctx, msg)
}

func (c *taskConn) Close() error {
	c.end()
	return c.inner.Close()
}

func (c *taskConn) SessionID() string { return c.inner.SessionID() }

// tasksCapability is the tasks capability the demo server declares: task
// lists, cancellation, and task-augmented tools/call.
func tasksCapability() map[string]any {
	return map[string]any{"list": struct{}{}, "cancel": struct{}{},
		"requests": map[string]any{"tools": map[string]any{"call": struct{}{}}}}
}

// capsWithTasks is the SDK's capabilities plus "tasks", which its struct
// lacks.
type capsWithTasks struct {
	*mcp.ServerCapabilities
	Tasks map[string]any `json:"tasks,omitempty"`
}

// initializedWithTasks is an initialize answer as it goes on the wire: the
// SDK's result, whose capabilities are shadowed by ones with "tasks".
type initializedWithTasks struct {
	*mcp.InitializeResult
	Capabilities capsWithTasks `json:"capabilities"`
}

// withTasksCapability returns ir declaring the tasks capability.
func withTasksCapability(ir *mcp.InitializeResult) *initializedWithTasks {
	return &initializedWithTasks{InitializeResult: ir, Capabilities: capsWithTasks{ServerCapabilities: ir.Capabilities, Tasks: tasksCapability()}}
}

// withTasks returns a copy of opts (nil: defaults) with Tasks set.
func withTasks(opts *Options) *Options {
	var o Options
	if opts != nil {
		o = *opts
	}
	o.Tasks = true
	return &o
}

// discoveredWithTasksResult is a server/discover answer (protocol
// 2026-07-28's handshake) declaring the tasks the demo answers there, as
// [initializedWithTasks] is for initialize.
type discoveredWithTasksResult struct {
	*mcp.DiscoverResult
	Capabilities capsWithTasks `json:"capabilities"`
}

// discoveredWithTasks returns dr declaring tasks as protocol 2026-07-28
// has them: the io.modelcontextprotocol/tasks extension (an empty object),
// not 2025-11-25's capabilities.tasks.
func discoveredWithTasks(dr *mcp.DiscoverResult) *discoveredWithTasksResult {
	var caps mcp.ServerCapabilities
	if dr.Capabilities != nil {
		caps = *dr.Capabilities
	}
	caps.Extensions = maps.Clone(caps.Extensions)
	if caps.Extensions == nil {
		caps.Extensions = map[string]any{}
	}
	caps.Extensions[extTasks] = map[string]any{}
	return &discoveredWithTasksResult{DiscoverResult: dr, Capabilities: capsWithTasks{ServerCapabilities: &caps}}
}
