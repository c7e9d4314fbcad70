package session

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mcpwitness/checks"
	"mcpwitness/finding"
	"mcpwitness/record"
)

// CallOptions tune a [Session.Call]. nil means defaults.
type CallOptions struct {
	// Force sends the call even when a check refuses it or the arguments
	// fail the input schema.
	Force bool
}

// CallResult is a finished tool call with its verdicts: its [record.CallInfo]
// (State [record.PhaseDone]; Args the arguments sent), and what the session file
// does not repeat in the call event.
type CallResult struct {
	record.CallInfo
	Verdicts []finding.Verdict
	// Findings say what is worth knowing beyond the verdicts: the tool was
	// not listed, or the SDK could not take an answer that was checked raw.
	Findings []finding.Finding
	// Err says why there is no answer (timeout, cancel, connection) as the
	// error itself; CallInfo.Err is its text.
	Err error
}

// IsError reports whether the result says isError: true.
func (r *CallResult) IsError() bool { return record.IsErrorResult(r.Result) }

// Call runs the checks that come before a call, sends tools/call unless one
// of them stops it (see [CallOptions.Force]), and runs the checks on the
// answer. The definition checked is the latest one a walk listed; a tool no
// walk listed is still sent, with its definition checks skipped. Cancel ctx
// to cancel the call (the server gets notifications/cancelled). On the
// tasks extension (2026-07-28) the server may answer with a task: it is
// followed to its end, and its result checked ([Session.followExtension]).
func (s *Session) Call(ctx context.Context, name string, args json.RawMessage, opts *CallOptions) *CallResult {
	c, send := s.beginCall(name, args, false, opts != nil && opts.Force)
	r, def := c.r, c.def
	if !send {
		return r
	}
	token, untrack := s.trackProgress(r.ID)
	defer untrack()

	rctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	rctx, w := withWatcher(rctx)
	defer s.tap.unwatch(w)
	s.sendCall(ctx, rctx, w, r, token)
	changes, answered := w.changesBefore()
	seen := changes.tools
	if isTaskHandle(r.Result) {
		// On the tasks extension the server may make any call a task.
		s.followExtension(ctx, r, def, r.Result)
		answered = false // its result came later
	} else if len(r.Result) > 0 {
		r.Verdicts = append(r.Verdicts, s.checkAnswer(name, def, r.Result, w.wasCut())...)
	}
	if !answered {
		seen = s.tap.toolsChanged.Load()
	}
	c.finish(seen)
	return r
}

// callStart is a call [Session.beginCall] has begun.
type callStart struct {
	r *CallResult
	// def is the definition checked: the latest one a walk listed, or
	// none.
	def json.RawMessage
	// finish ends the call (see [Session.finishCall]); seen is the count
	// of notifications/tools/list_changed read by the time of its answer.
	finish func(seen int64)
}

// beginCall begins a call of the tool name with args ({} when empty), as
// a task when asTask: it records the call's start and runs the checks
// that come before it. send is false when one of them stops the call and
// force does not send it anyway; the call has then ended.
func (s *Session) beginCall(name string, args json.RawMessage, asTask, force bool) (c callStart, send bool) {
	if len(bytes.TrimSpace(args)) == 0 {
		args = json.RawMessage("{}")
	}
	d, listed := s.toolDef(name)
	r := &CallResult{CallInfo: record.CallInfo{ID: s.calls.Add(1), Tool: name, State: record.PhaseStart, Args: args, Listed: listed, Generation: d.gen, AsTask: asTask}}
	if !listed {
		r.Findings = append(r.Findings, finding.Finding{Check: "not-listed", Severity: finding.SeverityWarning,
			Message: fmt.Sprintf("Tool %q was not listed by the server; sent as a probe, definition checks skipped", name)})
	}
	_, outAtStart := s.counter.Snapshot()
	sentAtStart := s.listsSent.Load()
	start := r.CallInfo
	s.log.Append(record.Event{Kind: record.KindCall, Method: "tools/call", Call: &start})
	c = callStart{r: r, def: d.raw, finish: func(seen int64) { s.finishCall(r, d, seen, outAtStart, sentAtStart) }}

	if asTask {
		r.Verdicts = s.validator.BeforeTask(name, d.raw, args)
	} else {
		r.Verdicts = s.validator.Before(name, d.raw, args)
	}
	if checks.Blocks(r.Verdicts) && !force {
		c.finish(0)
		return c, false
	}
	r.Forced = checks.Blocks(r.Verdicts)
	r.Sent = true
	return c, true
}

// trackProgress registers the progress token of call id, so that the
// server's progress notifications are told as the call's; untrack ends it.
func (s *Session) trackProgress(id int64) (token string, untrack func()) {
	token = fmt.Sprintf("mcpwitness-%d", id)
	tokJSON, _ := json.Marshal(token)
	s.mu.Lock()
	s.tokens[string(tokJSON)] = id
	s.mu.Unlock()
	return token, func() {
		s.mu.Lock()
		delete(s.tokens, string(tokJSON))
		s.mu.Unlock()
	}
}

// sendCall sends r's tools/call with progress token under rctx, a child
// of the caller's ctx that w watches, and fills r with what came of it
// (see [Session.replyTo]) and the time it took.
func (s *Session) sendCall(ctx, rctx context.Context, w *watcher, r *CallResult, token string) {
	start := time.Now()
	_, err := s.cs.CallTool(rctx, &mcp.CallToolParams{Name: r.Tool, Arguments: r.Args, Meta: s.callMeta(token)})
	r.Ms = ms(time.Since(start))
	rep := s.replyTo(ctx, rctx, w, "tools/call "+r.Tool, err)
	r.RequestID, r.Result, r.RPCError, r.Err, r.Cancelled = rep.requestID, rep.result, rep.rpcErr, rep.err, rep.cancelled
	r.Findings = append(r.Findings, rep.findings...)
}

// reply is what came of one request: its JSON-RPC id, and the result or the
// JSON-RPC error read from the wire, or why there is neither.
type reply struct {
	requestID      string
	result, rpcErr json.RawMessage
	err            error
	cancelled      bool
	// findings say the SDK could not take a result that was read raw.
	findings []finding.Finding
}

// replyTo reads what came of the request named what, sent through the SDK
// under rctx (a child of the caller's ctx that w watches), whose SDK call
// returned err. A result is taken from the raw answer even when the SDK
// could not take it, with a finding saying so. When the caller cancelled,
// the request is cancelled whatever the server sent meanwhile (it is on the
// wire, and in the record), as a client ignores a response after
// cancelling.
func (s *Session) replyTo(ctx, rctx context.Context, w *watcher, what string, err error) reply {
	reqID, result, rpcErr, ok := w.answer()
	rep := reply{requestID: reqID}
	switch {
	case err != nil && ctx.Err() != nil:
		rep.cancelled = true
		rep.err = s.failure(rctx, what, err)
	case ok && len(rpcErr) > 0:
		rep.rpcErr = rpcErr
	case ok && len(result) > 0:
		rep.result = result
		if err != nil {
			rep.findings = append(rep.findings, finding.Finding{Check: "sdk-rejected", Severity: finding.SeverityWarning,
				Message: "the Go SDK could not take this result (" + s.redact(err).Error() + "); it was checked from the raw answer"})
		}
	case err != nil:
		rep.err = s.failure(rctx, what, err)
	}
	return rep
}

// checkAnswer runs the checks on result, the answer to a call of tool name
// whose definition is def. When the answer was cut for its depth, what was
// checked is the cut copy, not what the server sent: its output-schema
// verdict says it was not checked instead.
func (s *Session) checkAnswer(name string, def, result json.RawMessage, cut bool) []finding.Verdict {
	after := s.validator.After(name, def, result)
	if !cut {
		return after
	}
	for i, v := range after {
		if v.Check == finding.OutputSchema && v.Status != finding.Skipped {
			after[i] = finding.Verdict{Check: finding.OutputSchema, Status: finding.Unchecked,
				Message: fmt.Sprintf("the answer is nested deeper than %d levels; not checked", maxFrameDepth)}
		}
	}
	return after
}

// finishCall settles r, a call checked against the listing d, whose
// answer (or end, when none came) followed seen notifications that the
// tool list changed.
func (s *Session) finishCall(r *CallResult, d toolDef, seen int64, outAtStart int, sentAtStart int64) {
	r.State = record.PhaseDone
	r.ListedDuring = outAtStart > 0 || s.listsSent.Load() != sentAtStart
	if r.Listed {
		now, _, ok := s.Tool(r.Tool)
		r.Stale = !ok || !bytes.Equal(now, d.raw)
		r.ListChanged = r.Sent && seen > d.changes
	}
	if r.Err != nil {
		r.CallInfo.Err = r.Err.Error()
	}
	for i := range r.Verdicts {
		v := r.Verdicts[i]
		s.log.Append(record.Event{Kind: record.KindVerdict, Method: "tools/call", Verdict: &v, Call: &record.CallInfo{ID: r.ID, Tool: r.Tool, State: record.PhaseVerdict}})
	}
	// The start event has the arguments; the done event does not repeat them.
	done := r.CallInfo
	done.Args = nil
	s.log.Append(record.Event{Kind: record.KindCall, Method: "tools/call", Call: &done})
}

// callMeta is the _meta of a call: our progress token and, on newer
// protocols, the log level we want to see.
func (s *Session) callMeta(token string) mcp.Meta {
	m := mcp.Meta{"progressToken": token}
	if s.info.ProtocolVersion >= newProtocol {
		s.mu.Lock()
		level := cmp.Or(s.level, "debug")
		s.mu.Unlock()
		//lint:ignore SA1019 on 2026-07-28 the log level travels in each request's _meta; servers still log there
		m[mcp.MetaKeyLogLevel] = level
	}
	return m
}
