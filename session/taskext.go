package session

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mcpwitness/finding"
	"mcpwitness/record"
)

// Tasks on protocol 2026-07-28 are the io.modelcontextprotocol/tasks
// extension (SEP-2663), not wire-compatible with 2025-11-25's tasks: the
// client declares the extension in each request's capabilities, and the
// server alone decides whether a tools/call becomes a task, answering it
// with resultType "task" (a CreateTaskResult: the task itself, flat).
// tasks/get then carries the status, the input requests while the task is
// input_required, and the result or the JSON-RPC error once it ended;
// tasks/update delivers the answers to input requests; tasks/cancel asks
// it to stop. There is no tasks/result and no tasks/list.

// resultTypeTask is the resultType of a CreateTaskResult on the extension.
const resultTypeTask = "task"

// declareTasks is a sending middleware: every tools/call that carries
// per-request capabilities (protocols from 2026-07-28) declares the tasks
// extension in them, so the server may answer any call with a task, and
// every call follows one when it does ([Session.followExtension]).
func declareTasks(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if p, ok := req.GetParams().(*mcp.CallToolParams); ok && method == "tools/call" && p != nil && p.Meta != nil {
			if caps, ok := p.Meta[mcp.MetaKeyClientCapabilities]; ok {
				p.Meta[mcp.MetaKeyClientCapabilities] = withTasksExtension(caps)
			}
		}
		return next(ctx, method, req)
	}
}

// withTasksExtension returns caps, the SDK's per-request capabilities,
// with the tasks extension declared (an empty object: it has no
// settings).
func withTasksExtension(caps any) any {
	raw, err := json.Marshal(caps)
	var m map[string]any
	if err != nil || json.Unmarshal(raw, &m) != nil || m == nil {
		return caps
	}
	ext, _ := m["extensions"].(map[string]any)
	if ext == nil {
		ext = map[string]any{}
	}
	ext[record.ExtensionTasks] = map[string]any{}
	m["extensions"] = ext
	return m
}

// isTaskHandle reports whether result, a tools/call result, is the
// extension's CreateTaskResult (resultType "task").
func isTaskHandle(result json.RawMessage) bool {
	var v struct {
		ResultType string `json:"resultType"`
	}
	return len(result) > 0 && json.Unmarshal(result, &v) == nil && v.ResultType == resultTypeTask
}

// callTaskExtension is [Session.CallTask] on protocols from 2026-07-28:
// the call goes out as any call does (declaring the extension); when the
// server makes it a task, the task is followed to its end.
func (s *Session) callTaskExtension(ctx context.Context, r *CallResult, def json.RawMessage, token string, ttl time.Duration) {
	if ttl > 0 {
		r.Findings = append(r.Findings, finding.Finding{Check: "task-ttl", Severity: finding.SeverityInfo,
			Message: "the io.modelcontextprotocol/tasks extension lets the server choose a task's ttl; the ttl asked for was not sent"})
	}
	rctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	rctx, w := withWatcher(rctx)
	defer s.tap.unwatch(w)
	s.sendCall(ctx, rctx, w, r, token)
	switch {
	case isTaskHandle(r.Result):
		s.followExtension(ctx, r, def, r.Result)
	case len(r.Result) > 0:
		r.Findings = append(r.Findings, finding.Finding{Check: "task-not-created", Severity: finding.SeverityInfo,
			Message: "the server answered with its plain result, not a task: on the io.modelcontextprotocol/tasks extension the server decides per request; it was checked as the call's answer"})
		r.Verdicts = append(r.Verdicts, s.checkAnswer(r.Tool, def, r.Result, w.wasCut())...)
	}
}

// followExtension follows the task that handle, the CreateTaskResult
// answering r's tools/call, made: tasks/get is polled at the server's
// pollIntervalMs (bounded to 100 ms–5 s), each new status is a [record.KindTask]
// event, the input requests of an input_required task are answered through
// [Session.AnswerInputs] (each key once) and delivered with tasks/update.
// The task's result is r's, checked as a plain call's answer; its error is
// r's JSON-RPC error. Past the session's timeout, or when ctx is
// cancelled, tasks/cancel is sent.
func (s *Session) followExtension(ctx context.Context, r *CallResult, def, handle json.RawMessage) {
	t0 := time.Now()
	defer func() { r.Ms += ms(time.Since(t0)) }()
	r.Result = nil
	r.Findings = slices.DeleteFunc(r.Findings, func(f finding.Finding) bool {
		// The SDK cannot take a task handle as a CallToolResult; the
		// handle was read raw.
		return f.Check == "sdk-rejected"
	})
	cur, err := record.ReadTask(handle)
	if err != nil {
		r.Err = fmt.Errorf("the answer to tools/call is a task handle (resultType %q) a client cannot follow: %w", resultTypeTask, err)
		return
	}
	r.TaskID = cur.TaskID
	s.extTaskEvent(r, cur, record.TaskCreated, handle)
	tctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	answered := map[string]bool{}
	var last json.RawMessage
	for !cur.Status.Terminal() {
		timer := time.NewTimer(s.opts.pace.pollEvery(cur.PollInterval))
		select {
		case <-tctx.Done():
			timer.Stop()
			s.cancelExtension(ctx, r, cur)
			return
		case <-timer.C:
		}
		next, raw, err := s.getTask(tctx, cur.TaskID)
		switch {
		case err != nil && tctx.Err() != nil:
			s.cancelExtension(ctx, r, cur)
			return
		case err != nil:
			r.Err = err
			return
		}
		if next.Status != cur.Status || next.StatusMessage != cur.StatusMessage {
			s.extTaskEvent(r, next, record.TaskPolled, raw)
		}
		if next.PollInterval == 0 {
			next.PollInterval = cur.PollInterval
		}
		cur, last = next, raw
		if cur.Status == record.TaskInputRequired {
			if err := s.answerTask(tctx, cur.TaskID, raw, answered); err != nil {
				if tctx.Err() != nil {
					s.cancelExtension(ctx, r, cur)
					return
				}
				r.Err = err
				return
			}
		}
	}
	s.extensionOutcome(r, def, cur, last)
}

// extTaskEvent records status info of r's task on the extension.
func (s *Session) extTaskEvent(r *CallResult, info record.TaskInfo, source record.TaskSource, raw json.RawMessage) {
	info.Lifecycle = record.LifecycleExtension
	s.taskEvent(r, info, source, raw)
}

// getTask asks for task id with tasks/get and reads the answer; the error
// names what went wrong.
func (s *Session) getTask(ctx context.Context, id string) (record.TaskInfo, json.RawMessage, error) {
	gctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	rep, err := s.request(gctx, "tasks/get", map[string]string{"taskId": id})
	switch {
	case err != nil:
		return record.TaskInfo{}, nil, err
	case len(rep.rpcErr) > 0:
		return record.TaskInfo{}, nil, fmt.Errorf("tasks/get for task %s: the server answered with an error: %s", id, record.RPCErrorText(rep.rpcErr))
	}
	info, err := record.ReadTask(rep.result)
	if err != nil {
		return info, rep.result, fmt.Errorf("tasks/get for task %s: %w", id, err)
	}
	return info, rep.result, nil
}

// answerTask answers the input requests of task id that raw (its tasks/get
// answer) names and answered does not, through the same path as the
// server's requests on the wire, and delivers the answers with
// tasks/update. A key is answered once: the server repeats outstanding
// requests on every poll until the answers reach it.
func (s *Session) answerTask(ctx context.Context, id string, raw json.RawMessage, answered map[string]bool) error {
	var t struct {
		InputRequests json.RawMessage `json:"inputRequests"`
	}
	_ = json.Unmarshal(raw, &t)
	if len(t.InputRequests) == 0 || string(t.InputRequests) == "null" {
		return nil // the server may name them on a later poll
	}
	var asks mcp.InputRequestMap
	if err := json.Unmarshal(t.InputRequests, &asks); err != nil {
		return fmt.Errorf("tasks/get for task %s: its inputRequests cannot be answered: %w", id, err)
	}
	maps.DeleteFunc(asks, func(key string, _ mcp.InputRequest) bool { return answered[key] })
	if len(asks) == 0 {
		return nil
	}
	keys := slices.Sorted(maps.Keys(asks))
	s.log.Append(record.Event{Kind: record.KindServerCall, Method: "tasks/get", Call: s.roundCall(),
		Text: fmt.Sprintf("task %s asks for input (%s)", id, strings.Join(keys, ", "))})
	answers, err := s.AnswerInputs(ctx, asks)
	if err != nil {
		return fmt.Errorf("task %s: %w", id, err)
	}
	for _, k := range keys {
		answered[k] = true
	}
	rep, err := s.request(ctx, "tasks/update", map[string]any{"taskId": id, "inputResponses": answers})
	switch {
	case err != nil:
		return fmt.Errorf("tasks/update for task %s: %w", id, err)
	case len(rep.rpcErr) > 0:
		return fmt.Errorf("tasks/update for task %s: the server answered with an error: %s", id, record.RPCErrorText(rep.rpcErr))
	}
	return nil
}

// extensionOutcome fills r from its ended task: cur is its last status and
// raw the tasks/get answer that told it (the result or the error inline).
func (s *Session) extensionOutcome(r *CallResult, def json.RawMessage, cur record.TaskInfo, raw json.RawMessage) {
	var t struct {
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	_ = json.Unmarshal(raw, &t)
	present := func(v json.RawMessage) bool { return len(v) > 0 && string(v) != "null" }
	switch cur.Status {
	case record.TaskCancelled:
		r.Cancelled = true
		r.Err = fmt.Errorf("the server cancelled task %s%s", cur.TaskID, colonMessage(cur.StatusMessage))
	case record.TaskFailed:
		if !present(t.Error) {
			r.Err = fmt.Errorf("task %s failed%s, and tasks/get gave no error, which the extension requires of a failed task", cur.TaskID, colonMessage(cur.StatusMessage))
			return
		}
		r.RPCError = t.Error
	case record.TaskCompleted:
		if !present(t.Result) {
			r.Err = fmt.Errorf("task %s completed, and tasks/get gave no result, which the extension requires of a completed task", cur.TaskID)
			return
		}
		r.Result = t.Result
		r.Verdicts = append(r.Verdicts, s.checkAnswer(r.Tool, def, r.Result, false)...)
	}
}

// cancelExtension sends tasks/cancel for r's task cur (see
// [Session.cancelTask]), and asks once more for its status, as the
// acknowledgement has none.
func (s *Session) cancelExtension(ctx context.Context, r *CallResult, cur record.TaskInfo) {
	s.cancelTask(ctx, r, cur.TaskID)
	gctx, cancel := context.WithTimeout(context.Background(), min(s.timeout, 5*time.Second))
	defer cancel()
	if next, raw, err := s.getTask(gctx, cur.TaskID); err == nil && next.Status != cur.Status {
		s.extTaskEvent(r, next, record.TaskPolled, raw)
	}
}

// taskIDOf is the taskId of req's params, for the Mcp-Name header of the
// task methods on Streamable HTTP ("" when there is none).
func taskIDOf(req *jsonrpc.Request) string {
	if !strings.HasPrefix(req.Method, "tasks/") {
		return ""
	}
	var p struct {
		TaskID string `json:"taskId"`
	}
	_ = json.Unmarshal(req.Params, &p)
	return p.TaskID
}
