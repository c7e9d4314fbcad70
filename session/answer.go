//lint:file-ignore SA1019 servers on protocols before 2026-07-28 still ask for roots and sampling; a person or a flag answers them

package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mcpwitness/checks"
	"mcpwitness/finding"
	"mcpwitness/record"
)

// The server's own requests that a person or a flag answers: sampling and
// elicitation. Every one goes through [Session.answerAsk], whether it came
// as a request on the wire or as an input request in a result (multi
// round-trip, protocols from 2026-07-28).

// Methods of the server's requests a client answers.
const (
	MethodSampling    = "sampling/createMessage"
	MethodElicit      = "elicitation/create"
	MethodListRoots   = "roots/list"
	MethodRootsChange = "notifications/roots/list_changed"
)

// Declared is what a client declares it answers at initialize, besides
// roots.
type Declared struct {
	Sampling   bool
	ElicitForm bool
	ElicitURL  bool
}

// Asked is one request of the server's for the client to answer.
type Asked struct {
	// Seq numbers the session's asks from 1; its events carry ID "ask-Seq".
	Seq    int64
	Method string
	// Params are the request's params as the server sent them.
	Params json.RawMessage
	// Call is the id of the call in flight that asked (0 when none is
	// known): the one whose progress token the request carries, or the
	// only call in flight.
	Call int64
	// RoundTrip says the request came as an input request in a result
	// rather than as a request of its own.
	RoundTrip bool
	// Findings say what the request did wrong.
	Findings []string
	// owner is the session asked, so one answerer may serve several.
	owner *Session
}

// askKey names one ask of one session.
type askKey struct {
	s   *Session
	seq int64
}

// Reply is a client's answer to an [Asked]: a result, or an error the
// server gets instead.
type Reply struct {
	// Result is a *mcp.CreateMessageResult or a *mcp.ElicitResult.
	Result mcp.Result
	// Err, when set, is answered instead of Result.
	Err *jsonrpc.Error
	// Text says what the answer was, for the record.
	Text string
}

// Answerer answers the server's sampling and elicitation requests: the
// --elicit and --sampling-reply flags headless, a person in the UI (see
// [Interactive]). Answer blocks until there is an answer or ctx is done
// (the server cancelled, the request timed out, the session closed).
type Answerer interface {
	// Declares says what the client declares at initialize.
	Declares() Declared
	// Answer answers a.
	Answer(ctx context.Context, a *Asked) (Reply, error)
}

// flagAnswerer answers with what the flags gave.
type flagAnswerer struct {
	elicit   *ElicitAnswer
	sampling *SamplingReply
	s        *Session
}

func (f flagAnswerer) Declares() Declared {
	// --elicit answers URL requests too: decline and cancel as they say,
	// an accept by accepting (the URL is shown, never opened headless).
	return Declared{Sampling: f.sampling != nil, ElicitForm: f.elicit != nil, ElicitURL: f.elicit != nil}
}

func (f flagAnswerer) Answer(_ context.Context, a *Asked) (Reply, error) {
	switch a.Method {
	case MethodElicit:
		if f.elicit == nil {
			break
		}
		var p mcp.ElicitParams
		_ = json.Unmarshal(a.Params, &p)
		e := f.s.answerElicit(f.elicit, &p)
		return Reply{Result: e.res, Text: e.text}, nil
	case MethodSampling:
		if f.sampling == nil {
			break
		}
		if f.sampling.Decline {
			return RejectSampling("--sampling-decline"), nil
		}
		return Reply{Result: f.sampling.Result, Text: f.sampling.text()}, nil
	}
	return Reply{}, fmt.Errorf("no answer for %s", a.Method)
}

// Interactive is an [Answerer] for a person: it declares sampling,
// elicitation (form and URL) and waits for [Session.Reply] to each
// request, which the person learns of from the session's "asked" event
// (ID "ask-Seq"). One may serve several sessions.
type Interactive struct {
	mu      sync.Mutex
	pending map[askKey]*waiting
}

// waiting is one ask waiting for its reply: the reply goes in ch, once.
type waiting struct {
	ch      chan Reply
	replied bool
}

// NewInteractive returns an answerer that waits for a person.
func NewInteractive() *Interactive { return &Interactive{pending: map[askKey]*waiting{}} }

// Declares says the person answers everything.
func (ia *Interactive) Declares() Declared {
	return Declared{Sampling: true, ElicitForm: true, ElicitURL: true}
}

// expect makes ask k wait for its reply before anyone hears of it: a
// reply that comes before Answer runs is kept for it.
func (ia *Interactive) expect(k askKey) *waiting {
	ia.mu.Lock()
	defer ia.mu.Unlock()
	w, ok := ia.pending[k]
	if !ok {
		w = &waiting{ch: make(chan Reply, 1)}
		ia.pending[k] = w
	}
	return w
}

// Answer waits for the reply to a, or for ctx.
func (ia *Interactive) Answer(ctx context.Context, a *Asked) (Reply, error) {
	k := askKey{a.owner, a.Seq}
	w := ia.expect(k)
	defer func() {
		ia.mu.Lock()
		delete(ia.pending, k)
		ia.mu.Unlock()
	}()
	select {
	case r := <-w.ch:
		return r, nil
	case <-ctx.Done():
		return Reply{}, ctx.Err()
	}
}

// reply answers ask k; false when it is no longer waiting (answered,
// cancelled by the server, timed out).
func (ia *Interactive) reply(k askKey, r Reply) bool {
	ia.mu.Lock()
	defer ia.mu.Unlock()
	w, ok := ia.pending[k]
	if !ok || w.replied {
		return false
	}
	w.replied = true
	w.ch <- r // buffered: never blocks
	return true
}

// Reply answers the server's request numbered seq (see [Asked]) when the
// session's answerer is an [Interactive]; false when nothing waits for it.
func (s *Session) Reply(seq int64, r Reply) bool {
	ia, ok := s.answerer.(*Interactive)
	return ok && ia.reply(askKey{s, seq}, r)
}

// userRejected is the error the specification gives for a sampling
// request the user rejected, saying why.
func userRejected(why string) *jsonrpc.Error {
	return &jsonrpc.Error{Code: codeUserRejected, Message: "User rejected sampling request: " + why}
}

// RejectSampling is the reply of a person who declines a sampling request.
func RejectSampling(why string) Reply {
	return Reply{Err: userRejected(why), Text: "declined: " + why}
}

// asks numbers the session's asks and counts those awaiting a reply.
type asks struct{ n, awaiting atomic.Int64 }

// maxAwaiting bounds the server's requests that await a reply at once: a
// server that asks faster than anyone answers gets each one past it
// refused at once, instead of a goroutine and a place in the queue each.
const maxAwaiting = 64

// take counts one more ask awaiting a reply, unless maxAwaiting already
// do; the caller gives it back with awaiting.Add(-1).
func (a *asks) take() bool {
	if a.awaiting.Add(1) > maxAwaiting {
		a.awaiting.Add(-1)
		return false
	}
	return true
}

// askID is the ID of the events of ask seq.
func askID(seq int64) string { return fmt.Sprintf("ask-%d", seq) }

// answerAsk is the one path of a sampling or elicitation request, from
// the wire or from a result's input requests: it records the request and
// what it did wrong, asks the answerer within the request timeout (the
// server's cancel or the session's close ends it too), and records the
// answer. A request the client did not declare, or one past maxAwaiting,
// is refused, as a finding.
func (s *Session) answerAsk(ctx context.Context, method string, params json.RawMessage, roundTrip bool) (mcp.Result, error) {
	a := &Asked{Seq: s.asks.n.Add(1), Method: method, Params: params, Call: s.askingCall(params), RoundTrip: roundTrip, owner: s}
	// Every event of the ask is told apart by its ID and names the call
	// that asked, if one is known.
	base := record.Event{Kind: record.KindServerCall, Method: method, ID: askID(a.Seq)}
	if a.Call != 0 {
		base.Call = &record.CallInfo{ID: a.Call}
	}
	refuse := s.judgeAsk(a)
	if refuse == nil && !s.asks.take() {
		refuse = &jsonrpc.Error{Code: jsonrpc.CodeInternalError,
			Message: fmt.Sprintf("mcpwitness: %d requests of the server's already await an answer; this one is refused", maxAwaiting)}
	}
	if refuse != nil {
		ev := base
		ev.Level, ev.Data, ev.Text = LevelFinding, params, "declined: "+refuse.Message
		s.log.Append(ev)
		return nil, refuse
	}
	defer s.asks.awaiting.Add(-1)
	s.announceAsk(a, base)
	return s.awaitReply(ctx, a, base)
}

// judgeAsk notes in a.Findings what the request does wrong, and returns
// the error to refuse it with when it asks for what the client did not
// declare (nil when it is to be answered).
func (s *Session) judgeAsk(a *Asked) *jsonrpc.Error {
	decl := s.answerer.Declares()
	switch a.Method {
	case MethodSampling:
		return judgeSampling(a, decl)
	case MethodElicit:
		return judgeElicit(a, decl)
	}
	return nil
}

// judgeSampling checks a sampling request's parameters; one the client
// did not declare is rejected as a user would reject it.
func judgeSampling(a *Asked, decl Declared) *jsonrpc.Error {
	if v := checks.SamplingRequest(a.Params); v.Status != finding.Pass {
		a.Findings = append(a.Findings, v.Message)
	}
	if !decl.Sampling {
		return userRejected("mcpwitness has no model attached and did not declare sampling")
	}
	return nil
}

// judgeElicit checks an elicitation request: one the client declared no
// elicitation for is refused; a URL request when only form mode was
// declared is a finding; a form's requested schema is checked.
func judgeElicit(a *Asked, decl Declared) *jsonrpc.Error {
	var p struct {
		Mode            string          `json:"mode"`
		RequestedSchema json.RawMessage `json:"requestedSchema"`
	}
	_ = json.Unmarshal(a.Params, &p)
	switch {
	case !decl.ElicitForm && !decl.ElicitURL:
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "mcpwitness did not declare elicitation and does not answer it"}
	case p.Mode == "url" && !decl.ElicitURL:
		a.Findings = append(a.Findings, "the server asked for URL elicitation; mcpwitness declared form mode only")
	case p.Mode != "url":
		_, v := checks.ElicitProperties(p.RequestedSchema)
		for _, e := range v.Errors {
			a.Findings = append(a.Findings, v.Message+": "+e.Message)
		}
	}
	return nil
}

// announceAsk records that the server asked a (events like base), then
// each of its findings. A person's reply is expected before the event is
// out, since it may come as soon as it is.
func (s *Session) announceAsk(a *Asked, base record.Event) {
	if ia, ok := s.answerer.(*Interactive); ok {
		ia.expect(askKey{s, a.Seq})
	}
	asked := base
	asked.Text, asked.Data = "asked", a.Params
	if a.RoundTrip {
		asked.Text = "asked (an input request in a result)"
	}
	s.log.Append(asked)
	for _, f := range a.Findings {
		ev := base
		ev.Level, ev.Text = LevelFinding, "finding: "+f
		s.log.Append(ev)
	}
}

// awaitReply asks the answerer for its reply to a, within the request
// timeout, until the server cancels (ctx) or the session ends, and records
// what came of it (events like base): the reply, the error it gives the
// server instead, or why there was none.
func (s *Session) awaitReply(ctx context.Context, a *Asked, base record.Event) (mcp.Result, error) {
	actx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	stop := context.AfterFunc(s.life, cancel)
	defer stop()
	r, err := s.answerer.Answer(actx, a)
	if err != nil {
		why := s.unansweredWhy(ctx, actx, err)
		ev := base
		ev.Text = "unanswered: " + why
		s.log.Append(ev)
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "mcpwitness: " + why}
	}
	answer := base
	answer.Text = r.Text
	if r.Err != nil {
		answer.Data, _ = json.Marshal(r.Err)
		if answer.Text == "" {
			answer.Text = "declined: " + r.Err.Message
		}
		s.log.Append(answer)
		return nil, r.Err
	}
	answer.Data, _ = json.Marshal(r.Result)
	s.log.Append(answer)
	return r.Result, nil
}

// unansweredWhy says why the answerer gave no reply (it failed with err,
// asked within actx, derived from the server's request context ctx): the
// session closed, the server cancelled, the timeout passed, or err itself.
func (s *Session) unansweredWhy(ctx, actx context.Context, err error) string {
	switch {
	case s.life.Err() != nil || s.closing():
		return "the session closed before an answer"
	case ctx.Err() != nil:
		return "the server cancelled the request"
	case errors.Is(actx.Err(), context.DeadlineExceeded):
		return fmt.Sprintf("no answer within %s", s.timeout)
	}
	return err.Error()
}

// closing says whether Close has begun (it cancels the requests in
// flight before the session's life ends).
func (s *Session) closing() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// askingCall finds the call a request came during: the one whose progress
// token it carries, else the only call in flight.
func (s *Session) askingCall(params json.RawMessage) int64 {
	var p struct {
		Meta struct {
			Token json.RawMessage `json:"progressToken"`
		} `json:"_meta"`
	}
	_ = json.Unmarshal(params, &p)
	s.mu.Lock()
	defer s.mu.Unlock()
	if id, ok := s.tokens[string(p.Meta.Token)]; ok {
		return id
	}
	if len(s.tokens) == 1 {
		for _, id := range s.tokens {
			return id
		}
	}
	return 0
}

// AnswerInput answers one input request of the server's (an
// elicitation/create or sampling/createMessage, its params raw) through
// the same path as a request on the wire, for requests that reach the
// client inside a result: a task's input_required, a multi round-trip.
// It returns the raw result to send back.
func (s *Session) AnswerInput(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	res, err := s.answerAsk(ctx, method, params, true)
	if err != nil {
		return nil, err
	}
	return json.Marshal(res)
}
