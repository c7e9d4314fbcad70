package fold

import (
	"encoding/json"
	"time"

	"mcpwitness/finding"
	"mcpwitness/record"
)

// maxLeanRPCError is the most bytes of a JSON-RPC error a lean state or a
// row keeps; a bigger one keeps its code and message.
const maxLeanRPCError = 4 << 10

// Call is one tool call, from its start to its verdicts: the one record of
// a call that the UI, the report and the headless call document read. Its
// own fields are the session's record of it, [record.CallInfo], as the
// call events last said them.
type Call struct {
	record.CallInfo
	Start, End time.Time
	// Done says the call's done event arrived.
	Done     bool
	IsError  bool // the answer said isError: true
	Verdicts []finding.Verdict

	// HasProgress says a progress notification arrived; the rest is from
	// the last one, and Updates counts them.
	HasProgress bool
	Progress    float64
	Total       float64
	ProgressMsg string
	Updates     int

	// TaskMessage is the last status message of the call's task, and
	// TaskSteps counts its statuses (see [State.Task] for them); the task's
	// id and last status are in CallInfo.
	TaskMessage string
	TaskSteps   int

	// ArgsSrc and ResultSrc are the 1-based numbers in the session file of
	// the events holding the arguments and the answer when they are not
	// kept (see [Options.Lean]), else 0.
	ArgsSrc, ResultSrc int
	// Dropped says the arguments and answer were let go to keep memory
	// bounded; the session record still has them.
	Dropped bool
	bytes   int // of Args, Result and RPCError, counted in State.callBytes

	// Rev changes whenever the call changes.
	Rev int
}

// Outcome is what a call came to, in one word.
type Outcome int

// The outcomes of a call.
const (
	OutcomeRunning Outcome = iota
	OutcomePass
	OutcomeIsError // the tool answered isError: true and every check passed
	OutcomeFail
	OutcomeUnchecked
	OutcomeRefused
	OutcomeCancelled
	OutcomeError // no answer: transport, protocol or JSON-RPC error
)

// Outcome returns what c came to.
func (c *Call) Outcome() Outcome {
	switch {
	case !c.Done:
		return OutcomeRunning
	case c.Cancelled:
		return OutcomeCancelled
	case !c.Sent && c.Err == "" && len(c.RPCError) == 0:
		// A check stopped it before sending: refused, or arguments that
		// fail the input schema.
		return OutcomeRefused
	case c.Err != "" || len(c.RPCError) > 0:
		return OutcomeError
	case hasStatus(c.Verdicts, finding.Fail):
		return OutcomeFail
	case hasStatus(c.Verdicts, finding.Unchecked):
		return OutcomeUnchecked
	case c.IsError:
		return OutcomeIsError
	}
	return OutcomePass
}

func hasStatus(vs []finding.Verdict, st finding.Status) bool {
	for _, v := range vs {
		if v.Status == st {
			return true
		}
	}
	return false
}

// Calls returns the calls kept, oldest first.
func (s *State) Calls() []*Call { return s.callOrder }

// CallsOf returns the calls kept of the tool named name, oldest first.
func (s *State) CallsOf(name string) []*Call { return s.toolCalls[name] }

// Running returns the calls in flight, oldest first.
func (s *State) Running() []*Call { return s.running }

// call returns call id, made on first sight, ready to change.
func (s *State) call(id int64, tool string, t time.Time) *Call {
	if c := s.calls[id]; c != nil {
		return s.own(c)
	}
	c := &Call{CallInfo: record.CallInfo{ID: id, Tool: tool}, Start: t}
	s.made.calls += callWeight
	s.calls[id] = c
	s.toolCalls[tool] = append(s.toolCalls[tool], c)
	s.callOrder = append(s.callOrder, c)
	s.countCall(tool)
	s.forgetCalls()
	return c
}

func (s *State) applyCall(ev record.Event) {
	info := ev.Call
	if info == nil {
		return
	}
	c := s.call(info.ID, info.Tool, ev.T)
	c.Rev++
	switch info.State {
	case record.PhaseStart:
		c.State, c.Args, c.Listed, c.Generation = info.State, info.Args, info.Listed, info.Generation
		c.AsTask = info.AsTask
		if s.lean && s.src > 0 && len(c.Args) > 0 {
			c.Args, c.ArgsSrc = nil, s.src
		}
		if !c.Done && !s.isRunning(c) {
			s.running = append(s.running, c)
		}
	case record.PhaseDone:
		c.Done, c.End = true, ev.T
		// The done event says all but the arguments, which the start event
		// had (or, lean, left in the file), and an id it may not know.
		args, reqID := c.Args, c.RequestID
		c.CallInfo = *info
		c.Args = args
		if c.RequestID == "" {
			c.RequestID = reqID
		}
		c.IsError = record.IsErrorResult(info.Result)
		s.stopped(c)
		s.settleCall(c)
		level := LevelNone
		switch c.Outcome() {
		case OutcomeFail, OutcomeError:
			level = LevelError
		case OutcomeRefused, OutcomeUnchecked, OutcomeCancelled:
			level = LevelWarn
		}
		rc := *c
		rc.Args, rc.Result, rc.bytes = nil, nil, 0
		if len(rc.RPCError) > maxLeanRPCError {
			rc.RPCError = shortRPCError(rc.RPCError)
		}
		s.row(&Row{T: ev.T, Kind: RowCall, Level: level, Call: &rc})
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

// isRunning reports whether c is among the calls in flight.
func (s *State) isRunning(c *Call) bool {
	for _, r := range s.running {
		if r == c {
			return true
		}
	}
	return false
}

// stopped takes c off the calls in flight.
func (s *State) stopped(c *Call) {
	for i, r := range s.running {
		if r == c {
			s.running = append(s.running[:i:i], s.running[i+1:]...)
			return
		}
	}
}

// countBytes keeps callBytes up to date with c and lets the oldest calls'
// arguments and answers go while the total is over budget.
func (s *State) countBytes(c *Call) {
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
		old.Rev++
	}
}

// own returns c ready to change. A finished call may be shared with
// snapshots (see [State.Clone]), so it is copied first and the copy takes
// its place here.
func (s *State) own(c *Call) *Call {
	if !c.Done {
		return c
	}
	n := *c
	n.Verdicts = clip(c.Verdicts)
	if s.calls[n.ID] == c {
		s.calls[n.ID] = &n
	}
	for _, list := range [][]*Call{s.callOrder, s.toolCalls[c.Tool], s.running} {
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
func (s *State) forgetCalls() {
	for len(s.callOrder) > maxCalls && !s.keepAll {
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

// Call returns the call numbered id, or nil when it is not kept.
func (s *State) Call(id int64) *Call { return s.calls[id] }
