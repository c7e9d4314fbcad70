package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	sjson "github.com/segmentio/encoding/json"

	"mcpwitness/paging"
	"mcpwitness/record"
	"mcpwitness/tooldef"
)

// Walk reads every page of the list method m, bounded as [paging.Walk]
// says, recording each request and page as it happens. Each page is read
// from the raw answer on the wire, and always asked of the server: the SDK's
// list cache never answers a walk. Cancel ctx to abort it. It is
// [Session.WalkWith] with default options.
func (s *Session) Walk(ctx context.Context, m paging.Method) (int64, *paging.Result) {
	return s.WalkWith(ctx, m, nil)
}

// WalkOptions tune a [Session.WalkWith]. A nil *WalkOptions means defaults.
type WalkOptions struct {
	// Stop, if set, is [paging.Options.Stop]: called after each accepted
	// page (after its page event is recorded), true ends the walk there as
	// [paging.Stopped] when the page names a cursor. A client that has read
	// what it needs stops this way, not by cancelling ctx (which records an
	// aborted walk).
	Stop func(paging.Page) bool
	// NoCalls says no call will follow that needs the walk's definitions:
	// the session keeps none of them for its call checks (a command that
	// only lists saves a map entry per tool), and the Result's pages keep
	// no items (see [paging.Options.DropItems]): the page events had them.
	NoCalls bool
}

// WalkWith is [Session.Walk] tuned by opts.
func (s *Session) WalkWith(ctx context.Context, m paging.Method, opts *WalkOptions) (int64, *paging.Result) {
	id := s.walks.Add(1)
	start := time.Now()
	s.log.Append(record.Event{Kind: record.KindWalk, Method: m.Name, Walk: &record.WalkInfo{ID: id, Method: m.Name, State: record.PhaseStart}})
	var pageNo int
	learn := m.Name == paging.Tools().Name && (opts == nil || !opts.NoCalls)
	marks := m.Name == paging.Prompts().Name
	popts := &paging.Options{
		DropItems: opts != nil && opts.NoCalls,
		MaxPages:  s.max,
		OnRequest: func(number int, _ string) { pageNo = number },
		OnPage: func(p paging.Page) {
			gen, out := s.counter.Snapshot()
			page := p
			s.log.Append(record.Event{Kind: record.KindPage, Method: m.Name, Page: &page, Items: p.Items, Gen: gen, Out: out,
				Walk: &record.WalkInfo{ID: id, Method: m.Name, State: record.PhasePage}})
			if learn {
				s.learn(id, p)
			}
			if marks {
				s.markPrompts(id, p)
			}
		},
	}
	if opts != nil {
		popts.Stop = opts.Stop
	}
	res := paging.Walk(ctx, m, s.counter, s.fetcher(m, id, &pageNo), popts)
	if learn && res.Incomplete == paging.Complete {
		s.forget(id)
	}
	if marks && res.Incomplete == paging.Complete {
		s.forgetPrompts(id)
	}
	info := &record.WalkInfo{ID: id, Method: m.Name, State: record.PhaseDone, Pages: len(res.Pages), Incomplete: string(res.Incomplete),
		Generation: res.Generation, Findings: res.Findings, Ms: ms(time.Since(start))}
	for _, p := range res.Pages {
		info.Items += p.Count
	}
	if res.Err != nil {
		info.Error = res.Err.Error()
	}
	gen, out := s.counter.Snapshot()
	s.log.Append(record.Event{Kind: record.KindWalk, Method: m.Name, Walk: info, Gen: gen, Out: out})
	return id, res
}

// fetcher sends one list request of walk id; *page is the number of the
// page asked for (set by the walk, on the same goroutine, just before).
func (s *Session) fetcher(m paging.Method, id int64, page *int) paging.Fetcher {
	return func(ctx context.Context, cursor string) (*paging.Answer, error) {
		s.listsSent.Add(1)
		gen, out := s.counter.Snapshot()
		// The page's number only: the request's frame holds its cursor,
		// and so does the page event that answers it.
		s.log.Append(record.Event{Kind: record.KindListRequest, Method: m.Name, Gen: gen, Out: out,
			Walk: &record.WalkInfo{ID: id, Method: m.Name, State: record.PhaseRequest}, Page: &paging.Page{Number: *page}})
		rctx, cancel := context.WithTimeout(ctx, s.timeout)
		defer cancel()
		rctx, w := withListWatcher(rctx, m.Name, m.ItemsField)
		defer s.tap.unwatch(w)
		var err error
		switch m.Name {
		case "tools/list":
			_, err = s.cs.ListTools(rctx, &mcp.ListToolsParams{Cursor: cursor})
		case "prompts/list":
			_, err = s.cs.ListPrompts(rctx, &mcp.ListPromptsParams{Cursor: cursor})
		case "resources/list":
			_, err = s.cs.ListResources(rctx, &mcp.ListResourcesParams{Cursor: cursor})
		case "resources/templates/list":
			_, err = s.cs.ListResourceTemplates(rctx, &mcp.ListResourceTemplatesParams{Cursor: cursor})
		case paging.Tasks().Name:
			err = s.listTasks(rctx, w, cursor)
		default:
			return nil, fmt.Errorf("%s is not a paginated list method", m.Name)
		}
		reqID, result, rpcErr, ok := w.answer()
		switch {
		case ok && len(rpcErr) > 0:
			// paging names the method and page; the server's text may echo a secret.
			return nil, s.redact(&AnswerError{Code: rpcErrorCode(rpcErr), Text: "the server answered with an error: " + record.RPCErrorText(rpcErr)})
		case ok && len(result) > 0:
			if err == nil {
				// The SDK was given an empty page of the same id; what it
				// would have said of the real one is checked here.
				err = sdkDecode(m.Name, result)
			}
			if err != nil && rctx.Err() == nil {
				// The answer is on the wire even if the SDK could not take it.
				// (A cancelled or timed-out request is no rejection: an abort
				// is recorded by the walk itself.)
				s.log.Append(record.Event{Kind: record.KindError, Method: m.Name, ID: reqID,
					Text: "the SDK rejected this page (" + s.redact(err).Error() + "); items were read from the raw answer"})
			}
			// The tap validated the frame the result is a slice of.
			changes, _ := w.changesBefore()
			return &paging.Answer{Result: result, RequestID: reqID, Frame: w.frameSeq(), Valid: true, Mark: changes.of(m.Name)}, nil
		case err != nil:
			return nil, s.failure(rctx, "", err)
		default:
			return nil, errors.New("the answer was not seen on the wire")
		}
	}
}

// sdkDecode decodes the raw result of list method as the SDK decodes it
// into its own result type, and returns the error the SDK would have
// returned for it: the SDK itself is handed an empty page (see
// [withListWatcher]). The SDK (v1.8.0, internal/json) decodes a result
// with segmentio/encoding's decoder, matching field names case-sensitively,
// after refusing input nested deeper than 1,000 levels; the tap has cut
// what the SDK sees to [maxFrameDepth] levels already. The SDK's filtering
// of tools afterwards drops tools (and logs them) but never fails a page.
func sdkDecode(method string, result json.RawMessage) error {
	if method == "tools/list" && sdkToolsAccepts(result) {
		// Told without the SDK's maps (see sdkdecode.go).
		return nil
	}
	var v any
	switch method {
	case "tools/list":
		v = new(mcp.ListToolsResult)
	case "prompts/list":
		v = new(mcp.ListPromptsResult)
	case "resources/list":
		v = new(mcp.ListResourcesResult)
	case "resources/templates/list":
		v = new(mcp.ListResourceTemplatesResult)
	default:
		return nil
	}
	// The SDK's Decoder.Decode reads the value into a buffer of its own
	// and parses that with these flags; the result is one valid JSON value
	// already, so it is parsed in place, with the same flags (and no copy
	// of its strings: the value is thrown away).
	if _, err := sjson.Parse(result, v, sjson.DontMatchCaseInsensitiveStructFields|sjson.DontCopyString); err != nil {
		return fmt.Errorf("calling %q: %w", method, err)
	}
	return nil
}

// learn takes the tool definitions of an accepted page.
func (s *Session) learn(walk int64, p paging.Page) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, item := range p.Items {
		var name string
		if len(p.Keys) == len(p.Items) {
			name = p.Keys[i]
		} else {
			t, _ := tooldef.Parse(item)
			name = t.Name
		}
		if name == "" {
			continue
		}
		s.tools[name] = toolDef{raw: item, gen: p.Generation, walk: walk, changes: p.Mark}
	}
}

// markPrompts notes, for each prompt of an accepted prompts/list page,
// how many notifications that the prompt list changed came before the
// page (see [Session.GetPrompt]).
func (s *Session) markPrompts(walk int64, p paging.Page) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, name := range p.Keys {
		s.promptMarks[name] = promptMark{changes: p.Mark, walk: walk}
	}
}

// forgetPrompts drops the marks of prompts a complete walk no longer
// lists, as [Session.forget] drops tools: a server that names new prompts
// on every walk does not grow them without end.
func (s *Session) forgetPrompts(walk int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	maps.DeleteFunc(s.promptMarks, func(_ string, m promptMark) bool { return m.walk < walk })
}

// forget drops tools a complete walk no longer lists.
func (s *Session) forget(walk int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	maps.DeleteFunc(s.tools, func(_ string, d toolDef) bool { return d.walk < walk })
}

// MethodNotFound is the JSON-RPC error code of a method the server does not
// offer.
const MethodNotFound = -32601

// AnswerError is a JSON-RPC error the server answered a list request with.
type AnswerError struct {
	Code int64
	Text string
}

func (e *AnswerError) Error() string { return e.Text }

// NotOffered reports whether err says the server answered "method not
// found" (-32601): it does not offer the method asked for.
func NotOffered(err error) bool {
	var ae *AnswerError
	return errors.As(err, &ae) && ae.Code == MethodNotFound
}

// rpcErrorCode is the code of a raw JSON-RPC error object, or 0.
func rpcErrorCode(raw json.RawMessage) int64 {
	var e struct {
		Code int64 `json:"code"`
	}
	_ = json.Unmarshal(raw, &e)
	return e.Code
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
