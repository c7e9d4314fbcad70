// Package session is one live connection to an MCP server: it dials
// (stdio child, Streamable HTTP, legacy SSE or in-memory), taps every frame
// on the wire, answers the server's own requests safely, walks the
// paginated lists and calls tools with their checks. Everything it sees
// becomes a [record.Event] in a [record.Log]; package record keeps, writes,
// reads and masks those events.
package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mcpwitness/checks"
	"mcpwitness/paging"
	"mcpwitness/record"
	"mcpwitness/session/oauth"
)

// DefaultTimeout bounds connecting, the handshake and each request.
const DefaultTimeout = 30 * time.Second

// Options tune a [Session]. nil means defaults.
type Options struct {
	// Log receives the session's events; nil makes a new one without history.
	Log *record.Log
	// Timeout bounds connecting, the handshake and each request; 0 means 30s.
	Timeout time.Duration
	// Protocol is the protocol version to ask for; "" means the newest.
	Protocol string
	// Roots are the file URIs (or paths) answered to roots/list.
	Roots []string
	// Elicit answers elicitation/create; nil declines it, undeclared.
	Elicit *ElicitAnswer
	// Sampling answers sampling/createMessage; nil rejects it, undeclared.
	Sampling *SamplingReply
	// Answerer, when set, answers sampling and elicitation in place of
	// Elicit and Sampling, and declares what it answers (see
	// [Interactive] for a person).
	Answerer Answerer
	// EditRoots declares roots (with listChanged) even with none given:
	// someone may add some later with [Session.SetRoots].
	EditRoots bool
	// MaxPages bounds each walk; 0 means 100.
	MaxPages int
	// MaxFrame bounds one frame from the server: a stdio line, an HTTP
	// body or a server-sent event. 0 means [DefaultMaxFrame]. A larger frame
	// ends the connection with a [*FrameTooLargeError].
	MaxFrame int64
	// ClientName and ClientVersion identify us in the handshake.
	ClientName, ClientVersion string

	// internal replaces the policy of which addresses are the user's own
	// network (see [netGuard]), in tests.
	internal func(netip.AddrPort) bool
	// headerCmdLimit replaces --header-cmd's bound ([headerCmdTimeout]),
	// in tests.
	headerCmdLimit time.Duration
	// pace replaces the waits a session makes by the clock, in tests.
	pace pace

	// Secrets is the registry the target's secrets and every credential
	// the session obtains (OAuth tokens, client assertions, vended header
	// values) are added to, shared with the caller's sinks; nil makes one
	// from the target. The session's log is masked with it.
	Secrets *record.Redactor
}

// Session is one live connection to an MCP server.
type Session struct {
	target Target
	info   record.ServerInfo
	log    *record.Log
	tap    *tap
	client *mcp.Client
	cs     *mcp.ClientSession
	child  *child
	// httpBase is the session's own HTTP transport, so closing the session
	// closes its connections.
	httpBase *http.Transport
	// httpClient and endpoint post the session's own requests (the task
	// methods) on Streamable HTTP; nil on other transports.
	httpClient *http.Client
	endpoint   string
	ownIDs     atomic.Int64
	// limit caps each frame and remembers when the cap ended the connection.
	limit *frameLimit
	// secrets redact every error the session returns or logs.
	secrets *record.Redactor
	// oauth answers a 401 on Streamable HTTP (nil when off).
	oauth *oauth.Handler
	// endStream ends a legacy SSE stream, which lives as long as the session.
	endStream context.CancelFunc
	timeout   time.Duration
	// answerer answers the server's sampling and elicitation requests;
	// asks numbers them; roots are the URIs answered to roots/list.
	answerer Answerer
	asks     asks
	roots    []string
	// life ends when the session closes, releasing requests that wait on
	// an answer.
	life    context.Context
	endLife context.CancelFunc
	// debugSet is closed when the logging/setLevel that connect did not
	// wait for has ended (see [Session.askForLogs]); nil when there is
	// none. shutdown waits for it once the connection is closed.
	debugSet <-chan struct{}
	max      int

	counter   *paging.Counter
	validator *checks.Validator
	walks     atomic.Int64
	calls     atomic.Int64
	requests  atomic.Int64
	listsSent atomic.Int64

	mu    sync.Mutex
	tools map[string]toolDef
	// promptMarks say, of each prompt, how many notifications that the
	// prompt list changed were read before the page that last listed it
	// (see [tap.promptsChanged]).
	promptMarks map[string]promptMark
	tokens      map[string]int64 // progress token → call id
	closed      bool
	// level is the log level calls ask for in their _meta on protocols
	// from 2026-07-28 ("" is debug); see [Session.SetLogLevel].
	level string
	// opts are the options the session was made with, for a restart;
	// next is the session a restart made, which Close closes too.
	opts Options
	next *Session
	// lost is the HTTP session id the server answered 404 to ("" if none).
	lost atomic.Pointer[string]
}

type toolDef struct {
	raw  json.RawMessage
	gen  int64
	walk int64
	// changes counts the notifications that the tool list changed read
	// before the page that listed it (see [tap.toolsChanged]).
	changes int64
}

// promptMark is what a prompts walk notes of one prompt: the count of
// prompt list changes before its page, and the walk.
type promptMark struct{ changes, walk int64 }

// SupportedProtocols lists the protocol versions a session can ask for.
func SupportedProtocols() []string { return mcp.SupportedProtocolVersions() }

// Info returns what the handshake told about the server.
func (s *Session) Info() record.ServerInfo { return s.info }

// Log returns the session's event log.
func (s *Session) Log() *record.Log { return s.log }

// Generation returns the list generation counter: the latest settled
// generation and how many list requests are out.
func (s *Session) Generation() (gen int64, out int) { return s.counter.Snapshot() }

// Counter returns the session's generation counter.
func (s *Session) Counter() *paging.Counter { return s.counter }

// Tool returns the latest listed definition of the named tool and the
// generation it came in.
func (s *Session) Tool(name string) (def json.RawMessage, gen int64, ok bool) {
	d, ok := s.toolDef(name)
	return d.raw, d.gen, ok
}

// toolDef returns what the session holds of the named tool's latest
// listing.
func (s *Session) toolDef(name string) (toolDef, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.tools[name]
	return d, ok
}

// Close ends the session within about a second, whatever the server
// does: the SDK session closes and a stdio child is stopped (stdin closed,
// then SIGTERM, then SIGKILL). The log is not closed. After a
// [Session.Restart] it closes the session the restart made.
func (s *Session) Close() error {
	s.mu.Lock()
	if s.closed {
		next := s.next
		s.mu.Unlock()
		if next != nil {
			// Restarted: the session that continues the record ends.
			return next.Close()
		}
		return nil
	}
	s.closed = true
	s.mu.Unlock()
	err := s.end()
	s.log.Append(record.Event{Kind: record.KindClosed, Text: "session closed"})
	return err
}

// end closes the SDK session and stops the server's connection (see
// [Session.Close]) without saying so in the log.
func (s *Session) end() error {
	var err error
	if s.cs != nil {
		// A stdio child is stopped below whatever the SDK does; an HTTP
		// session's DELETE gets a little longer.
		wait := time.Second
		if s.child != nil {
			wait = s.opts.pace.stopStep()
		}
		done := make(chan error, 1)
		go func() { done <- s.cs.Close() }()
		timer := time.NewTimer(wait)
		select {
		case err = <-done:
		case <-timer.C:
			err = errors.New("closing the session took too long; stopping the server")
		}
		timer.Stop()
	}
	s.shutdown()
	if err != nil && s.child != nil {
		// A stdio server that exits when we close stdin is not an error.
		err = nil
	}
	if err != nil {
		err = s.redact(err)
	}
	return err
}

func (s *Session) shutdown() {
	s.endLife()
	if s.endStream != nil {
		s.endStream()
	}
	if s.httpBase != nil {
		s.httpBase.CloseIdleConnections()
	}
	s.oauth.Close()
	if s.child != nil {
		s.child.stop()
	}
	if s.debugSet != nil {
		<-s.debugSet
	}
}

// failure explains a request that failed, adding what became of a stdio
// server.
func (s *Session) failure(ctx context.Context, what string, err error) error {
	if lost := s.lostError(what, err); lost != nil {
		return lost
	}
	if s.timedOut(ctx) {
		return s.redact(&sessionError{what: what, text: fmt.Sprintf("no answer within %s; the request was cancelled", s.timeout), err: err})
	}
	return s.redact(s.cause(ctx, what, err))
}

func (s *Session) progressCall(token string) (int64, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id, ok := s.tokens[token]
	return id, ok
}
