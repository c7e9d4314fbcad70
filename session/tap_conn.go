package session

import (
	"bytes"
	"context"
	"encoding/json"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mcpwitness/record"
)

// notification turns a server notification into an event of its own.
func (t *tap) notification(method string, params json.RawMessage, now time.Time) {
	if method == "notifications/progress" && t.progress != nil {
		var p struct {
			Token    any     `json:"progressToken"`
			Progress float64 `json:"progress"`
			Total    float64 `json:"total"`
			Message  string  `json:"message"`
		}
		if json.Unmarshal(params, &p) == nil {
			tok, _ := json.Marshal(p.Token)
			if callID, ok := t.progress(string(tok)); ok {
				t.log.Append(record.Event{T: now, Kind: record.KindProgress, Method: method, Data: params,
					Progress: &record.ProgressInfo{CallID: callID, Progress: p.Progress, Total: p.Total, Message: p.Message}})
				return
			}
		}
	}
	ev := record.Event{T: now, Kind: record.KindNotification, Method: method, Data: params}
	if method == "notifications/message" {
		var m struct {
			Level  string          `json:"level"`
			Logger string          `json:"logger"`
			Data   json.RawMessage `json:"data"`
		}
		if json.Unmarshal(params, &m) == nil {
			ev.Level = m.Level
			var s string
			if json.Unmarshal(m.Data, &s) == nil {
				ev.Text = s
			} else {
				ev.Text = string(m.Data)
			}
			if m.Logger != "" {
				ev.Text = m.Logger + ": " + ev.Text
			}
		}
	}
	t.log.Append(ev)
}

// tapTransport wraps a transport so every connection it makes is tapped.
type tapTransport struct {
	inner mcp.Transport
	tap   *tap
	// record says whether frames are recorded here (re-encoded by the SDK),
	// or below, from the bytes themselves (stdio).
	record bool
}

func (t *tapTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	tc := &tapConn{inner: c, tap: t.tap, record: t.record}
	t.tap.setConn(tc)
	return tc, nil
}

type tapConn struct {
	inner  mcp.Connection
	tap    *tap
	record bool
}

// Read passes on what the tap lets through: an answer that matches no
// request in flight is recorded and skipped, a frame that nests too deep is
// passed on cut.
func (c *tapConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		msg, err := c.inner.Read(ctx)
		if err != nil || !c.record {
			return msg, err
		}
		raw, encErr := jsonrpc.EncodeMessage(msg)
		if encErr != nil {
			return msg, nil
		}
		fwd, ok := c.tap.receive(raw)
		if !ok {
			continue
		}
		if !bytes.Equal(fwd, raw) {
			if cut, decErr := jsonrpc.DecodeMessage(fwd); decErr == nil {
				return cut, nil
			}
		}
		return msg, nil
	}
}

func (c *tapConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	c.tap.claim(ctx, msg)
	if c.record {
		if raw, err := jsonrpc.EncodeMessage(msg); err == nil {
			c.tap.frame(record.Send, raw)
		}
	}
	err := c.inner.Write(ctx, msg)
	if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
		c.tap.signal(c.tap.writes, req.Method)
	}
	return err
}

func (c *tapConn) Close() error      { return c.inner.Close() }
func (c *tapConn) SessionID() string { return c.inner.SessionID() }
