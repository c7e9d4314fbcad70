package session

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"mcpwitness/record"
)

// ownIDPrefix starts the id of every request the session sends itself. The
// SDK numbers its requests, so a string id never collides with one of
// them.
const ownIDPrefix = "mcpwitness-task-"

// setConn keeps the tapped connection the SDK uses, for the session's own
// requests.
func (t *tap) setConn(c mcp.Connection) {
	t.mu.Lock()
	t.conn = c
	t.mu.Unlock()
}

// connection returns the tapped connection, nil before the handshake or on
// HTTP.
func (t *tap) connection() mcp.Connection {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.conn
}

// expect returns a channel that [tap.signal] of key in signals closes
// once: signals is one of the tap's tables of them (own, writes).
func (t *tap) expect(signals map[string]chan struct{}, key string) <-chan struct{} {
	ch := make(chan struct{})
	t.mu.Lock()
	signals[key] = ch
	t.mu.Unlock()
	return ch
}

// forget stops waiting for key in signals.
func (t *tap) forget(signals map[string]chan struct{}, key string) {
	t.mu.Lock()
	delete(signals, key)
	t.mu.Unlock()
}

// signal closes the channel of key in signals, and reports whether key
// was awaited.
func (t *tap) signal(signals map[string]chan struct{}, key string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	ch, ok := signals[key]
	if ok {
		close(ch)
		delete(signals, key)
	}
	return ok
}

// ownReply is the answer to one of the session's own requests: its id and
// the raw result or JSON-RPC error.
type ownReply struct {
	id             string
	result, rpcErr json.RawMessage
}

// request sends method with params as a request of the session's own, not
// the SDK's, through the tap (so it is recorded like any frame), and waits
// for its answer until ctx is done; then the server is told the request is
// cancelled. The answer never reaches the SDK. It works on stdio, in-memory
// and Streamable HTTP; legacy SSE answers on its stream, which the SDK
// owns, so it is refused there.
func (s *Session) request(ctx context.Context, method string, params any) (ownReply, error) {
	return s.requestWatched(ctx, &watcher{}, method, params)
}

// requestWatched is [Session.request] whose answer is also delivered to w
// (a walk's list watcher).
func (s *Session) requestWatched(ctx context.Context, w *watcher, method string, params any) (ownReply, error) {
	rawParams, err := json.Marshal(params)
	if err != nil {
		return ownReply{}, fmt.Errorf("%s: encoding the params: %w", method, err)
	}
	idStr := fmt.Sprintf("%s%d", ownIDPrefix, s.ownIDs.Add(1))
	rawID, _ := json.Marshal(idStr)
	key := canonicalID(rawID)
	s.tap.watch(key, w)
	defer s.tap.unwatch(w)
	done := s.tap.expect(s.tap.own, key)
	defer s.tap.forget(s.tap.own, key)
	id, err := jsonrpc.MakeID(idStr)
	if err != nil {
		return ownReply{}, err
	}
	req := &jsonrpc.Request{ID: id, Method: method, Params: rawParams}
	ended, err := s.post(ctx, req)
	if err != nil {
		return ownReply{id: key}, s.failure(ctx, method, err)
	}
	select {
	case <-done:
	case <-ended:
		select {
		case <-done:
		default:
			return ownReply{id: key}, fmt.Errorf("%s: the server ended the answer's event stream without answering", method)
		}
	case <-ctx.Done():
		s.cancelOwn(id, method)
		return ownReply{id: key}, s.failure(ctx, method, ctx.Err())
	}
	_, result, rpcErr, _ := w.answer()
	return ownReply{id: key, result: result, rpcErr: rpcErr}, nil
}

// cancelOwn tells the server the session no longer waits for its request
// id (notifications/cancelled), within a second.
func (s *Session) cancelOwn(id jsonrpc.ID, method string) {
	params, _ := json.Marshal(map[string]any{"requestId": id.Raw(), "reason": "the client stopped waiting for " + method})
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if _, err := s.post(ctx, &jsonrpc.Request{Method: "notifications/cancelled", Params: params}); err != nil {
		s.log.Append(record.Event{Kind: record.KindError, Method: "notifications/cancelled", Text: "telling the server to cancel " + method + " failed: " + s.redact(err).Error()})
	}
}

// post writes one message of the session's own: on the SDK's tapped
// connection, or as an HTTP POST to the endpoint. ended is closed when an
// HTTP answer's body is read to its end (never on a connection).
func (s *Session) post(ctx context.Context, msg jsonrpc.Message) (ended <-chan struct{}, err error) {
	if s.cs == nil {
		return nil, errors.New("not connected")
	}
	if s.httpClient == nil {
		if s.info.Transport == "sse" {
			return nil, errors.New("the task methods are not supported on legacy SSE (its answers come on the SDK's own stream); use Streamable HTTP or stdio")
		}
		conn := s.tap.connection()
		if conn == nil {
			return nil, errors.New("no connection to send on")
		}
		return nil, conn.Write(ctx, msg)
	}
	body, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return nil, err
	}
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, s.endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "application/json, text/event-stream")
	if sid := s.cs.ID(); sid != "" {
		hreq.Header.Set("Mcp-Session-Id", sid)
	}
	if v := s.info.ProtocolVersion; v != "" {
		hreq.Header.Set("Mcp-Protocol-Version", v)
	}
	if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() && s.info.ProtocolVersion >= newProtocol {
		// The routing headers of 2026-07-28; the task methods name their
		// task, as the tasks extension asks.
		hreq.Header.Set("Mcp-Method", req.Method)
		if id := taskIDOf(req); id != "" {
			hreq.Header.Set("Mcp-Name", id)
		}
	}
	resp, err := s.httpClient.Do(hreq)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode >= 300 {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		resp.Body.Close()
		return nil, fmt.Errorf("HTTP %s for POST %s: %s", resp.Status, hreq.URL.Path, bytes.TrimSpace(b))
	}
	end := make(chan struct{})
	// The tap routes the answer as the body is read; what is left is to
	// answer the requests the server sends on the stream meanwhile (a
	// task's input_required: see [Session.answerStream]).
	stream := strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream")
	go func() {
		defer close(end)
		defer resp.Body.Close()
		if stream {
			s.answerStream(ctx, resp.Body)
			return
		}
		_, _ = io.Copy(io.Discard, resp.Body)
	}()
	return end, nil
}
