// Package demo is the embedded demo server: a Model Context Protocol server
// built on the official Go SDK whose tools, resources, prompts and
// notifications exercise every check the inspector makes.
//
// Its tool list is paged (10 per page by default) and holds tools whose
// answers are valid, invalid or missing structured content, a tool whose
// output schema holds a $ref that does not resolve, an error tool, a slow
// tool with progress and cancellation, tools that require or allow
// task-based execution, a tool that adds and removes tools, and a tool that
// sends log messages. The rest are small working utilities.
package demo

//lint:file-ignore SA1019 logging is deprecated as of protocol 2026-07-28 (SEP-2577), but still in use, and showing it is part of the demo.

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Name is the server name the demo server reports in its implementation info.
const Name = "mcpwitness-demo"

// Version is the version the demo server reports in its implementation info.
const Version = "1.0.0"

// DefaultPageSize is the list page size used when [Options.PageSize] is 0.
const DefaultPageSize = 10

// Options tune the demo server. nil means defaults.
//
// Whatever TTLMs says, the SDK writes "ttlMs" (and "cacheScope") on every list
// answer, on every protocol version: "none" means "ttlMs": 0.
type Options struct {
	PageSize int // list page size; 0 means 10
	Filler   int // extra generated filler tools (for benchmarks): "filler_00001"... ; 0 means none
	TTLMs    int // ttlMs to advertise on list pages (cache hint); 0 means none; -1 too
	// Auth puts the HTTP endpoint behind OAuth, with a small authorization
	// server on the same address (see [AuthHandler]).
	Auth bool
	// Tasks declares the tasks capability. The SDK has no tasks support:
	// a connection wrapped by [Tasks] answers the task methods, so set it
	// only with that (ServeStdio and Handler set it and wrap).
	Tasks bool
	// TaskStep, when set, is called by a task's work (render_video,
	// transcribe_audio; on [Handler] and [TasksWith]) after each working
	// status it sets,
	// before the work goes on: a test holds the status there until it has
	// seen it, whatever the machine's speed.
	TaskStep func(ctx context.Context, message string)
}

const instructions = `mcpwitness demo server. Every check the inspector makes has a tool here:
add and weather answer with valid structured content, forecast_broken with invalid
structured content, summary_no_structured with none at all, unresolved_ref with an
output schema that cannot be checked, fail_always with isError. render_video requires
task-based execution; transcribe_audio allows it. slow_count reports progress and
stops when cancelled, toggle_tools adds and removes tools (list_changed), log_burst
sends log messages at every level. The rest are small working utilities.
Resources come in pages too; demo://clock changes every second while subscribed,
demo://broken/contents answers a read against the rules, and prompt arguments and
template variables complete.`

// state is the mutable state of one demo server. Each [New] makes its own.
type state struct {
	started time.Time

	mu     sync.Mutex
	extras bool   // whether toggle_tools has added the extra tools
	notes  []note // the notepad behind note_add, note_list and notes_clear
	clock  clock  // demo://clock's subscribers and ticks
	// tasks says the task methods are answered (see [Options.Tasks]).
	tasks bool
}

// New returns a new demo server. Each call returns an independent server (no
// package-level mutable state).
func New(opts *Options) *mcp.Server {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.PageSize <= 0 {
		o.PageSize = DefaultPageSize
	}
	st := &state{started: time.Now(), tasks: o.Tasks}
	var s *mcp.Server

	so := &mcp.ServerOptions{
		Instructions: instructions,
		PageSize:     o.PageSize,
		// Logging is enabled explicitly: Capabilities replaces the SDK's
		// default, and list_changed is inferred for tools, prompts and
		// resources once they are added.
		Capabilities: &mcp.ServerCapabilities{Logging: &mcp.LoggingCapabilities{}},
		// Completions and subscriptions are declared because these are set.
		CompletionHandler:  complete,
		SubscribeHandler:   st.subscribe(func() *mcp.Server { return s }),
		UnsubscribeHandler: st.unsubscribe,
	}
	if o.TTLMs > 0 {
		ttl := o.TTLMs
		so.SetCacheable = func(_ context.Context, req mcp.Request, c *mcp.Cacheable) {
			switch req.(type) {
			case *mcp.ListToolsRequest, *mcp.ListPromptsRequest,
				*mcp.ListResourcesRequest, *mcp.ListResourceTemplatesRequest:
				c.TTLMs = ttl
			}
		}
	}
	s = mcp.NewServer(&mcp.Implementation{
		Name:    Name,
		Title:   "mcpwitness demo server",
		Version: Version,
	}, so)
	s.AddReceivingMiddleware(st.middleware)

	addShowcaseTools(s, st)
	addAskers(s)
	addBrokenTools(s)
	addTextTools(s)
	addDataTools(s)
	addMathTools(s)
	addTimeTools(s)
	addNoteTools(s, st)
	addFillerTools(s, o.Filler)
	addResources(s, st)
	addCatalog(s, st)
	addPrompts(s)
	return s
}

// middleware adjusts what the SDK does on the way in and out:
//   - tools/list answers carry each tool's "execution" (the SDK's Tool has no
//     such field);
//   - a session on a handshake protocol starts at log level "debug". The SDK
//     sends no log message until the client calls logging/setLevel (the
//     TypeScript SDK sends all of them), so without this log_burst would
//     show nothing to a client that never sets a level. A later
//     logging/setLevel from the client still applies.
func (st *state) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil {
			return res, err
		}
		switch method {
		case "initialize":
			if ir, ok := res.(*mcp.InitializeResult); ok && ir != nil && st.tasks {
				return withTasksCapability(ir), nil
			}
		case "server/discover":
			if dr, ok := res.(*mcp.DiscoverResult); ok && dr != nil && st.tasks {
				return discoveredWithTasks(dr), nil
			}
		case "tools/list":
			if lt, ok := res.(*mcp.ListToolsResult); ok && lt != nil {
				return withExecution(lt), nil
			}
		case "notifications/initialized":
			if ss, ok := req.GetSession().(*mcp.ServerSession); ok {
				setLevel := &mcp.ServerRequest[*mcp.SetLoggingLevelParams]{
					Session: ss,
					Params:  &mcp.SetLoggingLevelParams{Level: "debug"},
				}
				if _, err := next(ctx, "logging/setLevel", setLevel); err != nil {
					return nil, fmt.Errorf("setting the default log level: %w", err)
				}
			}
		}
		return res, nil
	}
}
