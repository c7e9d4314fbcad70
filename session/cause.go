package session

import (
	"context"
	"errors"
	"fmt"
	"net"
	"regexp"
	"strings"
	"sync"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sessionError is an error the session returns: what failed and why, in
// the user's terms, with the SDK's error kept for errors.Is and errors.As.
type sessionError struct {
	what string // what failed, "" where the caller names it
	text string
	err  error
}

func (e *sessionError) Error() string {
	if e.what == "" {
		return e.text
	}
	return e.what + ": " + e.text
}
func (e *sessionError) Unwrap() error { return e.err }

// redactedError is err with every secret of the target replaced in its text.
type redactedError struct {
	text string
	err  error
}

func (e *redactedError) Error() string { return e.text }
func (e *redactedError) Unwrap() error { return e.err }

// redact returns err with the target's secrets replaced in its text, as
// the record has them; nil stays nil.
func (s *Session) redact(err error) error {
	if err == nil {
		return nil
	}
	text := s.secrets.String(err.Error())
	if text == err.Error() {
		return err
	}
	return &redactedError{text: text, err: err}
}

// cause explains why what failed, the cause first: a frame over the limit,
// a cancellation, the server quitting on its own, or the SDK's error in the
// user's terms; then, for a stdio server that ended after we closed its
// stdin, how it ended.
func (s *Session) cause(ctx context.Context, what string, err error) error {
	if lim := s.limit.cause(); lim != nil {
		text := lim.Error()
		if s.child != nil {
			if end := s.child.describeEnd(); end != "" {
				text += "; " + afterwards(end)
			}
		}
		return &sessionError{what: what, text: text, err: lim}
	}
	if errors.Is(ctx.Err(), context.Canceled) {
		return &sessionError{what: what, text: "cancelled", err: err}
	}
	if s.child != nil {
		end := s.child.describeEnd()
		text := explain(err)
		if bad := s.child.invalidFrame(); bad != "" {
			text = bad + "; the connection was closed"
		} else if s.child.quitOnItsOwn() && end != "" {
			return &sessionError{what: what, text: end, err: err}
		}
		if end != "" {
			text += "; " + afterwards(end)
		}
		return &sessionError{what: what, text: text, err: err}
	}
	return &sessionError{what: what, text: explain(err), err: err}
}

// timedOut reports whether ctx expired with nothing else to blame: no
// frame over the limit, no stdio server that quit on its own.
func (s *Session) timedOut(ctx context.Context) bool {
	if !errors.Is(ctx.Err(), context.DeadlineExceeded) || s.limit.cause() != nil {
		return false
	}
	return s.child == nil || !s.child.quitOnItsOwn()
}

// afterwards words a stdio server's end as what followed the cause.
func afterwards(end string) string {
	if strings.HasPrefix(end, "the server exited") {
		return "then " + end
	}
	return end
}

// unsupportedVersion matches the SDK's error for an initialize answer
// naming a protocol version it does not support.
var unsupportedVersion = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`unsupported protocol version: ("(?:[^"\\]|\\.)*")`)
})

// explain says what an SDK error means where its own text is cryptic.
func explain(err error) string {
	text := err.Error()
	if m := unsupportedVersion().FindStringSubmatch(text); m != nil {
		return fmt.Sprintf("the server answered protocol version %s, which mcpwitness did not ask for and does not support (supported: %s)",
			m[1], strings.Join(mcp.SupportedProtocolVersions(), ", "))
	}
	if errors.Is(err, syscall.ECONNREFUSED) {
		return "nothing is listening there (connection refused); is the server running, and is the URL right? (" + text + ")"
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return fmt.Sprintf("the host %q cannot be found; check the URL (%s)", dnsErr.Name, text)
	}
	return text
}
