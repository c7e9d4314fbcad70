//lint:file-ignore SA1019 servers on protocols before 2026-07-28 still ask for roots and sampling; a person or a flag answers them

package session

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"mcpwitness/record"
)

// Multi round-trip (protocols from 2026-07-28): a server asks through
// input requests in a result, and the client calls again with the answers.
// The SDK's own loop is off (see [Session.newClient]): this one answers
// each input request through [Session.answerAsk], records each round trip,
// and makes the call's raw answer the last one, not the first.

// maxRounds bounds the round trips of one request, as the SDK does.
const maxRounds = 10

// inputRequired is a result that may ask for input.
type inputRequired interface {
	NeedsInput() bool
}

// roundTrips answers the input requests of a tools/call, prompts/get or
// resources/read result and sends the request again with the answers,
// until the server answers in full.
func (s *Session) roundTrips(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method != "tools/call" && method != "prompts/get" && method != "resources/read" {
			return next(ctx, method, req)
		}
		for round := 1; ; round++ {
			res, err := next(ctx, method, req)
			if err != nil {
				return res, err
			}
			ir, ok := res.(inputRequired)
			if !ok || !ir.NeedsInput() {
				return res, nil
			}
			asks, state := inputRequestsOf(res)
			if round >= maxRounds {
				return nil, fmt.Errorf("the server still asked for input after %d round trips", maxRounds)
			}
			names := slices.Sorted(func(yield func(string) bool) {
				for id := range asks {
					if !yield(id) {
						return
					}
				}
			})
			s.log.Append(record.Event{Kind: record.KindServerCall, Method: method, Call: s.roundCall(),
				Text: fmt.Sprintf("round trip %d: the result asks for input (%s)", round, strings.Join(names, ", "))})
			answers, err := s.AnswerInputs(ctx, asks)
			if err != nil {
				return nil, err
			}
			if w := watcherFrom(ctx); w != nil {
				// The call's answer is the retry's.
				s.tap.rearm(w)
			}
			if req, err = retryWith(req, answers, state); err != nil {
				return nil, err
			}
		}
	}
}

// roundCall is the call a round trip belongs to, if one is known.
func (s *Session) roundCall() *record.CallInfo {
	if id := s.askingCall(nil); id != 0 {
		return &record.CallInfo{ID: id}
	}
	return nil
}

// inputRequestsOf returns a result's input requests and request state.
func inputRequestsOf(res mcp.Result) (mcp.InputRequestMap, string) {
	switch r := res.(type) {
	case *mcp.CallToolResult:
		return r.InputRequests, r.RequestState
	case *mcp.GetPromptResult:
		return r.InputRequests, r.RequestState
	case *mcp.ReadResourceResult:
		return r.InputRequests, r.RequestState
	}
	return nil, ""
}

// AnswerInputs answers input requests (a result's, or a task's when it
// needs input) through the same path as the server's requests on the
// wire: sampling and elicitation by the answerer, roots/list with the
// roots. Each is recorded.
func (s *Session) AnswerInputs(ctx context.Context, asks mcp.InputRequestMap) (mcp.InputResponseMap, error) {
	out := make(mcp.InputResponseMap, len(asks))
	for id, ask := range asks {
		raw, _ := json.Marshal(ask)
		switch ask.(type) {
		case *mcp.ElicitParams:
			if d := s.answerer.Declares(); !d.ElicitForm && !d.ElicitURL {
				out[id] = s.declineUndeclared(raw)
				continue
			}
			res, err := s.answerAsk(ctx, MethodElicit, raw, true)
			if err != nil {
				return nil, fmt.Errorf("input request %q (elicitation/create): %w", id, err)
			}
			out[id] = res.(*mcp.ElicitResult)
		case *mcp.CreateMessageParams, *mcp.CreateMessageWithToolsParams:
			res, err := s.answerAsk(ctx, MethodSampling, raw, true)
			if err != nil {
				return nil, fmt.Errorf("input request %q (sampling/createMessage): %w", id, err)
			}
			r, ok := res.(mcp.InputResponse)
			if !ok {
				return nil, fmt.Errorf("input request %q: the answer is a %T", id, res)
			}
			out[id] = r
		case *mcp.ListRootsParams:
			roots := []*mcp.Root{}
			for _, u := range s.Roots() {
				roots = append(roots, &mcp.Root{URI: u})
			}
			res := &mcp.ListRootsResult{Roots: roots}
			s.log.Append(record.Event{Kind: record.KindServerCall, Method: MethodListRoots, Data: raw, Call: s.roundCall(),
				Text: rootsAnswered(res) + " (an input request in a result)"})
			out[id] = res
		default:
			return nil, fmt.Errorf("input request %q is a %T, which mcpwitness does not answer", id, ask)
		}
	}
	return out, nil
}

// retryWith is req again, carrying answers and the server's state.
func retryWith(req mcp.Request, answers mcp.InputResponseMap, state string) (mcp.Request, error) {
	cs, _ := req.GetSession().(*mcp.ClientSession)
	switch p := req.GetParams().(type) {
	case *mcp.CallToolParams:
		cp := *p
		cp.InputResponses, cp.RequestState = answers, state
		return &mcp.ClientRequest[*mcp.CallToolParams]{Session: cs, Params: &cp}, nil
	case *mcp.GetPromptParams:
		cp := *p
		cp.InputResponses, cp.RequestState = answers, state
		return &mcp.ClientRequest[*mcp.GetPromptParams]{Session: cs, Params: &cp}, nil
	case *mcp.ReadResourceParams:
		cp := *p
		cp.InputResponses, cp.RequestState = answers, state
		return &mcp.ClientRequest[*mcp.ReadResourceParams]{Session: cs, Params: &cp}, nil
	}
	return nil, fmt.Errorf("a %T cannot be sent again with the answers", req.GetParams())
}

// rearm makes w take the answer to the next request its context sends.
func (t *tap) rearm(w *watcher) {
	t.unwatch(w)
	w.mu.Lock()
	defer w.mu.Unlock()
	w.id, w.result, w.rpcErr, w.got, w.cut, w.frame, w.changes = "", nil, nil, false, false, 0, listChanges{}
}

// declineUndeclared answers an elicitation a result asks for although the
// client declared none (headless without --elicit): it is declined, as
// --elicit decline would, so the call ends with the server's answer to a
// decline rather than with nothing; that the server asked is a finding.
func (s *Session) declineUndeclared(raw json.RawMessage) *mcp.ElicitResult {
	s.log.Append(record.Event{Kind: record.KindServerCall, Method: MethodElicit, Level: LevelFinding, Data: raw, Call: s.roundCall(),
		Text: "the server asked for elicitation in a result, which mcpwitness did not declare; " + defaultDeclined})
	return &mcp.ElicitResult{Action: string(ElicitDecline)}
}
