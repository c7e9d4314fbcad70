package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"mcpwitness/checks"
	"mcpwitness/finding"
	"mcpwitness/fold"
	"mcpwitness/paging"
	"mcpwitness/session"
	"mcpwitness/tooldef"
)

// runCall calls one tool and checks it as a client would: mcpwitness call
// TOOL [k=v ...|--args JSON]. The call's document is read from the fold,
// as the UI and the report read it. The exit code says how it went: see
// [callExit].
func runCall(ctx context.Context, a *app) error {
	// The checks before and after the call compile the tool's schemas: the
	// library's first compile is warmed while the server starts.
	go checks.Warm()
	sess, err := a.dial(ctx)
	if err != nil {
		return err
	}
	// The session ends once the call is answered (see below), or here.
	var closed chan struct{}
	defer func() {
		if closed == nil {
			sess.Close()
			return
		}
		<-closed
	}()
	name := a.cfg.args[0]
	folded := foldLog(a.log)
	page, walked := walkFor(ctx, a, sess, name)
	if page == 0 && walked.Incomplete == paging.Complete && !a.cfg.force {
		return notFound(fmt.Errorf("tool %q is not listed by the server (%s in %s read whole); mcpwitness tools lists them, --force sends the call anyway",
			name, nouns(walked.Count(), "tool"), nouns(len(walked.Pages), "page")))
	}
	if err := notFoundIn(name, page, walked); err != nil {
		return err
	}
	def, _, _ := sess.Tool(name)
	args, err := buildArgs(def, a.cfg.args[1:], a.cfg.argsJSON, a.cfg.argsSet)
	var bad *badValueError
	switch {
	case errors.As(err, &bad):
		// Sent as given, as the same value in --args is: the input check
		// refuses it (exit 3) unless --force sends it.
		a.warn(err)
	case err != nil:
		return err
	}
	var res *session.CallResult
	// Tasks as the negotiated protocol defines them (see session.CallTask);
	// on 2026-07-28 a plain call may become a task too.
	a.liveTaskLines()
	if a.cfg.task {
		res = sess.CallTask(ctx, name, args, &session.TaskOptions{Force: a.cfg.force, TTL: a.cfg.taskTTL})
	} else {
		res = sess.Call(ctx, name, args, &session.CallOptions{Force: a.cfg.force})
	}
	// Nothing more goes to the server: it is told to end now, and its exit
	// (which Close waits for) overlaps the folding and printing below.
	closed = make(chan struct{})
	go func() {
		defer close(closed)
		sess.Close()
	}()
	var c *fold.Call
	var task *fold.Task
	folded.read(func(st *fold.State) {
		if fc := st.Call(res.ID); fc != nil {
			cc := *fc
			c = &cc
			task = st.Task(fc.TaskID)
		}
	})
	if c == nil || !c.Done {
		return fmt.Errorf("call %d of %s: the session's record of it has no end", res.ID, name)
	}
	doc := callDocument(serverDocument(sess.Info()), c, res.Err, res.Findings, page)
	if c.AsTask || c.TaskID != "" {
		tdoc := taskCallDoc{callDoc: doc, Task: taskDocument(task)}
		a.show(tdoc, func() { a.pr.call(doc, c); a.pr.taskCall(tdoc) })
	} else {
		a.show(doc, func() { a.pr.call(doc, c); a.pr.offerTask(c, def) })
	}
	if err := stillAsks(res.Result); err != nil {
		return &exitError{exitCheck, err}
	}
	return exitWith(callExit(c))
}

// stillAsks says why a call whose last answer is result has no answer
// yet: the server still asks for input (multi round-trip) that nothing
// gave. Such a call never passes: its content is not the tool's answer.
func stillAsks(result json.RawMessage) error {
	var r struct {
		ResultType    string `json:"resultType"`
		InputRequests map[string]struct {
			Method string `json:"method"`
		} `json:"inputRequests"`
	}
	if json.Unmarshal(result, &r) != nil || (len(r.InputRequests) == 0 && r.ResultType != "input_required") {
		return nil
	}
	var asks, flags []string
	for _, id := range slices.Sorted(maps.Keys(r.InputRequests)) {
		m := r.InputRequests[id].Method
		asks = append(asks, fmt.Sprintf("%q (%s)", id, m))
		switch m {
		case session.MethodSampling:
			flags = append(flags, "--sampling-reply TEXT|@FILE or --sampling-decline")
		case session.MethodElicit:
			flags = append(flags, "--elicit decline|cancel|accept-defaults|@FILE")
		case session.MethodListRoots:
			flags = append(flags, "--root DIR")
		}
	}
	flags = slices.Compact(slices.Sorted(slices.Values(flags)))
	if len(flags) == 0 {
		flags = []string{"--elicit or --sampling-reply"}
	}
	return fmt.Errorf("the call has no answer: the server still asks for input %s that was not given; answer it with %s",
		strings.Join(asks, ", "), strings.Join(flags, "; "))
}

// walkFor walks tools/list for the definition of the tool name, the one a
// client would hold when it calls it. Unless --walk-all, the walk stops at
// the page that lists it: the call's checks need that definition, not the
// rest of the list. It returns the number of the page whose definition the
// call will check (with --walk-all, the last that lists the tool), 0 when
// no page listed it, and the walk.
func walkFor(ctx context.Context, a *app, sess *session.Session, name string) (int, *paging.Result) {
	page := 0
	// Stop runs on this goroutine, after each accepted page's event.
	stop := func(p paging.Page) bool {
		if !slices.Contains(p.Keys, name) {
			return false
		}
		page = p.Number
		return !a.cfg.walkAll
	}
	_, walk := sess.WalkWith(ctx, paging.Tools(), &session.WalkOptions{Stop: stop})
	if walk.Incomplete == paging.Failed {
		a.warn(fmt.Errorf("listing tools before the call: %w", walk.Err))
	}
	return page, walk
}

// notFoundIn is the failure of a call of name that no page of walk listed
// (page is 0) when the walk stopped before the list's end: mcpwitness
// cannot say the server does not list it, so nothing is sent and the call
// fails as an incomplete walk does (exit 3, code "incomplete").
func notFoundIn(name string, page int, walk *paging.Result) error {
	if page != 0 || (walk.Incomplete != paging.PageLimit && walk.Incomplete != paging.CursorRepeated) {
		return nil
	}
	n := len(walk.Pages)
	remedy := "raise --max-pages to read more"
	if walk.Incomplete == paging.CursorRepeated {
		remedy = "the server's cursors loop, so the rest of its list cannot be read"
	}
	return &exitError{exitCheck, withCode(codeIncomplete,
		fmt.Errorf("tool %q not found in the %d %s read (walk stopped: %s); nothing was sent: %s",
			name, n, plural(n, "page", "pages"), walk.Incomplete, remedy))}
}

// plural is one when n is 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// callExit maps a call to the exit codes README.md gives: 1 when it could
// not be made or the server answered with a JSON-RPC error, 3 when a check
// refused it or did not pass, 4 when the tool answered isError and every
// check passed.
func callExit(c *fold.Call) int {
	if c.Err != "" || len(c.RPCError) > 0 {
		return exitConnect
	}
	for _, v := range c.Verdicts {
		switch v.Status {
		case finding.Fail, finding.Refused, finding.Unchecked:
			return exitCheck
		}
	}
	if c.IsError {
		return exitToolError
	}
	return exitOK
}

// badValueError is a k=v value that is not of its property's type in the
// input schema. The arguments still hold it, as a string: the call's input
// check judges it as it judges the same value given in --args.
type badValueError struct{ err error }

func (e *badValueError) Error() string {
	return e.err.Error() + " (sent as a string; the input check judges it)"
}
func (e *badValueError) Unwrap() error { return e.err }

// buildArgs makes the arguments object of a call from k=v pairs, coercing
// each value by the type its property has in the input schema
// ([tooldef.Coerce], as the call editor does), or from --args JSON. A value that cannot be coerced is kept as a string, and the
// error is a [badValueError] naming the first.
func buildArgs(def json.RawMessage, pairs []string, raw string, rawSet bool) (json.RawMessage, error) {
	if rawSet {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal([]byte(raw), &obj); err != nil || obj == nil {
			return nil, usagef("--args must be a JSON object such as '{\"city\":\"Oslo\"}': %v", jsonErr(err))
		}
		return json.RawMessage(raw), nil
	}
	types := propertyTypes(def)
	args := map[string]json.RawMessage{}
	var order []string
	var bad error
	for _, kv := range pairs {
		k, v, _ := strings.Cut(kv, "=")
		val, err := tooldef.Coerce(types[k], v)
		if err != nil && bad == nil {
			bad = &badValueError{usagef("argument %s %v", k, err)}
		}
		if _, dup := args[k]; !dup {
			order = append(order, k)
		}
		args[k] = val
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range order {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		b.Write(args[k])
	}
	b.WriteByte('}')
	return b.Bytes(), bad
}

func jsonErr(err error) string {
	if err == nil {
		return "got null"
	}
	return err.Error()
}

// propertyTypes reads inputSchema.properties.*.type (the first type when a
// list is given).
func propertyTypes(def json.RawMessage) map[string]string {
	var schema struct {
		Properties map[string]struct {
			Type json.RawMessage `json:"type"`
		} `json:"properties"`
	}
	out := map[string]string{}
	d, _ := tooldef.Parse(def)
	if json.Unmarshal(d.InputSchema, &schema) != nil {
		return out
	}
	for name, p := range schema.Properties {
		var one string
		var many []string
		switch {
		case json.Unmarshal(p.Type, &one) == nil:
			out[name] = one
		case json.Unmarshal(p.Type, &many) == nil:
			for _, t := range many {
				if t != "null" {
					out[name] = t
					break
				}
			}
		}
	}
	return out
}
