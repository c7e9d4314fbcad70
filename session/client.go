package session

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The client side of the handshake: what the client declares, and the
// handlers that answer and record the server's own requests.

// codeUserRejected is the JSON-RPC error code the specification gives a
// client for a sampling request the user rejected (client/sampling, error
// handling: "User rejected sampling request").
const codeUserRejected = -1

// newClient builds the SDK client. It declares only what the session will
// answer: roots when there are some to give, sampling and elicitation only
// with an answer for them (a server waiting on a declared capability that
// is then refused hangs).
func (s *Session) newClient(o Options) *mcp.Client {
	impl := &mcp.Implementation{Name: o.ClientName, Version: o.ClientVersion}
	caps := &mcp.ClientCapabilities{}
	if len(o.Roots) > 0 {
		//lint:ignore SA1019 servers on protocols before 2026-07-28 still ask roots/list; --root answers them
		caps.RootsV2 = &mcp.RootCapabilities{}
	}
	opts := &mcp.ClientOptions{
		Capabilities: caps,
		// No sampling or elicitation handler unless answered: either makes
		// the SDK declare that capability.
		// Handlers make the SDK subscribe to list changes on newer protocols;
		// the events themselves come from the tap.
		ToolListChangedHandler:     func(context.Context, *mcp.ToolListChangedRequest) {},
		PromptListChangedHandler:   func(context.Context, *mcp.PromptListChangedRequest) {},
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) {},
	}
	// The handlers only make the SDK declare the capability: serverRequests
	// answers first, so that a schema the SDK would refuse is a finding
	// rather than an error the server sees instead of the answer asked for.
	if o.Elicit != nil {
		opts.ElicitationHandler = func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return s.answerElicit(o.Elicit, req.Params).res, nil
		}
	}
	if o.Sampling != nil {
		//lint:ignore SA1019 servers on protocols before 2026-07-28 still ask for sampling; --sampling-reply answers them
		opts.CreateMessageHandler = func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return o.Sampling.Result, nil
		}
	}
	c := mcp.NewClient(impl, opts)
	for _, r := range o.Roots {
		uri := r
		if !strings.Contains(uri, "://") {
			uri = "file://" + uri
		}
		//lint:ignore SA1019 servers on protocols before 2026-07-28 still ask roots/list; --root answers them
		c.AddRoots(&mcp.Root{URI: uri})
	}
	c.AddReceivingMiddleware(s.serverRequests)
	c.AddSendingMiddleware(noListCache)
	return c
}

// serverRequests answers and records the server's own requests: roots/list
// with the roots given, sampling and elicitation with the answers given
// (see [Session.answered]) or, without one, sampling as a user rejection (no
// model is attached) and elicitation as not supported.
func (s *Session) serverRequests(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if res, ok := s.answered(method, req); ok {
			return res, nil
		}
		var res mcp.Result
		var err error
		if method == "sampling/createMessage" {
			err = &jsonrpc.Error{Code: codeUserRejected,
				Message: "User rejected sampling request: mcpwitness has no model attached and did not declare sampling"}
		} else {
			res, err = next(ctx, method, req)
		}
		switch method {
		case "roots/list", "sampling/createMessage", "elicitation/create":
			ev := Event{Kind: KindServerCall, Method: method}
			if p := req.GetParams(); p != nil {
				ev.Data, _ = json.Marshal(p)
			}
			switch {
			case method == "elicitation/create":
				ev.Text = "declined: mcpwitness did not declare elicitation and does not answer it"
			case err != nil:
				ev.Text = "declined: " + err.Error()
			case method == "roots/list":
				ev.Text = rootsAnswered(res)
			}
			s.log.Append(ev)
		}
		return res, err
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
