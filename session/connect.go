package session

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mcpwitness/checks"
	"mcpwitness/paging"
	"mcpwitness/record"
	"mcpwitness/session/oauth"
)

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
		c, err := startChild(t, s.tap, s.log, s.limit, s.opts.pace.stopStep())
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
			rt = &retryTripper{next: rt, log: s.log, secrets: s.secrets, backoff: s.opts.pace.retryBackoff(), now: time.Now}
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
