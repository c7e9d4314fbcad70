package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"mcpwitness/finding"
	"mcpwitness/record"
)

// TaskOptions tune a [Session.CallTask]. nil means defaults.
type TaskOptions struct {
	// Force sends the call as a task even when a check refuses it (the
	// tool's taskSupport forbids tasks, or the arguments fail the input
	// schema).
	Force bool
	// TTL is the ttl asked for in the task parameter; 0 asks for none and
	// leaves it to the server.
	TTL time.Duration
}

// The bounds of the polling interval: the server's pollInterval is obeyed
// within them, and defaultPoll is used when it gives none.
const (
	minPoll     = 100 * time.Millisecond
	maxPoll     = 5 * time.Second
	defaultPoll = time.Second
)

// TaskStatusMethod is the notification a server may send when a task's
// status changes.
const TaskStatusMethod = "notifications/tasks/status"

// CallTask calls the tool name as a task, as the negotiated protocol
// defines tasks. From 2026-07-28 they are the io.modelcontextprotocol/tasks
// extension: the call goes out as a plain one declaring the extension, and
// the server decides whether it becomes a task (see
// [Session.followExtension]; a plain answer is checked as such, with a
// finding). Before it, as the specification's tasks section (protocol
// 2025-11-25) says: tools/call goes out with a task
// parameter, the CreateTaskResult is recorded, tasks/get is polled at the
// server's pollInterval (bounded to 100 ms–5 s) and notifications/tasks/status
// is taken when the server sends it; each new status is a [record.KindTask] event.
// When the task completes or fails its result is fetched with tasks/result
// and checked as a plain call's answer is. While the task waits for input
// (input_required), tasks/result is asked for at once, and the server's
// requests are answered by the session's handlers (see [Options.Elicit]).
//
// The whole task is bounded by the session's timeout; past it, or when ctx
// is cancelled, tasks/cancel is sent and the call ends cancelled. The SDK
// has no tasks support: these requests are the session's own (see
// [Session.request]), recorded on the wire like any other.
func (s *Session) CallTask(ctx context.Context, name string, args json.RawMessage, opts *TaskOptions) *CallResult {
	var o TaskOptions
	if opts != nil {
		o = *opts
	}
	c, send := s.beginCall(name, args, true, o.Force)
	r, def := c.r, c.def
	if !send {
		return r
	}
	token, untrack := s.trackProgress(r.ID)
	defer untrack()
	t0 := time.Now()
	if s.info.ProtocolVersion >= newProtocol {
		s.callTaskExtension(ctx, r, def, token, o.TTL)
	} else {
		sub := s.log.Subscribe()
		defer sub.Close()
		s.createTask(ctx, r, def, token, o.TTL, sub)
	}
	r.Ms = ms(time.Since(t0))
	// A task's result comes from tasks/result or its last status: what was
	// read by then counts.
	c.finish(s.tap.toolsChanged.Load())
	return r
}

// createTask sends r's task-augmented tools/call and follows the task it
// makes to its end.
func (s *Session) createTask(ctx context.Context, r *CallResult, def json.RawMessage, token string, ttl time.Duration, sub *record.Subscription) {
	task := map[string]any{}
	if ttl > 0 {
		task["ttl"] = ttl.Milliseconds()
	}
	params := map[string]any{"name": r.Tool, "arguments": r.Args, "_meta": s.callMeta(token), "task": task}
	cctx, cancel := context.WithTimeout(ctx, s.timeout)
	rep, err := s.request(cctx, "tools/call", params)
	cancel()
	r.RequestID = rep.id
	switch {
	case err != nil:
		r.Err, r.Cancelled = err, ctx.Err() != nil
		return
	case len(rep.rpcErr) > 0:
		r.RPCError = rep.rpcErr
		return
	}
	var created struct {
		Task json.RawMessage `json:"task"`
	}
	if json.Unmarshal(rep.result, &created) != nil || len(created.Task) == 0 || string(created.Task) == "null" {
		// The server ran it as a plain call: what it answered is checked
		// as such.
		r.Result = rep.result
		r.Findings = append(r.Findings, finding.Finding{Check: "task-not-created", Severity: finding.SeverityWarning,
			Message: "the server answered the task-augmented tools/call with a plain result, not a CreateTaskResult; it was checked as the call's answer"})
		r.Verdicts = append(r.Verdicts, s.checkAnswer(r.Tool, def, r.Result, false)...)
		return
	}
	info, err := record.ReadTask(created.Task)
	if err != nil {
		r.Err = fmt.Errorf("the answer to tools/call is no CreateTaskResult a client can follow: %w", err)
		return
	}
	r.TaskID = info.TaskID
	s.taskEvent(r, info, record.TaskCreated, created.Task)
	s.followTask(ctx, r, def, info, sub)
}

// taskEvent records status info of r's task, learnt from source.
func (s *Session) taskEvent(r *CallResult, info record.TaskInfo, source record.TaskSource, raw json.RawMessage) {
	info.Call, info.Source = r.ID, source
	r.TaskStatus = info.Status
	s.log.Append(record.Event{Kind: record.KindTask, Method: "tasks", ID: info.TaskID, Task: &info, Text: taskText(info), Data: raw})
}

// taskText is a task event's line: "task t-1 working: scene 2 of 4".
func taskText(info record.TaskInfo) string {
	text := "task " + info.TaskID + " " + string(info.Status)
	if info.StatusMessage != "" {
		text += ": " + info.StatusMessage
	}
	return text
}

// pollEvery is how long to wait before the next tasks/get, given the
// server's pollInterval in milliseconds.
func pollEvery(ms int64) time.Duration {
	if ms <= 0 {
		return defaultPoll
	}
	return min(max(time.Duration(ms)*time.Millisecond, minPoll), maxPoll)
}

// followTask polls r's task (cur is its last known status) until it ends,
// then fetches its result.
func (s *Session) followTask(ctx context.Context, r *CallResult, def json.RawMessage, cur record.TaskInfo, sub *record.Subscription) {
	tctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	f := &taskFollow{s: s, r: r, cur: cur, notes: sub.C()}
	for !f.cur.Status.Terminal() {
		if !f.next(ctx, tctx) {
			return
		}
	}
	if f.cur.Status == record.TaskCancelled {
		r.Cancelled = true
		r.Err = fmt.Errorf("the server cancelled task %s%s", f.cur.TaskID, colonMessage(f.cur.StatusMessage))
		return
	}
	if f.got == nil && !f.awaitResult(ctx, tctx) {
		return
	}
	s.taskOutcome(r, def, f.cur, *f.got)
}

// taskFollow is what following one task of call r has learnt so far: its
// last known status, and its tasks/result, asked for or come.
type taskFollow struct {
	s       *Session
	r       *CallResult
	cur     record.TaskInfo
	notes   <-chan record.Event // the session's events, for status notifications; nil once closed
	fetched chan taskResult     // tasks/result in flight, asked for once
	got     *taskResult
}

// next waits for one thing to happen to the unfinished task and takes it:
// a status notification, the answer to tasks/result, or the time to poll
// tasks/get. A task waiting for input has its result asked for at once,
// and once only: the server sends the requests the task waits on
// (elicitation, sampling) once tasks/result is asked for, and the
// session's handlers answer them.
// It reports false when the call has ended: past the timeout (tctx) or
// when the caller's ctx is cancelled, the task is cancelled; a failed poll
// ends it too.
func (f *taskFollow) next(ctx, tctx context.Context) bool {
	if f.cur.Status == record.TaskInputRequired && f.fetched == nil && f.got == nil {
		f.fetched = f.s.fetchResult(tctx, f.cur.TaskID)
	}
	timer := time.NewTimer(f.s.opts.pace.pollEvery(f.cur.PollInterval))
	select {
	case <-tctx.Done():
		timer.Stop()
		f.s.cancelTask(ctx, f.r, f.cur.TaskID)
		return false
	case ev, ok := <-f.notes:
		timer.Stop()
		f.notified(ev, ok)
	case res := <-f.fetched:
		timer.Stop()
		f.got, f.fetched = &res, nil
		// tasks/result answers once the task has ended; its status is
		// asked for next.
		f.s.pollTask(tctx, f.r, f.cur, f.update)
		f.answeredEarly()
	case <-timer.C:
		f.s.pollTask(tctx, f.r, f.cur, f.update)
	}
	return f.r.Err == nil
}

// answeredEarly is a finding when the status asked for after tasks/result's
// answer says the task has not ended: the receiver holds that answer until
// the task reaches a terminal status (2025-11-25, tasks: result retrieval).
func (f *taskFollow) answeredEarly() {
	if f.r.Err != nil || f.cur.Status.Terminal() {
		return
	}
	f.r.Findings = append(f.r.Findings, finding.Finding{Check: "task-result-early", Severity: finding.SeverityWarning,
		Message: fmt.Sprintf("tasks/result for task %s was answered while the task was still %s; it should be held until the task ends", f.cur.TaskID, f.cur.Status)})
}

// notified takes an event of the session's log (ok false when the
// subscription has closed, and is read no more): a status notification of
// this task is its new status.
func (f *taskFollow) notified(ev record.Event, ok bool) {
	if !ok {
		f.notes = nil
		return
	}
	if ev.Kind == record.KindNotification && ev.Method == TaskStatusMethod {
		if next, err := record.ReadTask(ev.Data); err == nil && next.TaskID == f.cur.TaskID {
			f.update(next, record.TaskNotified, ev.Data)
		}
	}
}

// update takes next as the task's status, learnt from source (raw as it
// came). A change of status or message, and every notification, is
// recorded; a status that names no poll interval keeps the last one.
func (f *taskFollow) update(next record.TaskInfo, source record.TaskSource, raw json.RawMessage) {
	if next.Status != f.cur.Status || next.StatusMessage != f.cur.StatusMessage || source == record.TaskNotified {
		f.s.taskEvent(f.r, next, source, raw)
	}
	if next.PollInterval == 0 {
		next.PollInterval = f.cur.PollInterval
	}
	f.cur = next
}

// awaitResult waits for the ended task's tasks/result, asking for it if it
// was not asked yet. It reports false when the timeout (tctx) passed or
// the caller's ctx was cancelled first: the task is then cancelled.
func (f *taskFollow) awaitResult(ctx, tctx context.Context) bool {
	if f.fetched == nil {
		f.fetched = f.s.fetchResult(tctx, f.cur.TaskID)
	}
	select {
	case res := <-f.fetched:
		f.got = &res
		return true
	case <-tctx.Done():
		f.s.cancelTask(ctx, f.r, f.cur.TaskID)
		return false
	}
}

func colonMessage(msg string) string {
	if msg == "" {
		return ""
	}
	return ": " + msg
}

// pollTask asks for the status of task cur with tasks/get and passes what
// came to update; a failure ends the call.
func (s *Session) pollTask(ctx context.Context, r *CallResult, cur record.TaskInfo, update func(record.TaskInfo, record.TaskSource, json.RawMessage)) {
	gctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	rep, err := s.request(gctx, "tasks/get", map[string]string{"taskId": cur.TaskID})
	switch {
	case err != nil && ctx.Err() != nil:
		return // the loop sees ctx done and cancels the task
	case err != nil:
		r.Err = err
	case len(rep.rpcErr) > 0:
		r.RPCError = rep.rpcErr
		r.Err = fmt.Errorf("tasks/get for task %s: the server answered with an error: %s", cur.TaskID, record.RPCErrorText(rep.rpcErr))
	default:
		next, err := record.ReadTask(rep.result)
		if err != nil {
			r.Err = fmt.Errorf("tasks/get for task %s: %w", cur.TaskID, err)
			return
		}
		update(next, record.TaskPolled, rep.result)
	}
}

// taskResult is what tasks/result came to.
type taskResult struct {
	rep ownReply
	err error
}

// fetchResult asks for the result of task id; the channel gets the answer.
func (s *Session) fetchResult(ctx context.Context, id string) chan taskResult {
	ch := make(chan taskResult, 1)
	go func() {
		rep, err := s.request(ctx, "tasks/result", map[string]string{"taskId": id})
		ch <- taskResult{rep: rep, err: err}
	}()
	return ch
}

// taskOutcome fills r from the result of its ended task (status cur): the
// tool's answer, checked as a plain call's, or the error the task failed
// with.
func (s *Session) taskOutcome(r *CallResult, def json.RawMessage, cur record.TaskInfo, res taskResult) {
	switch {
	case res.err != nil:
		r.Err = fmt.Errorf("tasks/result for task %s (%s): %w", cur.TaskID, cur.Status, res.err)
	case len(res.rep.rpcErr) > 0:
		r.RPCError = res.rep.rpcErr
	case len(res.rep.result) > 0:
		r.Result = res.rep.result
		r.Verdicts = append(r.Verdicts, s.checkAnswer(r.Tool, def, r.Result, false)...)
		if cur.Status == record.TaskFailed && !record.IsErrorResult(r.Result) {
			r.Findings = append(r.Findings, finding.Finding{Check: "task-failed-result", Severity: finding.SeverityWarning,
				Message: fmt.Sprintf("task %s failed%s, yet tasks/result gave a result that is no error", cur.TaskID, colonMessage(cur.StatusMessage))})
		}
	default:
		r.Err = fmt.Errorf("tasks/result for task %s gave neither a result nor an error", cur.TaskID)
	}
}

// cancelTask sends tasks/cancel for r's task id after ctx (the caller's)
// was cancelled or the task outlived the session's timeout, and records
// what the server said.
func (s *Session) cancelTask(ctx context.Context, r *CallResult, id string) {
	why := fmt.Sprintf("no result within %s", s.timeout)
	if ctx.Err() != nil {
		why = "cancelled"
	}
	cctx, cancel := context.WithTimeout(context.Background(), min(s.timeout, 5*time.Second))
	defer cancel()
	r.Cancelled = true
	rep, err := s.request(cctx, "tasks/cancel", map[string]string{"taskId": id})
	switch {
	case err != nil:
		r.Err = fmt.Errorf("task %s: %s; tasks/cancel failed: %w", id, why, err)
	case len(rep.rpcErr) > 0:
		r.Err = fmt.Errorf("task %s: %s; tasks/cancel was answered with an error: %s", id, why, record.RPCErrorText(rep.rpcErr))
	default:
		r.Err = fmt.Errorf("task %s: %s; tasks/cancel sent", id, why)
		if info, rerr := record.ReadTask(rep.result); rerr == nil {
			s.taskEvent(r, info, record.TaskCancel, rep.result)
		}
	}
	if errors.Is(ctx.Err(), context.Canceled) {
		r.Err = fmt.Errorf("%w (%w)", r.Err, context.Canceled)
	}
}
