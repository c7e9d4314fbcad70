package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mcpwitness/checks"
	"mcpwitness/finding"
	"mcpwitness/record"
)

// LogLevels are the levels logging/setLevel accepts, least severe first
// (RFC 5424, as the specification lists them).
func LogLevels() []string {
	return []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}
}

// RequestResult is a finished request other than a list or a tool call,
// with its verdicts. Its ID is unique among the session's requests; calls
// are numbered apart, so that the first call is call #1 whatever was read
// or got before it.
type RequestResult struct {
	ID     int64
	Method string
	// About is what the request is about: a uri, a prompt's name, a
	// completion's reference, a log level.
	About  string
	Params json.RawMessage
	Sent   bool
	Forced bool
	// Verdicts are the checks before sending and on the answer.
	Verdicts []finding.Verdict
	Findings []finding.Finding
	// Result is the raw result the server answered (read from the wire,
	// even when the SDK rejected it), RPCError its JSON-RPC error; Err says
	// why there is neither (refused, timeout, cancel, connection).
	Result    json.RawMessage
	RPCError  json.RawMessage
	Err       error
	Cancelled bool
	Elapsed   time.Duration
	// RequestID is the JSON-RPC id the request went out with.
	RequestID string
}

// Ms is the request's round trip in milliseconds, as records and
// documents give it.
func (r *RequestResult) Ms() float64 { return ms(r.Elapsed) }

// Refused reports whether a check stopped the request before it was sent.
func (r *RequestResult) Refused() bool { return !r.Sent && checks.Blocks(r.Verdicts) }

// ReadResource sends resources/read of uri and checks the contents (see
// [checks.AfterRead]). It always goes to the wire: the SDK's read cache
// never answers it.
func (s *Session) ReadResource(ctx context.Context, uri string) *RequestResult {
	r := s.newRequest(record.MethodRead, uri, map[string]any{"uri": uri})
	s.send(ctx, r, func(rctx context.Context) error {
		res, err := s.cs.ReadResource(rctx, &mcp.ReadResourceParams{URI: uri})
		if res != nil {
			// The SDK caches this very result on newer protocols; with no
			// TTL the next read goes to the wire.
			res.TTLMs = 0
		}
		return err
	}, func(result json.RawMessage) finding.Verdict { return checks.AfterRead(uri, result) })
	return r
}

// PromptOptions tune a [Session.GetPrompt]. nil means defaults.
type PromptOptions struct {
	// Definition is the prompt as prompts/list gave it (one raw item); nil
	// when no walk listed it, which skips the argument check.
	Definition json.RawMessage
	// Force sends the request even when a required argument is missing.
	Force bool
}

// GetPrompt checks args against the prompt's definition, sends
// prompts/get unless a required argument is missing (see
// [PromptOptions.Force]) and checks the messages of the answer. When the
// server said its prompt list changed after the listing the definition
// came from and before the answer, a finding says the definition may be
// stale.
func (s *Session) GetPrompt(ctx context.Context, name string, args map[string]string, opts *PromptOptions) *RequestResult {
	var o PromptOptions
	if opts != nil {
		o = *opts
	}
	params := map[string]any{"name": name}
	if len(args) > 0 {
		params["arguments"] = args
	}
	r := s.newRequest(record.MethodGetPrompt, name, params)
	r.Verdicts = []finding.Verdict{checks.BeforePrompt(name, o.Definition, args)}
	if checks.Blocks(r.Verdicts) && !o.Force {
		s.finishRequest(r)
		return r
	}
	r.Forced = checks.Blocks(r.Verdicts)
	s.mu.Lock()
	mark, listed := s.promptMarks[name]
	s.mu.Unlock()
	seen := s.exchange(ctx, r, func(rctx context.Context) error {
		_, err := s.cs.GetPrompt(rctx, &mcp.GetPromptParams{Name: name, Arguments: args})
		return err
	}, checks.AfterPrompt)
	if o.Definition != nil && listed && seen.prompts > mark.changes {
		r.Findings = append(r.Findings, finding.Finding{Check: "list-changed", Severity: finding.SeverityWarning,
			Message: "the server said its prompt list changed after the listing checked against, before the answer: the definition may be stale"})
	}
	s.finishRequest(r)
	return r
}

// CompleteRef is what a completion/complete is for: a prompt's argument
// (Prompt names the prompt) or a resource template's variable (Template is
// its uriTemplate). Exactly one is set.
type CompleteRef struct {
	Prompt   string
	Template string
}

// String is the reference as the request names it.
func (c CompleteRef) String() string {
	if c.Template != "" {
		return "ref/resource " + c.Template
	}
	return "ref/prompt " + c.Prompt
}

// Complete sends completion/complete for the argument arg of ref, whose
// value so far is value; resolved holds the arguments already chosen
// (nil for none). The answer is checked against the limits the
// specification sets (see [checks.AfterComplete]).
func (s *Session) Complete(ctx context.Context, ref CompleteRef, arg, value string, resolved map[string]string) *RequestResult {
	sref := &mcp.CompleteReference{Type: "ref/prompt", Name: ref.Prompt}
	if ref.Template != "" {
		sref = &mcp.CompleteReference{Type: "ref/resource", URI: ref.Template}
	}
	p := &mcp.CompleteParams{Ref: sref, Argument: mcp.CompleteParamsArgument{Name: arg, Value: value}}
	if len(resolved) > 0 {
		p.Context = &mcp.CompleteContext{Arguments: resolved}
	}
	r := s.newRequest(record.MethodComplete, ref.String(), p)
	s.send(ctx, r, func(rctx context.Context) error {
		_, err := s.cs.Complete(rctx, p)
		return err
	}, checks.AfterComplete)
	return r
}

// Ping sends ping; the request's Elapsed is the round trip.
func (s *Session) Ping(ctx context.Context) *RequestResult {
	r := s.newRequest(record.MethodPing, "", nil)
	s.send(ctx, r, func(rctx context.Context) error { return s.cs.Ping(rctx, nil) }, nil)
	return r
}

// SetLogLevel sends logging/setLevel with level, one of [LogLevels]. On
// protocols from 2026-07-28 the method is gone: nothing is sent (Err says
// so) and the calls made from then on ask for level in their _meta.
func (s *Session) SetLogLevel(ctx context.Context, level string) *RequestResult {
	r := s.newRequest(record.MethodSetLevel, level, map[string]any{"level": level})
	switch {
	case !slices.Contains(LogLevels(), level):
		r.Err = fmt.Errorf("unknown log level %q; the levels are %s", level, strings.Join(LogLevels(), ", "))
	case s.info.ProtocolVersion >= newProtocol:
		s.mu.Lock()
		s.level = level
		s.mu.Unlock()
		r.Err = fmt.Errorf("protocol %s has no logging/setLevel; nothing was sent: calls from now on ask for %s in their _meta", s.info.ProtocolVersion, level)
	}
	if r.Err == nil {
		r.Err = s.afterDebugLevel(ctx)
	}
	if r.Err != nil {
		s.finishRequest(r)
		return r
	}
	s.send(ctx, r, func(rctx context.Context) error {
		//lint:ignore SA1019 servers on protocols before 2026-07-28 log through logging/setLevel
		return s.cs.SetLoggingLevel(rctx, &mcp.SetLoggingLevelParams{Level: mcp.LoggingLevel(level)})
	}, nil)
	return r
}

// Subscribe asks the server for notifications/resources/updated of uri
// (resources/subscribe). The notifications are recorded as they come, as
// [record.KindNotification] events of method [record.MethodUpdated]; see [record.UpdatedURI].
func (s *Session) Subscribe(ctx context.Context, uri string) *RequestResult {
	r := s.newRequest(record.MethodSubscribe, uri, map[string]any{"uri": uri})
	s.send(ctx, r, func(rctx context.Context) error {
		return s.cs.Subscribe(rctx, &mcp.SubscribeParams{URI: uri})
	}, nil)
	return r
}

// Unsubscribe ends a [Session.Subscribe] of uri (resources/unsubscribe).
func (s *Session) Unsubscribe(ctx context.Context, uri string) *RequestResult {
	r := s.newRequest(record.MethodUnsubscribe, uri, map[string]any{"uri": uri})
	s.send(ctx, r, func(rctx context.Context) error {
		return s.cs.Unsubscribe(rctx, &mcp.UnsubscribeParams{URI: uri})
	}, nil)
	return r
}

// newRequest numbers a request and records its start.
func (s *Session) newRequest(method, about string, params any) *RequestResult {
	r := &RequestResult{ID: s.requests.Add(1), Method: method, About: about}
	if params != nil {
		r.Params, _ = json.Marshal(params)
	}
	s.log.Append(record.Event{Kind: record.KindRequest, Method: method,
		Request: &record.RequestInfo{ID: r.ID, Method: method, State: record.PhaseStart, About: about, Params: r.Params}})
	return r
}

// send is [Session.exchange], and records r's verdicts and its end.
func (s *Session) send(ctx context.Context, r *RequestResult, sendFn func(context.Context) error, check func(json.RawMessage) finding.Verdict) {
	s.exchange(ctx, r, sendFn, check)
	s.finishRequest(r)
}

// exchange sends r through the SDK call sendFn under the session's
// timeout, fills r from the raw answer on the wire and runs check on a
// result (nil for none). It returns the counts of list changes read
// before the answer (none when no answer came).
func (s *Session) exchange(ctx context.Context, r *RequestResult, sendFn func(context.Context) error, check func(json.RawMessage) finding.Verdict) listChanges {
	r.Sent = true
	rctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	rctx, w := withWatcher(rctx)
	defer s.tap.unwatch(w)
	start := time.Now()
	err := sendFn(rctx)
	r.Elapsed = time.Since(start)
	what := r.Method
	if r.About != "" {
		what += " " + r.About
	}
	rep := s.replyTo(ctx, rctx, w, what, err)
	r.RequestID, r.Result, r.RPCError, r.Err, r.Cancelled = rep.requestID, rep.result, rep.rpcErr, rep.err, rep.cancelled
	r.Findings = append(r.Findings, rep.findings...)
	_, _, _, answered := w.answer()
	if !answered && err == nil && r.Method != record.MethodSubscribe && r.Method != record.MethodUnsubscribe {
		// On newer protocols a subscription is a stream of its own
		// (subscriptions/listen), with no answer to this call; anything
		// else should have been seen.
		r.Err = errors.New(what + ": the answer was not seen on the wire")
	}
	if len(r.Result) > 0 && check != nil {
		v := check(r.Result)
		if w.wasCut() {
			v = finding.Verdict{Check: v.Check, Status: finding.Unchecked,
				Message: fmt.Sprintf("the answer is nested deeper than %d levels; not checked", maxFrameDepth)}
		}
		r.Verdicts = append(r.Verdicts, v)
	}
	changes, _ := w.changesBefore()
	return changes
}

// finishRequest records r's verdicts and its end.
func (s *Session) finishRequest(r *RequestResult) {
	for i := range r.Verdicts {
		v := r.Verdicts[i]
		s.log.Append(record.Event{Kind: record.KindVerdict, Method: r.Method, Verdict: &v,
			Request: &record.RequestInfo{ID: r.ID, Method: r.Method, State: record.PhaseVerdict, About: r.About}})
	}
	info := &record.RequestInfo{ID: r.ID, Method: r.Method, State: record.PhaseDone, About: r.About, Params: r.Params,
		Sent: r.Sent, Forced: r.Forced, RequestID: r.RequestID, Result: r.Result, RPCError: r.RPCError,
		Cancelled: r.Cancelled, Ms: r.Ms(), Findings: r.Findings}
	if r.Err != nil {
		info.Error = r.Err.Error()
	}
	s.log.Append(record.Event{Kind: record.KindRequest, Method: r.Method, Request: info})
}
