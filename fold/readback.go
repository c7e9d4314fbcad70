package fold

import (
	"errors"
	"fmt"
	"strings"

	"mcpwitness/record"
)

// ReadBack returns a copy of c with what a lean fold (see [Options.Lean])
// left in the session file read back: the arguments from the call's start
// event ([Call.ArgsSrc]) and the answer, result or JSON-RPC error, from its
// done event ([Call.ResultSrc]). load gives the file's event numbered i,
// counting from 0, as [record.File.Event] does. The error says what could
// not be read; what could is in the copy all the same.
func ReadBack(c *Call, load func(i int) (record.Event, error)) (*Call, error) {
	n := *c
	var failed []string
	if c.ArgsSrc > 0 {
		if info, err := callAt(load, c.ArgsSrc); err != nil {
			failed = append(failed, "the arguments ("+err.Error()+")")
		} else {
			n.Args = info.Args
		}
	}
	if c.ResultSrc > 0 {
		if info, err := callAt(load, c.ResultSrc); err != nil {
			failed = append(failed, "the answer ("+err.Error()+")")
		} else {
			n.Result, n.RPCError = info.Result, info.RPCError
		}
	}
	if len(failed) > 0 {
		return &n, errors.New("could not read " + strings.Join(failed, " and ") + " from the session file")
	}
	return &n, nil
}

// callAt returns the call record of the event numbered src (1-based).
func callAt(load func(int) (record.Event, error), src int) (*record.CallInfo, error) {
	ev, err := load(src - 1)
	switch {
	case err != nil:
		return nil, fmt.Errorf("event %d: %w", src, err)
	case ev.Call == nil:
		return nil, fmt.Errorf("event %d: not a call event", src)
	}
	return ev.Call, nil
}
