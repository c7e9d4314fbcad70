// Package session is one live connection to an MCP server: it dials
// (stdio child, Streamable HTTP, legacy SSE or in-memory), taps every frame
// on the wire, answers the server's own requests safely, walks the
// paginated lists and calls tools with their checks. Everything it sees
// becomes a [record.Event] in a [record.Log]; package record keeps, writes,
// reads and masks those events.
package session

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
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

// Dial connects to target and completes the handshake within the timeout.
// A failure names what happened; for a stdio server it quotes the last lines
// of the server's stderr.
func Dial(ctx context.Context, target Target, opts *Options) (*Session, error) {
	o, err := dialOptions(target, opts)
	if err != nil {
		return nil, err
	}
	s := newSession(target, o)
	if err := s.connect(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

// connect makes the session's transport and completes the handshake
// within the timeout; a failure is logged and stops what was started.
func (s *Session) connect(ctx context.Context) error {
	transport, err := s.transport(s.target)
	if err != nil {
		return s.redact(err)
	}
	dctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	cs, err := s.client.Connect(dctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: s.opts.Protocol})
	if err != nil {
		err = s.dialError(dctx, err)
		s.log.Append(record.Event{Kind: record.KindError, Text: err.Error()})
		s.shutdown()
		return err
	}
	s.cs = cs
	res := cs.InitializeResult()
	s.keepServerInfo(res)
	info := s.info
	s.log.Append(record.Event{Kind: record.KindConnect, Server: &info})
	if s.child == nil {
		go s.watchEnd(cs)
	}
	s.askForLogs(res)
	return nil
}

// watchEnd records why the connection ended when it ends on its own: the
// SDK gives up a Streamable HTTP session whose server went away (its
// standalone stream cannot reconnect), a legacy SSE stream closes. Without
// it the screen would go on as if connected while every request failed
// with "client is closing". A stdio child's exit is said by its own
// watcher, an end that Close or Restart asked for by them, and a session
// the server lost (404) by its lost event.
func (s *Session) watchEnd(cs *mcp.ClientSession) {
	err := cs.Wait()
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed || s.Lost() != "" {
		return
	}
	why := "connection ended: the server closed it"
	if err != nil {
		why = "connection ended: " + s.redact(err).Error()
	}
	s.log.Append(record.Event{Kind: record.KindClosed, Text: why})
}

// dialOptions checks target and opts (nil means defaults) and returns the
// options with their defaults filled in.
func dialOptions(target Target, opts *Options) (Options, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if err := target.Validate(); err != nil {
		return o, err
	}
	if o.Protocol != "" && !slices.Contains(mcp.SupportedProtocolVersions(), o.Protocol) {
		return o, fmt.Errorf("unknown protocol version %q; supported: %s", o.Protocol, strings.Join(mcp.SupportedProtocolVersions(), ", "))
	}
	if o.Log == nil {
		o.Log = record.NewLog(nil)
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.ClientName == "" {
		o.ClientName = "mcpwitness"
	}
	if o.ClientVersion == "" {
		o.ClientVersion = "dev"
	}
	return o, nil
}

// newSession returns a session for target, not yet connected, with its
// tap and client made from o.
func newSession(target Target, o Options) *Session {
	s := &Session{
		target:      target,
		log:         o.Log,
		timeout:     o.Timeout,
		max:         o.MaxPages,
		counter:     paging.NewCounter(),
		validator:   checks.NewValidator(),
		tools:       map[string]toolDef{},
		promptMarks: map[string]promptMark{},
		tokens:      map[string]int64{},
		limit:       newFrameLimit(o.MaxFrame, o.Log),
		secrets:     o.Secrets,
		opts:        o,
	}
	if s.secrets == nil {
		s.secrets = record.NewRedactor(target.DigestKey)
	}
	s.secrets.Merge(target.Secrets())
	s.log.MaskWith(s.secrets)
	s.tap = newTap(s.log)
	s.tap.progress = s.progressCall
	s.info.Target = target.Describe().String()
	if target.Identity != nil {
		s.info.ConfigHash = target.Identity.Hash
	}
	s.answerer = o.Answerer
	if s.answerer == nil {
		s.answerer = flagAnswerer{elicit: o.Elicit, sampling: o.Sampling, s: s}
	}
	for _, r := range o.Roots {
		s.roots = append(s.roots, rootURI(r))
	}
	s.life, s.endLife = context.WithCancel(context.Background())
	s.client = s.newClient(o)
	s.client.AddSendingMiddleware(declareTasks)
	return s
}

// keepServerInfo keeps what the handshake's result res (nil if none) told
// about the server.
func (s *Session) keepServerInfo(res *mcp.InitializeResult) {
	if res == nil {
		return
	}
	if res.ServerInfo != nil {
		s.info.Name, s.info.Version = res.ServerInfo.Name, res.ServerInfo.Version
	}
	s.info.ProtocolVersion = res.ProtocolVersion
	s.info.AskedProtocol = ""
	if s.opts.Protocol != "" && s.opts.Protocol != res.ProtocolVersion {
		s.info.AskedProtocol = s.opts.Protocol
	}
	s.info.Instructions = res.Instructions
	if raw := s.tap.initialized(); raw != nil {
		// As the server wrote them: the SDK's struct drops tasks and
		// whatever else it does not know.
		s.info.Capabilities = raw
	} else if res.Capabilities != nil {
		s.info.Capabilities, _ = json.Marshal(res.Capabilities)
	}
}

func (s *Session) transport(t Target) (mcp.Transport, error) {
	switch {
	case len(t.Command) > 0:
		s.info.Transport = "stdio"
		c, err := startChild(t, s.tap, s.log, s.limit)
		if err != nil {
			return nil, err
		}
		s.child = c
		return &tapTransport{inner: c.transport(), tap: s.tap}, nil
	case t.URL != "":
		headers := http.Header{}
		for _, h := range t.Headers {
			name, value, _ := strings.Cut(h, ":")
			headers.Add(strings.TrimSpace(name), strings.TrimSpace(value))
		}
		own, err := url.Parse(t.URL)
		if err != nil {
			return nil, fmt.Errorf("bad --url %q: %w", t.URL, err)
		}
		base := http.DefaultTransport.(*http.Transport).Clone()
		base.DialContext = newNetGuard(own, base.Proxy, s.opts.internal).DialContext
		s.httpBase = base
		oa, err := oauth.New(t.oauthConfig(), s.log, s.secrets, base)
		if err != nil {
			return nil, err
		}
		s.oauth = oa
		var rt http.RoundTripper = &httpTap{base: base, tap: s.tap, headers: headers, origin: own, legacy: t.SSE, limit: s.limit,
			secrets: s.secrets, challenge: oa == nil || t.SSE, headerCmd: t.HeaderCmd, headerLimit: cmp.Or(s.opts.headerCmdLimit, headerCmdTimeout), lost: s.noteLost}
		if !t.NoRetry {
			rt = &retryTripper{next: rt, log: s.log, secrets: s.secrets, backoff: retryBackoff, now: time.Now}
		}
		hc := &http.Client{Transport: rt}
		// The tap caps each body and event first (naming --max-frame), so
		// the SDK's own caps are off.
		if t.SSE {
			s.info.Transport = "sse"
			life, end := context.WithCancel(context.Background())
			s.endStream = end
			sse := &mcp.SSEClientTransport{Endpoint: t.URL, HTTPClient: hc, MaxEventSize: -1}
			return &streamTransport{inner: sse, life: life}, nil
		}
		s.info.Transport = "http"
		s.httpClient, s.endpoint = hc, t.URL
		st := &mcp.StreamableClientTransport{Endpoint: t.URL, HTTPClient: hc, MaxRetries: 1, MaxEventSize: -1}
		if oa != nil {
			st.OAuthHandler = oa
		}
		return st, nil
	default:
		s.info.Transport = "in-memory"
		return &tapTransport{inner: t.Transport, tap: s.tap, record: true}, nil
	}
}

// dialError explains a failed handshake in the user's terms, the cause
// first and what became of a stdio server second.
func (s *Session) dialError(ctx context.Context, err error) error {
	what := "connecting to " + s.info.Target
	if lost := s.lostError(what, err); lost != nil {
		return lost
	}
	var ce *oauth.ChallengeError
	if errors.As(err, &ce) {
		return s.redact(&sessionError{what: what, text: ce.Error(), err: err})
	}
	if ce := s.oauth.Failure(); ce != nil {
		return s.redact(&sessionError{what: what, text: ce.Error(), err: errors.Join(ce, err)})
	}
	if s.timedOut(ctx) {
		msg := fmt.Sprintf("no answer to the handshake within %s", s.timeout)
		if s.child != nil {
			if noise := s.NotJSONRPC().Text("line"); noise != "" {
				msg += "; instead the server wrote " + noise + " to stdout; a stdio server writes only JSON-RPC there, logs go to stderr"
			} else {
				msg += "; the server stayed silent on stdout (is it an MCP server speaking stdio?)"
			}
			if end := s.child.describeEnd(); end != "" {
				msg += "; " + afterwards(end)
			}
		}
		return s.redact(&sessionError{what: what, text: msg, err: err})
	}
	return s.redact(s.cause(ctx, what, err))
}

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
			wait = stopStep
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
