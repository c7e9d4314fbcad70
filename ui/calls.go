package ui

import (
	"encoding/json"
	"fmt"
	"time"

	"mcpwitness/checks"
	"mcpwitness/session"
)

// maxLeanRPCError is the most bytes of a JSON-RPC error a lean state keeps;
// a bigger one keeps its code and message.
const maxLeanRPCError = 4 << 10

// callState is one tool call, from its start to its verdicts.
type callState struct {
	ID           int64
	Tool         string
	Start, End   time.Time
	Done         bool
	Args         json.RawMessage
	Listed       bool
	Sent         bool
	Forced       bool
	Generation   int64
	Stale        bool
	ListedDuring bool
	Result       json.RawMessage
	IsError      bool // the answer said isError: true
	RPCError     json.RawMessage
	Err          string
	Cancelled    bool
	Ms           float64
	Verdicts     []checks.Verdict

	HasProgress bool
	Progress    float64
	Total       float64
	ProgressMsg string

	// ArgsSrc and ResultSrc are the 1-based numbers in the session file of
	// the events holding the arguments and the answer when they are not
	// kept (see state.lean), else 0.
	ArgsSrc, ResultSrc int
	// Dropped says the arguments and answer were let go to keep memory
	// bounded; the session record still has them.
	Dropped bool
	bytes   int // of Args, Result and RPCError, counted in state.callBytes

	// rev changes whenever the call changes.
	rev int
}

// call returns call id, made on first sight, ready to change.
func (s *state) call(id int64, tool string, t time.Time) *callState {
	if c := s.calls[id]; c != nil {
		return s.own(c)
	}
	c := &callState{ID: id, Tool: tool, Start: t}
	s.made.calls += callWeight
	s.calls[id] = c
	s.toolCalls[tool] = append(s.toolCalls[tool], c)
	s.callOrder = append(s.callOrder, c)
	s.forgetCalls()
	return c
}

func (s *state) applyCall(ev session.Event) {
	info := ev.Call
	if info == nil {
		return
	}
	c := s.call(info.ID, info.Tool, ev.T)
	c.rev++
	switch info.State {
	case "start":
		c.Args, c.Listed, c.Generation = info.Args, info.Listed, info.Generation
		if s.lean && s.src > 0 && len(c.Args) > 0 {
			c.Args, c.ArgsSrc = nil, s.src
		}
		if !c.Done && !c.running(s) {
			s.running = append(s.running, c)
		}
	case "done":
		c.Done, c.End = true, ev.T
		c.Listed, c.Sent, c.Forced = info.Listed, info.Sent, info.Forced
		c.Generation, c.Stale, c.ListedDuring = info.Generation, info.Stale, info.ListedDuringCall
		c.Result, c.RPCError, c.Err, c.Cancelled, c.Ms = info.Result, info.RPCError, info.Error, info.Cancelled, info.Ms
		c.IsError = isErrorResult(info.Result)
		s.stopped(c)
		level := ""
		switch callOutcome(c) {
		case outcomeFail, outcomeError:
			level = "error"
		case outcomeRefused, outcomeUnchecked, outcomeCancelled:
			level = "warn"
		}
		s.row(ev.T, "call", level, fmt.Sprintf("call #%d %s: %s", c.ID, c.Tool, callSummary(c)))
		if s.lean && s.src > 0 {
			if len(c.Result) > 0 || len(c.RPCError) > maxLeanRPCError {
				c.ResultSrc = s.src
			}
			c.Result = nil
			if len(c.RPCError) > maxLeanRPCError {
				c.RPCError = shortRPCError(c.RPCError)
			}
		}
	}
	s.countBytes(c)
}

// running reports whether c is among the calls in flight.
func (c *callState) running(s *state) bool {
	for _, r := range s.running {
		if r == c {
			return true
		}
	}
	return false
}

// stopped takes c off the calls in flight.
func (s *state) stopped(c *callState) {
	for i, r := range s.running {
		if r == c {
			s.running = append(s.running[:i:i], s.running[i+1:]...)
			return
		}
	}
}

// countBytes keeps callBytes up to date with c and lets the oldest calls'
// arguments and answers go while the total is over budget.
func (s *state) countBytes(c *callState) {
	n := len(c.Args) + len(c.Result) + len(c.RPCError)
	if c.Dropped {
		n = 0
	}
	s.callBytes += n - c.bytes
	if n > c.bytes {
		s.made.calls += n - c.bytes
	}
	c.bytes = n
	for s.callBytes > maxCallBytes && s.trimmed < len(s.callOrder) {
		old := s.callOrder[s.trimmed]
		s.trimmed++
		if old.bytes == 0 {
			continue
		}
		old = s.own(old)
		s.callBytes -= old.bytes
		old.Args, old.Result, old.bytes, old.Dropped = nil, nil, 0, true
		old.rev++
	}
}

// own returns c ready to change. A finished call may be shared with
// snapshots (see state.clone), so it is copied first and the copy takes its
// place here.
func (s *state) own(c *callState) *callState {
	if !c.Done {
		return c
	}
	n := *c
	n.Verdicts = clip(c.Verdicts)
	if s.calls[n.ID] == c {
		s.calls[n.ID] = &n
	}
	for _, list := range [][]*callState{s.callOrder, s.toolCalls[c.Tool], s.running} {
		for i, x := range list {
			if x == c {
				list[i] = &n
				break
			}
		}
	}
	return &n
}

// forgetCalls keeps the newest [maxCalls] calls, and every call in flight.
func (s *state) forgetCalls() {
	for len(s.callOrder) > maxCalls {
		i := 0
		for i < len(s.callOrder)-1 && !s.callOrder[i].Done {
			i++
		}
		c := s.callOrder[i]
		if i == 0 {
			s.callOrder[0] = nil
			s.callOrder = s.callOrder[1:]
		} else {
			s.callOrder = append(s.callOrder[:i], s.callOrder[i+1:]...)
		}
		if i < s.trimmed {
			s.trimmed--
		}
		s.callBytes -= c.bytes
		delete(s.calls, c.ID)
		s.stopped(c)
		list := s.toolCalls[c.Tool]
		for j, tc := range list {
			if tc == c {
				list = append(list[:j], list[j+1:]...)
				break
			}
		}
		if len(list) == 0 {
			delete(s.toolCalls, c.Tool)
		} else {
			s.toolCalls[c.Tool] = list
		}
		s.callsGone++
	}
}

// shortRPCError keeps the code and (the start of) the message of a big
// JSON-RPC error.
func shortRPCError(raw json.RawMessage) json.RawMessage {
	var e struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	_ = json.Unmarshal(raw, &e)
	if len(e.Message) > 1000 {
		e.Message = e.Message[:1000] + "…"
	}
	b, _ := json.Marshal(e)
	return b
}
