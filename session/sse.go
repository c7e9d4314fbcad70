package session

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"mcpwitness/record"
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

// sseTap reads a server-sent event stream for the SDK and ends it with the
// frame limit's error when one event grows past it. It re-emits each event
// once it is complete: the data goes through the tap,
// which records it and says what the SDK may be given (the frame, the frame
// cut, or nothing for a stray answer); the event's other lines are kept.
type sseTap struct {
	rc    io.ReadCloser
	tap   *tap
	limit *frameLimit
	// legacy marks legacy SSE's GET stream. Its endpoint event, the first,
	// holds the URL to post to, not JSON: it is passed on untouched. The
	// SDK takes every later event's data for a message and ends the
	// connection over one it cannot decode, so an event with nothing to
	// pass on is dropped whole, ids and all (legacy SSE never resumes).
	legacy   bool
	endpoint bool // the endpoint event has been passed on
	// stream is the legacy stream's URL: an endpoint event naming another
	// origin ends the stream with an [*OriginError]; secrets redact it.
	stream  *url.URL
	secrets *record.Redactor

	err        error // the limit's error, once exceeded
	eventBytes int64 // raw bytes of the event so far, as the SDK counts them
	lineLen    int   // bytes of the current line so far
	line       []byte

	lines   [][]byte     // the event's lines so far, as read
	data    []byte       // the values of its data lines, each ended by a newline
	out     bytes.Buffer // re-emitted bytes the SDK has not read yet
	readErr error        // the stream's own error, once out is drained
	buf     []byte
}

func (s *sseTap) Read(p []byte) (int, error) {
	for s.out.Len() == 0 {
		if s.err != nil {
			return 0, s.err
		}
		if s.readErr != nil {
			return 0, s.readErr
		}
		if s.buf == nil {
			s.buf = make([]byte, 32<<10)
		}
		n, err := s.rc.Read(s.buf)
		if s.feed(s.buf[:n]) {
			s.overLimit()
			return 0, s.err
		}
		if err != nil {
			if err == io.EOF {
				// An event the stream ends inside is still an event.
				if len(s.line) > 0 {
					s.handle(s.line)
					s.line = s.line[:0]
				}
				s.endEvent(nil)
			}
			s.readErr = err
		}
	}
	return s.out.Read(p)
}

func (s *sseTap) overLimit() {
	s.err = s.limit.exceeded("server-sent event", 0)
	s.line, s.lines, s.data = nil, nil, nil
	s.out.Reset()
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
		s.line = append(s.line, part...)
		s.lineLen += len(part)
		b = b[len(part):]
		if i < 0 {
			return false
		}
		if s.lineLen == len(part) && len(bytes.TrimRight(part, "\r\n")) == 0 {
			s.eventBytes = 0 // a blank line ends the event
		}
		s.handle(s.line)
		s.line, s.lineLen = s.line[:0], 0
	}
	return false
}

// handle takes one line of the stream, with its line ending.
func (s *sseTap) handle(raw []byte) {
	line := bytes.TrimRight(raw, "\r\n")
	if len(line) == 0 {
		s.endEvent(raw)
		return
	}
	if v, ok := bytes.CutPrefix(line, []byte("data:")); ok {
		s.data = append(append(s.data, bytes.TrimPrefix(v, []byte(" "))...), '\n')
	}
	s.lines = append(s.lines, append([]byte(nil), raw...))
}

// checkEndpoint refuses an endpoint event naming a URL of another origin
// than the stream's, as the TypeScript SDK does: the SDK would post every
// message there.
func (s *sseTap) checkEndpoint(data []byte) error {
	if s.stream == nil {
		return nil
	}
	u, err := s.stream.Parse(string(data))
	if err != nil {
		return fmt.Errorf("the SSE server's endpoint event is not a URL: %w", err)
	}
	if sameOrigin(u, s.stream) {
		return nil
	}
	return &OriginError{Stream: record.EventURL(s.stream, s.secrets), Endpoint: record.EventURL(u, s.secrets)}
}

// endEvent re-emits the event read so far, ended by the blank line end (nil
// when the stream ended first).
func (s *sseTap) endEvent(end []byte) {
	// The data is read in place: the tap copies what it keeps.
	lines, data := s.lines, bytes.TrimSpace(s.data)
	s.lines, s.data = s.lines[:0], s.data[:0]
	if cap(s.data) > 1<<20 {
		s.data = nil // do not hold on to one big event's memory
	}
	if s.legacy && !s.endpoint && eventName(lines) == "endpoint" {
		s.endpoint = true
		if err := s.checkEndpoint(data); err != nil {
			s.err = err
			return
		}
		s.emit(lines, end, nil, true)
		return
	}
	if len(data) == 0 && s.legacy {
		// The SDK would skip it or, if it names an event or an id, fail
		// to decode its empty data.
		return
	}
	if len(data) == 0 {
		// Nothing to record: comments, a priming event with only an id.
		s.emit(lines, end, nil, true)
		return
	}
	fwd, ok := s.tap.receive(data)
	switch {
	case ok && bytes.Equal(fwd, data):
		s.emit(lines, end, nil, true)
	case ok:
		s.emit(lines, end, fwd, false)
	default:
		if !json.Valid(data) {
			s.tap.log.Append(record.Event{Kind: record.KindError, Dir: record.Recv, Size: len(data),
				Text: "the server sent a server-sent event with data that is not JSON; it was not passed to the SDK"})
		}
		if keepsFields(lines) && !s.legacy {
			// The SDK still needs the event's id to resume the stream.
			s.emit(lines, end, nil, false)
		}
	}
}

// emit writes lines and the blank line end, with the data lines as they
// were (keepData) or replaced by data's lines where the first one stood.
func (s *sseTap) emit(lines [][]byte, end, data []byte, keepData bool) {
	wrote := false
	for _, l := range lines {
		if keepData || !bytes.HasPrefix(l, []byte("data:")) {
			s.out.Write(l)
			continue
		}
		if !wrote && len(data) > 0 {
			writeData(&s.out, data)
		}
		wrote = true
	}
	s.out.Write(end)
}

// keepsFields reports whether an event's lines hold an id or a retry field,
// which the SDK needs even when the event's data is dropped.
func keepsFields(lines [][]byte) bool {
	for _, l := range lines {
		if bytes.HasPrefix(l, []byte("id:")) || bytes.HasPrefix(l, []byte("retry:")) {
			return true
		}
	}
	return false
}

// eventName returns the value of an event's last event field, "" for none.
func eventName(lines [][]byte) string {
	name := ""
	for _, l := range lines {
		if v, ok := bytes.CutPrefix(l, []byte("event:")); ok {
			name = string(bytes.TrimSpace(v))
		}
	}
	return name
}

// writeData writes data as the data lines of an event, one per line of it.
func writeData(w *bytes.Buffer, data []byte) {
	for line := range bytes.Lines(data) {
		w.WriteString("data: ")
		w.Write(bytes.TrimRight(line, "\r\n"))
		w.WriteByte('\n')
	}
}
