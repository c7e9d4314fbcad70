package session

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"mcpwitness/record"
)

// The client side of the handshake: what the client declares, and the
// handlers that answer and record the server's own requests.

// codeUserRejected is the JSON-RPC error code the specification gives a
// client for a sampling request the user rejected (client/sampling, error
// handling: "User rejected sampling request").
const codeUserRejected = -1

// newClient builds the SDK client. It declares only what the session will
// answer: roots when there are some to give (or a person to edit them),
// sampling and elicitation as the answerer declares (a server waiting on a
// declared capability that is then refused hangs).
func (s *Session) newClient(o Options) *mcp.Client {
	impl := &mcp.Implementation{Name: o.ClientName, Version: o.ClientVersion}
	caps := &mcp.ClientCapabilities{}
	if len(o.Roots) > 0 || o.EditRoots {
		//lint:ignore SA1019 servers on protocols before 2026-07-28 still ask roots/list; --root answers them
		caps.RootsV2 = &mcp.RootCapabilities{ListChanged: o.EditRoots}
	}
	decl := s.answerer.Declares()
	if decl.Sampling {
		// Declared without tools: a person answers with text.
		//lint:ignore SA1019 servers on protocols before 2026-07-28 still ask for sampling
		caps.Sampling = &mcp.SamplingCapabilities{}
	}
	if decl.ElicitForm || decl.ElicitURL {
		caps.Elicitation = &mcp.ElicitationCapabilities{}
		if decl.ElicitForm {
			caps.Elicitation.Form = &mcp.FormElicitationCapabilities{}
		}
		if decl.ElicitURL {
			caps.Elicitation.URL = &mcp.URLElicitationCapabilities{}
		}
	}
	opts := &mcp.ClientOptions{
		Capabilities: caps,
		// Input requests in a result are answered by roundTrips, which
		// records each round trip and reads the call's last answer.
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
		// Handlers make the SDK subscribe to list changes on newer protocols;
		// the events themselves come from the tap. There is no logging or
		// progress handler: the tap keeps those notifications from the SDK
		// (see [sdkIgnores]).
		ToolListChangedHandler:     func(context.Context, *mcp.ToolListChangedRequest) {},
		PromptListChangedHandler:   func(context.Context, *mcp.PromptListChangedRequest) {},
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) {},
	}
	// A request on the wire is answered by serverRequests before the SDK
	// sees it, so that a schema the SDK would refuse is a finding rather
	// than an error the server sees instead of the answer asked for; the
	// input requests of a result, by roundTrips. The handlers make the SDK
	// declare the capabilities, and answer by the same path if called.
	if decl.ElicitForm || decl.ElicitURL {
		opts.ElicitationHandler = func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			raw, _ := json.Marshal(req.Params)
			res, err := s.answerAsk(ctx, MethodElicit, raw, true)
			if err != nil {
				return nil, err
			}
			return res.(*mcp.ElicitResult), nil
		}
	}
	if decl.Sampling {
		//lint:ignore SA1019 servers on protocols before 2026-07-28 still ask for sampling
		opts.CreateMessageWithToolsHandler = func(ctx context.Context, req *mcp.CreateMessageWithToolsRequest) (*mcp.CreateMessageWithToolsResult, error) {
			raw, _ := json.Marshal(req.Params)
			res, err := s.answerAsk(ctx, MethodSampling, raw, true)
			if err != nil {
				return nil, err
			}
			return withTools(res)
		}
	}
	c := mcp.NewClient(impl, opts)
	for _, r := range o.Roots {
		//lint:ignore SA1019 servers on protocols before 2026-07-28 still ask roots/list; --root answers them
		c.AddRoots(&mcp.Root{URI: rootURI(r)})
	}
	c.AddReceivingMiddleware(s.serverRequests)
	c.AddSendingMiddleware(noListCache, s.roundTrips)
	return c
}

// serverRequests answers and records the server's own requests: roots/list
// with the roots given, sampling and elicitation through
// [Session.answerAsk].
func (s *Session) serverRequests(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case MethodSampling, MethodElicit:
			var raw json.RawMessage
			if p := req.GetParams(); p != nil {
				raw, _ = json.Marshal(p)
			}
			return s.answerAsk(ctx, method, raw, false)
		case MethodListRoots:
			res, err := next(ctx, method, req)
			ev := record.Event{Kind: record.KindServerCall, Method: method}
			if p := req.GetParams(); p != nil {
				ev.Data, _ = json.Marshal(p)
			}
			if err != nil {
				ev.Text = "declined: " + err.Error()
			} else {
				ev.Text = rootsAnswered(res)
			}
			if len(s.opts.Roots) == 0 && !s.opts.EditRoots {
				// Asked for what the client did not declare.
				ev.Level, ev.Text = LevelFinding, ev.Text+"; roots were not declared"
			}
			s.log.Append(ev)
			return res, err
		}
		return next(ctx, method, req)
	}
}

// rootsAnswered says what a roots/list answer held.
func rootsAnswered(res mcp.Result) string {
	//lint:ignore SA1019 servers on protocols before 2026-07-28 still ask roots/list; --root answers them
	r, ok := res.(*mcp.ListRootsResult)
	switch {
	case !ok || len(r.Roots) == 0:
		return "answered with no roots"
	case len(r.Roots) == 1:
		return "answered with 1 root"
	default:
		return fmt.Sprintf("answered with %d roots", len(r.Roots))
	}
}

// noListCache keeps the SDK's list cache from ever answering: a refresh must
// reach the wire. The page's ttlMs was recorded from the raw answer already.
func noListCache(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		switch r := res.(type) {
		case *mcp.ListToolsResult:
			r.TTLMs = 0
		case *mcp.ListPromptsResult:
			r.TTLMs = 0
		case *mcp.ListResourcesResult:
			r.TTLMs = 0
		case *mcp.ListResourceTemplatesResult:
			r.TTLMs = 0
		}
		return res, err
	}
}
