package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"mcpwitness/checks"
	"mcpwitness/paging"
	"mcpwitness/session"
	"mcpwitness/tooldef"
)

// runCall calls one tool and checks it as a client would: mcpwitness call
// TOOL [k=v ...|--args JSON]. The exit code says how it went: see
// [callExit].
func runCall(ctx context.Context, a *app) error {
	sess, err := a.dial(ctx)
	if err != nil {
		return err
	}
	defer sess.Close()
	name := a.cfg.args[0]
	// The walk gives the call the definition a client would hold.
	if _, walk := sess.Walk(ctx, paging.Tools()); walk.Incomplete == paging.Failed {
		a.warn(fmt.Errorf("listing tools before the call: %w", walk.Err))
	}
	def, _, _ := sess.Tool(name)
	args, err := buildArgs(def, a.cfg.args[1:], a.cfg.argsJSON, a.cfg.argsSet)
	if err != nil {
		return err
	}
	res := sess.Call(ctx, name, args, &session.CallOptions{Force: a.cfg.force})
	doc := callDocument(res)
	a.show(doc, func() { a.pr.call(doc, res) })
	return exitWith(callExit(res))
}

// callExit maps a call to the exit codes README.md gives: 1 when it could
// not be made or the server answered with a JSON-RPC error, 3 when a check
// refused it or did not pass, 4 when the tool answered isError and every
// check passed.
func callExit(r *session.CallResult) int {
	if r.Err != nil || len(r.RPCError) > 0 {
		return exitConnect
	}
	for _, v := range r.Verdicts {
		switch v.Status {
		case checks.Fail, checks.Refused, checks.Unchecked:
			return exitCheck
		}
	}
	if r.IsError() {
		return exitToolError
	}
	return exitOK
}

// buildArgs makes the arguments object of a call from k=v pairs, coercing
// each value by the type its property has in the input schema, or from
// --args JSON.
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
	for _, kv := range pairs {
		k, v, _ := strings.Cut(kv, "=")
		val, err := coerce(k, v, types[k])
		if err != nil {
			return nil, err
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
	return b.Bytes(), nil
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

func coerce(name, v, typ string) (json.RawMessage, error) {
	quote := func() json.RawMessage { b, _ := json.Marshal(v); return b }
	switch typ {
	case "string":
		return quote(), nil
	case "integer":
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return nil, usagef("argument %s wants an integer, not %q", name, v)
		}
		// As JSON writes it: not "+5" or "007".
		return strconv.AppendInt(nil, n, 10), nil
	case "number":
		// ParseFloat reads "NaN" and "Inf", which JSON has no number for.
		f, err := strconv.ParseFloat(v, 64)
		b, merr := json.Marshal(f)
		if err != nil || merr != nil {
			return nil, usagef("argument %s wants a number, not %q", name, v)
		}
		return b, nil
	case "boolean":
		bv, err := strconv.ParseBool(v)
		if err != nil {
			return nil, usagef("argument %s wants true or false, not %q", name, v)
		}
		return json.RawMessage(strconv.FormatBool(bv)), nil
	case "object", "array":
		if !json.Valid([]byte(v)) {
			return nil, usagef("argument %s wants JSON (%s), not %q", name, typ, v)
		}
		return json.RawMessage(v), nil
	}
	// No schema for it: JSON if it is JSON (numbers, true, {…}), else a string.
	if json.Valid([]byte(v)) {
		return json.RawMessage(v), nil
	}
	return quote(), nil
}
