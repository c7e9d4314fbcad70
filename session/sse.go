package session

import (
	"bytes"
	"context"
	"io"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// streamTransport connects a transport whose connection holds a stream
// for as long as it lives (legacy SSE's GET) on a context of the session's
// lifetime, not on the handshake's, which ends when Dial returns. The
// handshake's context still bounds connecting.
type streamTransport struct {
	inner mcp.Transport
	life  context.Context
}

func (t *streamTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	cctx, cancel := context.WithCancel(t.life)
	stop := context.AfterFunc(ctx, cancel)
	conn, err := t.inner.Connect(cctx)
	if !stop() {
		// The handshake's context ended while connecting.
		if err == nil {
			conn.Close()
		}
		cancel()
		return nil, ctx.Err()
	}
	if err != nil {
		cancel()
		return nil, err
	}
	return &streamConn{Connection: conn, cancel: cancel}, nil
}

// streamConn ends its stream's context when it closes.
type streamConn struct {
	mcp.Connection
	cancel context.CancelFunc
}

func (c *streamConn) Close() error {
	err := c.Connection.Close()
	c.cancel()
	return err
}

// sseTap passes a server-sent event stream through untouched, recording the
// data of each event as a frame as soon as the event is complete, and ends
// the stream with the frame limit's error when one event grows past it.
type sseTap struct {
	rc    io.ReadCloser
	tap   *tap
	limit *frameLimit
	// record is false for legacy SSE, whose frames are recorded at the
	// connection; the limit still applies.
	record bool

	err        error // the limit's error, once exceeded
	eventBytes int64 // raw bytes of the event so far, as the SDK counts them
	lineLen    int   // bytes of the current line so far
	line       []byte
	data       []string
}

func (s *sseTap) Read(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.rc.Read(p)
	if s.feed(p[:n]) {
		s.err = s.limit.exceeded("server-sent event", 0)
		s.line, s.data = nil, nil
		return 0, s.err
	}
	if err == io.EOF {
		s.dispatch()
	}
	return n, err
}

func (s *sseTap) Close() error { return s.rc.Close() }

// feed takes the next bytes of the stream and reports whether the event
// being read has grown past the limit.
func (s *sseTap) feed(b []byte) (over bool) {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		part := b
		if i >= 0 {
			part = b[:i+1]
		}
		s.eventBytes += int64(len(part))
		if s.eventBytes > s.limit.max {
			return true
		}
		if s.record {
			s.line = append(s.line, part...)
		}
		s.lineLen += len(part)
		b = b[len(part):]
		if i < 0 {
			return false
		}
		if s.lineLen == len(part) && len(bytes.TrimRight(part, "\r\n")) == 0 {
			s.eventBytes = 0 // a blank line ends the event
		}
		if s.record {
			s.handle(strings.TrimRight(string(s.line), "\r\n"))
		}
		s.line, s.lineLen = s.line[:0], 0
	}
	return false
}

func (s *sseTap) handle(line string) {
	switch {
	case line == "":
		s.dispatch()
	case strings.HasPrefix(line, "data:"):
		s.data = append(s.data, strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
	}
}

func (s *sseTap) dispatch() {
	if len(s.data) == 0 {
		return
	}
	data := strings.Join(s.data, "\n")
	s.data = s.data[:0]
	if strings.TrimSpace(data) != "" {
		s.tap.frame(Recv, []byte(strings.TrimSpace(data)))
	}
}
