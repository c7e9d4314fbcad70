package session

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"mcpwitness/record"
)

// LostSessionError says that the server answered HTTP 404 to a request
// carrying an Mcp-Session-Id it had given: it lost that session, and no
// request on it can succeed. A new session (a new initialize, see
// [Session.Restart]) is the way on.
type LostSessionError struct {
	// What failed ("" for a walk, whose result names its list).
	What string
	// SessionID is the Mcp-Session-Id the server lost.
	SessionID string
	err       error
}

func (e *LostSessionError) Error() string {
	text := fmt.Sprintf("the server lost HTTP session %s (it answered 404 Not Found to a request carrying that Mcp-Session-Id); "+
		"a new session needs a new initialize: restart (R in the TUI) or run the command again", ShortSessionID(e.SessionID))
	if e.What == "" {
		return text
	}
	return e.What + ": " + text
}

// Unwrap returns the SDK's error (one wrapping [mcp.ErrSessionMissing]).
func (e *LostSessionError) Unwrap() error { return e.err }

// ShortSessionID is an Mcp-Session-Id as status lines and the wire pane
// show it: its first 8 characters, and "…" when there are more.
func ShortSessionID(id string) string {
	r := []rune(id)
	if len(r) <= 8 {
		return id
	}
	return string(r[:8]) + "…"
}

// Lost returns the HTTP session id the server lost, or "" while it has
// lost none (see [LostSessionError]).
func (s *Session) Lost() string {
	if p := s.lost.Load(); p != nil {
		return *p
	}
	return ""
}

// noteLost is told by the HTTP tap of a 404 answer to req, which carried
// the session id id. The first time, an http event says the session was
// lost.
func (s *Session) noteLost(req *http.Request, id, url string) {
	if !s.lost.CompareAndSwap(nil, &id) {
		return
	}
	s.log.Append(record.Event{Kind: record.KindHTTP, HTTP: &record.HTTPInfo{Step: record.HTTPLost, Method: req.Method, URL: url, Status: http.StatusNotFound, SessionID: id},
		Text: fmt.Sprintf("the server lost HTTP session %s: it answered %s %s with 404 Not Found; a new session needs a restart",
			ShortSessionID(id), req.Method, req.URL.Path)})
}

// lostError is the error of a request that failed because the server lost
// the HTTP session, or nil when that is not why err happened.
func (s *Session) lostError(what string, err error) error {
	id := s.Lost()
	if err == nil || id == "" && !errors.Is(err, mcp.ErrSessionMissing) {
		return nil
	}
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return s.redact(&LostSessionError{What: what, SessionID: id, err: err})
}

// Restart ends s's connection and connects to the same server again, as
// [Dial] did: a new process for a stdio server, a new session (a new
// initialize) on HTTP. The session it returns continues s's record: the
// same log (a restart event, then the new connect event), the same
// generation counter, the tool definitions listed so far and the
// numbering of walks and calls. s is closed without a closed event (the
// restart event says it), and closing s closes the new session too. A
// server connected in some other way (in-memory) cannot be restarted.
//
// When the new connection fails, the error says why, a closed event
// records it, and s may be restarted again.
func (s *Session) Restart(ctx context.Context) (*Session, error) {
	if s.target.Transport != nil {
		return nil, errors.New("this server was connected in-process, not by a command or a URL: it cannot be restarted")
	}
	s.mu.Lock()
	if next := s.next; next != nil {
		s.mu.Unlock()
		return next.Restart(ctx)
	}
	wasClosed := s.closed
	s.closed = true
	tools, level := maps.Clone(s.tools), s.level
	s.mu.Unlock()

	gen, _ := s.counter.Snapshot()
	info := &record.RestartInfo{Transport: s.info.Transport, Generation: gen, LostSession: s.Lost()}
	text := "restarting " + s.info.Target
	switch {
	case info.LostSession != "":
		text += " in a new HTTP session: the server lost HTTP session " + ShortSessionID(info.LostSession)
	case s.child != nil:
		text += " as a new process"
	case info.Transport == "http":
		text += " in a new HTTP session"
	}
	s.log.Append(record.Event{Kind: record.KindRestart, Restart: info, Text: text})
	if !wasClosed {
		_ = s.end()
	}

	n := newSession(s.target, s.opts)
	n.counter, n.validator = s.counter, s.validator
	n.tools, n.level = tools, level
	n.walks.Store(s.walks.Load())
	n.calls.Store(s.calls.Load())
	n.requests.Store(s.requests.Load())
	n.listsSent.Store(s.listsSent.Load())
	if err := n.connect(ctx); err != nil {
		s.log.Append(record.Event{Kind: record.KindClosed, Text: "restart failed: " + err.Error()})
		return nil, err
	}
	s.mu.Lock()
	s.next = n
	s.mu.Unlock()
	return n, nil
}
