package session

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"mcpwitness/record"
)

// newProtocol is the first protocol version where the log level travels in
// each request's _meta instead of logging/setLevel.
const newProtocol = "2026-07-28"

// askForLogs asks a server that logs to send everything (logging/setLevel
// debug), so the events show its log; on newer protocols each call carries
// the level instead.
//
// On a connection (stdio, in memory) the answer is not waited for: once
// the request is written, what the session sends next follows it on the
// wire, so the server sees the level first, and the first walk does not
// wait a round trip for it. The answer, or why none came, is recorded
// when it comes; a level asked for later waits for it
// ([Session.afterDebugLevel]). Over HTTP, where each request is a POST of its own and
// two may arrive in either order, the answer is waited for.
func (s *Session) askForLogs(res *mcp.InitializeResult) {
	//lint:ignore SA1019 servers on protocols before 2026-07-28 still log through logging/setLevel; an inspector shows what they send
	if res == nil || res.Capabilities == nil || res.Capabilities.Logging == nil || res.ProtocolVersion >= newProtocol {
		return
	}
	if s.tap.connection() == nil {
		s.setDebugLevel()
		return
	}
	written := s.tap.expect(s.tap.writes, record.MethodSetLevel)
	defer s.tap.forget(s.tap.writes, record.MethodSetLevel)
	done := make(chan struct{})
	s.debugSet = done
	go func() {
		defer close(done)
		s.setDebugLevel()
	}()
	select {
	case <-written:
	case <-done:
	}
}

// setDebugLevel sends logging/setLevel debug and waits for its answer,
// within the timeout or until the session ends; a failure is an error
// event, unless the session ended first.
func (s *Session) setDebugLevel() {
	ctx, cancel := context.WithTimeout(s.life, s.timeout)
	defer cancel()
	//lint:ignore SA1019 servers on protocols before 2026-07-28 still log through logging/setLevel; an inspector shows what they send
	err := s.cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "debug"})
	if err != nil && s.life.Err() == nil {
		s.log.Append(record.Event{Kind: record.KindError, Method: record.MethodSetLevel, Text: "asking for debug logs failed: " + s.redact(err).Error()})
	}
}

// afterDebugLevel waits until the level asked for at connect has its
// answer (or has failed), so that a level asked for later is not sent while
// it is in flight: a server that handles requests concurrently could apply
// the two in either order. It fails if ctx ends first.
func (s *Session) afterDebugLevel(ctx context.Context) error {
	if s.debugSet == nil {
		return nil
	}
	select {
	case <-s.debugSet:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("the debug level asked for at connect has no answer yet; nothing was sent: %w", ctx.Err())
	}
}
