package demo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The demo's tasks on protocol 2026-07-28: the io.modelcontextprotocol/tasks
// extension (SEP-2663). A tools/call of a task tool whose per-request
// capabilities declare the extension is answered with a task handle
// (resultType "task"); tasks/get carries the status, the input requests
// while the task is input_required, and the result (completed, isError
// results too) or the JSON-RPC error (failed) once it ended; tasks/update
// delivers the answers; tasks/cancel acknowledges. The extension sends no
// progress or notifications/tasks/status for a task: its status message
// tells how far it got.

// extTasks is the identifier of the tasks extension.
const extTasks = "io.modelcontextprotocol/tasks"

// extCall reads what the demo needs of a tools/call on protocol 2026-07-28:
// whether its per-request capabilities declare the tasks extension and
// elicitation.
func extCall(params json.RawMessage) (ext, elicit bool) {
	var p struct {
		Meta struct {
			Caps struct {
				Extensions  map[string]json.RawMessage `json:"extensions"`
				Elicitation json.RawMessage            `json:"elicitation"`
			} `json:"io.modelcontextprotocol/clientCapabilities"`
		} `json:"_meta"`
	}
	if json.Unmarshal(params, &p) != nil {
		return false, false
	}
	_, ext = p.Meta.Caps.Extensions[extTasks]
	e := p.Meta.Caps.Elicitation
	return ext, len(e) > 0 && string(e) != "null"
}

// extTaskCall reports whether params, a tools/call's, asks for a tool that
// runs as a task and declare the extension: the demo makes every such call
// a task.
func extTaskCall(params json.RawMessage) bool {
	var p struct {
		Name string `json:"name"`
	}
	ext, _ := extCall(params)
	return ext && json.Unmarshal(params, &p) == nil && taskRunner(p.Name) != nil
}

// extWire is task t as the extension writes it, with resultType rt:
// "task" for the handle, "complete" for a tasks/get answer, which also
// carries the input requests, the result or the error of its status. ts.mu
// is held.
func (t *demoTask) extWire(rt string) map[string]any {
	m := map[string]any{"resultType": rt, "taskId": t.id, "status": t.status,
		"createdAt": t.created.UTC().Format(time.RFC3339Nano), "lastUpdatedAt": t.updated.UTC().Format(time.RFC3339Nano),
		"ttlMs": t.ttl.Milliseconds(), "pollIntervalMs": taskPollMs}
	if t.message != "" {
		m["statusMessage"] = t.message
	}
	if rt == "task" {
		return m
	}
	switch t.status {
	case "input_required":
		if len(t.inputs) > 0 {
			m["inputRequests"] = maps.Clone(t.inputs)
		}
	case "completed":
		if t.result != nil {
			m["result"] = t.result
		}
	case "failed":
		m["error"] = t.failure
	}
	return m
}

// inputAsk is one input request of an extension task, waiting for its
// answer.
type inputAsk struct {
	answer chan json.RawMessage
}

// askInput asks the client through the task's input requests (method,
// params) and waits for the answer tasks/update delivers.
func (ts *taskStore) askInput(ctx context.Context, t *demoTask, method string, params any) (json.RawMessage, error) {
	ts.mu.Lock()
	t.inputSeq++
	key := fmt.Sprintf("%s-%d", t.id, t.inputSeq)
	ask := &inputAsk{answer: make(chan json.RawMessage, 1)}
	if t.inputs == nil {
		t.inputs, t.waiting = map[string]any{}, map[string]*inputAsk{}
	}
	t.inputs[key] = map[string]any{"method": method, "params": params}
	t.waiting[key] = ask
	t.updated = time.Now()
	ts.mu.Unlock()
	select {
	case a := <-ask.answer:
		return a, nil
	case <-ctx.Done():
		ts.mu.Lock()
		delete(t.inputs, key)
		delete(t.waiting, key)
		ts.mu.Unlock()
		return nil, ctx.Err()
	}
}

// update answers tasks/update: each answer to an outstanding input request
// reaches the work waiting on it; others are ignored, as the extension
// says.
func (ts *taskStore) update(t *demoTask, params json.RawMessage) (any, *jsonrpc.Error) {
	var p struct {
		InputResponses map[string]json.RawMessage `json:"inputResponses"`
	}
	if json.Unmarshal(params, &p) != nil || p.InputResponses == nil {
		return nil, rpcError(jsonrpc.CodeInvalidParams, "tasks/update: params need inputResponses, an object")
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	for key, answer := range p.InputResponses {
		if ask := t.waiting[key]; ask != nil {
			delete(t.waiting, key)
			delete(t.inputs, key)
			ask.answer <- answer
		}
	}
	return map[string]any{"resultType": "complete"}, nil
}

// elicit asks the client for input as the task's protocol does: through
// input requests on the extension, else as a request of the task's own.
func (r *taskRun) elicit(ctx context.Context, params *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	if !r.task.ext {
		return r.peer.elicit(ctx, r.task.id, params)
	}
	if !r.task.canElicit {
		return nil, errors.New("client does not support elicitation")
	}
	raw, err := r.store.askInput(ctx, r.task, "elicitation/create", params)
	if err != nil {
		return nil, err
	}
	var res mcp.ElicitResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, fmt.Errorf("the answer to the input request is no elicitation result: %w", err)
	}
	return &res, nil
}

// fail makes the task end failed with a JSON-RPC error on the extension
// (2025-11-25's tasks fail with the isError result the work returns).
func (r *taskRun) fail(err *jsonrpc.Error) {
	r.store.mu.Lock()
	r.task.failure = err
	r.store.mu.Unlock()
}
