package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The demo server's tasks, as the specification's tasks section (protocol
// 2025-11-25) defines them. The Go SDK's server has none, so the task
// methods are answered before the SDK sees them: by [Tasks] on a
// connection (stdio, in-memory), by [Handler] on Streamable HTTP. The
// server declares the tasks capability (see [withTasksCapability]).

// Task timings: how often clients should poll, how long a task is kept
// when the client asks for no ttl, and the longest ttl granted.
const (
	taskPollMs     = 250
	taskDefaultTTL = 5 * time.Minute
	taskMaxTTL     = time.Hour
	// taskPageSize is the size of a tasks/list page.
	taskPageSize = 5
)

// taskPeer is what a running task may do to the client that made it.
type taskPeer interface {
	// notify sends a notification (progress, task status); it may drop it.
	notify(method string, params any)
	// elicit asks the client for input.
	elicit(ctx context.Context, taskID string, params *mcp.ElicitParams) (*mcp.ElicitResult, error)
}

// demoTask is one task and its result once it ended.
type demoTask struct {
	id, tool         string
	status, message  string
	created, updated time.Time
	ttl              time.Duration
	result           *mcp.CallToolResult
	cancel           context.CancelFunc
	done             chan struct{} // closed when the status is terminal

	// ext says the task follows the tasks extension (2026-07-28), whose
	// client declared elicitation when canElicit. inputs are its
	// outstanding input requests by key (inputSeq numbers them), waiting
	// what waits on their answers; failure is the JSON-RPC error it failed
	// with.
	ext       bool
	canElicit bool
	inputSeq  int
	inputs    map[string]any
	waiting   map[string]*inputAsk
	failure   *jsonrpc.Error
}

func terminal(status string) bool {
	return status == "completed" || status == "failed" || status == "cancelled"
}

// wire is the task as the protocol writes it.
func (t *demoTask) wire() map[string]any {
	m := map[string]any{"taskId": t.id, "status": t.status, "createdAt": t.created.UTC().Format(time.RFC3339Nano),
		"lastUpdatedAt": t.updated.UTC().Format(time.RFC3339Nano), "ttl": t.ttl.Milliseconds(), "pollInterval": taskPollMs}
	if t.message != "" {
		m["statusMessage"] = t.message
	}
	return m
}

// taskStore holds the tasks of one client session.
type taskStore struct {
	mu    sync.Mutex
	seq   int
	tasks map[string]*demoTask
	order []*demoTask
	// step is [Options.TaskStep].
	step func(ctx context.Context, message string)
}

func newTaskStore() *taskStore { return &taskStore{tasks: map[string]*demoTask{}} }

// rpcError is a JSON-RPC error answer.
func rpcError(code int64, format string, args ...any) *jsonrpc.Error {
	return &jsonrpc.Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// isTaskMethod reports whether method with params is one the store
// answers: a task method, tools/call with a task parameter (2025-11-25),
// or tools/call of a task tool declaring the tasks extension (2026-07-28).
func isTaskMethod(method string, params json.RawMessage) bool {
	switch method {
	case "tasks/get", "tasks/result", "tasks/cancel", "tasks/list", "tasks/update":
		return true
	case "tools/call":
		return hasTaskParam(params) || extTaskCall(params)
	}
	return false
}

// hasTaskParam reports whether a tools/call's params carry 2025-11-25's
// task parameter.
func hasTaskParam(params json.RawMessage) bool {
	var p struct {
		Task json.RawMessage `json:"task"`
	}
	return json.Unmarshal(params, &p) == nil && len(p.Task) > 0 && string(p.Task) != "null"
}

// handle answers one task request (see [isTaskMethod]); tasks/result waits
// until its task ends or ctx is done.
func (ts *taskStore) handle(ctx context.Context, peer taskPeer, method string, params json.RawMessage) (any, *jsonrpc.Error) {
	ts.expire(time.Now())
	var p struct {
		TaskID string `json:"taskId"`
		Cursor string `json:"cursor"`
	}
	if len(params) > 0 && json.Unmarshal(params, &p) != nil {
		return nil, rpcError(jsonrpc.CodeInvalidParams, "%s: params are not an object", method)
	}
	switch method {
	case "tools/call":
		return ts.create(peer, params)
	case "tasks/list":
		return ts.list(p.Cursor)
	}
	t := ts.get(p.TaskID)
	if t == nil {
		return nil, rpcError(jsonrpc.CodeInvalidParams, "%s: no task %q (unknown or expired)", method, p.TaskID)
	}
	switch method {
	case "tasks/get":
		return ts.snapshot(t), nil
	case "tasks/cancel":
		return ts.cancelTask(peer, t)
	case "tasks/update":
		if !t.ext {
			return nil, rpcError(jsonrpc.CodeMethodNotFound, "tasks/update: task %s follows protocol 2025-11-25's tasks, which have no tasks/update", t.id)
		}
		return ts.update(t, params)
	}
	select {
	case <-t.done:
	case <-ctx.Done():
		return nil, rpcError(jsonrpc.CodeInternalError, "tasks/result: the request was cancelled")
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if t.result == nil {
		return nil, rpcError(jsonrpc.CodeInvalidParams, "task %s was %s; it has no result", t.id, t.status)
	}
	res := *t.result
	res.Meta = mcp.Meta{"io.modelcontextprotocol/related-task": map[string]string{"taskId": t.id}}
	return &res, nil
}

// create starts a task for a task-augmented tools/call.
func (ts *taskStore) create(peer taskPeer, params json.RawMessage) (any, *jsonrpc.Error) {
	var p struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
		Meta      struct {
			Token any `json:"progressToken"`
		} `json:"_meta"`
		Task struct {
			TTL *float64 `json:"ttl"`
		} `json:"task"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, rpcError(jsonrpc.CodeInvalidParams, "tools/call: %v", err)
	}
	run := taskRunner(p.Name)
	if run == nil {
		return nil, rpcError(jsonrpc.CodeMethodNotFound, "Tool %q does not support task-based execution", p.Name)
	}
	ext, canElicit := false, false
	if !hasTaskParam(params) {
		ext, canElicit = extCall(params)
	}
	ttl := taskDefaultTTL
	if p.Task.TTL != nil && *p.Task.TTL > 0 {
		ttl = min(time.Duration(*p.Task.TTL)*time.Millisecond, taskMaxTTL)
	}
	now := time.Now()
	ctx, cancel := context.WithCancel(context.Background())
	ts.mu.Lock()
	ts.seq++
	t := &demoTask{id: fmt.Sprintf("task-%d", ts.seq), tool: p.Name, status: "working", message: "starting",
		created: now, updated: now, ttl: ttl, cancel: cancel, done: make(chan struct{}), ext: ext, canElicit: canElicit}
	ts.tasks[t.id] = t
	ts.order = append(ts.order, t)
	var created any = map[string]any{"task": t.wire()}
	if ext {
		created = t.extWire("task")
	}
	ts.mu.Unlock()
	r := &taskRun{store: ts, task: t, peer: peer, token: p.Meta.Token, args: p.Arguments}
	go func() {
		res := run(ctx, r)
		r.finish(res, ctx.Err() != nil)
	}()
	return created, nil
}

func (ts *taskStore) get(id string) *demoTask {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.tasks[id]
}

// snapshot is task t as tasks/get answers it.
func (ts *taskStore) snapshot(t *demoTask) map[string]any {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if t.ext {
		return t.extWire("complete")
	}
	return t.wire()
}

// cancelTask cancels t unless it already ended.
func (ts *taskStore) cancelTask(peer taskPeer, t *demoTask) (any, *jsonrpc.Error) {
	ts.mu.Lock()
	if terminal(t.status) {
		status := t.status
		ts.mu.Unlock()
		return nil, rpcError(jsonrpc.CodeInvalidParams, "task %s is already %s; it cannot be cancelled", t.id, status)
	}
	ts.setLocked(t, "cancelled", "cancelled at the client's request")
	t.cancel()
	close(t.done)
	w := t.wire()
	ts.mu.Unlock()
	if t.ext {
		// The extension acknowledges with an empty result.
		return map[string]any{"resultType": "complete"}, nil
	}
	peer.notify("notifications/tasks/status", w)
	return w, nil
}

// list answers tasks/list, oldest first, taskPageSize a page; the cursor
// is the index of the page's first task.
func (ts *taskStore) list(cursor string) (any, *jsonrpc.Error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	start := 0
	if cursor != "" {
		n, err := strconv.Atoi(strings.TrimPrefix(cursor, "tasks-from-"))
		if err != nil || n < 0 || n > len(ts.order) || !strings.HasPrefix(cursor, "tasks-from-") {
			return nil, rpcError(jsonrpc.CodeInvalidParams, "tasks/list: invalid cursor %q", cursor)
		}
		start = n
	}
	end := min(start+taskPageSize, len(ts.order))
	page := make([]map[string]any, 0, end-start)
	for _, t := range ts.order[start:end] {
		page = append(page, t.wire())
	}
	res := map[string]any{"tasks": page}
	if end < len(ts.order) {
		res["nextCursor"] = fmt.Sprintf("tasks-from-%d", end)
	}
	return res, nil
}

// expire forgets the tasks whose ttl has passed since they were created.
func (ts *taskStore) expire(now time.Time) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	kept := ts.order[:0]
	for _, t := range ts.order {
		if now.Sub(t.created) > t.ttl {
			t.cancel()
			delete(ts.tasks, t.id)
			continue
		}
		kept = append(kept, t)
	}
	clear(ts.order[len(kept):])
	ts.order = kept
}

// setLocked changes t's status; ts.mu is held.
func (ts *taskStore) setLocked(t *demoTask, status, message string) {
	t.status, t.message, t.updated = status, message, time.Now()
}
