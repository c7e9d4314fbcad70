package session

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// tap turns raw frames into wire events and hands the raw answer of a
// watched request to whoever sent it. It is the source of truth: list items
// and call results are read from the bytes it saw, not from the SDK's
// structs.
type tap struct {
	log *Log
	// progress maps a progress token we sent to the call it belongs to.
	progress func(token string) (int64, bool)

	mu      sync.Mutex
	watched map[string]*watcher
	sent    map[string]sentCall // our requests awaiting an answer, by id
	recvReq map[string]string   // the server's requests we have not answered, id → method
}

type sentCall struct {
	method string
	at     time.Time
}

func newTap(log *Log) *tap {
	return &tap{log: log, watched: map[string]*watcher{}, sent: map[string]sentCall{}, recvReq: map[string]string{}}
}

// envelope is the part of a JSON-RPC frame the tap needs.
type envelope struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// frame records one raw frame seen going in direction dir.
func (t *tap) frame(dir string, raw []byte) bool {
	now := time.Now()
	if !json.Valid(raw) {
		t.log.Append(Event{T: now, Kind: KindWire, Dir: dir, Text: string(raw), Size: len(raw), Level: "invalid"})
		return false
	}
	raw = append([]byte(nil), raw...)
	if trimmed := bytes.TrimSpace(raw); len(trimmed) > 0 && trimmed[0] == '[' {
		// A batch: record it whole, then route each member.
		t.log.Append(Event{T: now, Kind: KindWire, Dir: dir, Frame: raw, Method: "(batch)", Size: len(raw)})
		var members []json.RawMessage
		if json.Unmarshal(raw, &members) == nil {
			for _, m := range members {
				t.route(dir, m, now, false)
			}
		}
		return true
	}
	t.route(dir, raw, now, true)
	return true
}

func (t *tap) route(dir string, raw json.RawMessage, now time.Time, record bool) {
	var env envelope
	_ = json.Unmarshal(raw, &env)
	id := ""
	if len(env.ID) > 0 && string(env.ID) != "null" {
		id = string(env.ID)
	}
	ev := Event{T: now, Kind: KindWire, Dir: dir, Frame: raw, Method: env.Method, ID: id, Size: len(raw)}
	var w *watcher
	var latency time.Duration
	t.mu.Lock()
	switch {
	case env.Method != "" && id != "" && dir == Send:
		t.sent[id] = sentCall{method: env.Method, at: now}
	case env.Method != "" && id != "" && dir == Recv:
		t.recvReq[id] = env.Method
	case env.Method == "" && id != "" && dir == Recv:
		if sc, ok := t.sent[id]; ok {
			ev.Method = sc.method
			latency = now.Sub(sc.at)
			delete(t.sent, id)
		}
		w = t.watched[id]
		delete(t.watched, id)
	case env.Method == "" && id != "" && dir == Send:
		ev.Method = t.recvReq[id]
		delete(t.recvReq, id)
	}
	t.mu.Unlock()
	if latency > 0 {
		ev.LatencyMs = ms(latency)
	}
	if record {
		t.log.Append(ev)
	}
	if w != nil {
		w.deliver(env.Result, env.Error)
	}
	if dir == Recv && env.Method != "" && id == "" {
		t.notification(env.Method, env.Params, now)
	}
}

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
				t.log.Append(Event{T: now, Kind: KindProgress, Method: method, Data: params,
					Progress: &ProgressInfo{CallID: callID, Progress: p.Progress, Total: p.Total, Message: p.Message}})
				return
			}
		}
	}
	ev := Event{T: now, Kind: KindNotification, Method: method, Data: params}
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

// watch arranges for the raw answer to request id to reach w.
func (t *tap) watch(id string, w *watcher) {
	t.mu.Lock()
	defer t.mu.Unlock()
	w.id = id
	t.watched[id] = w
}

func (t *tap) unwatch(w *watcher) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if w.id != "" && t.watched[w.id] == w {
		delete(t.watched, w.id)
	}
}

// watcher receives the raw answer to the one request sent with its context.
type watcher struct {
	mu     sync.Mutex
	id     string
	result json.RawMessage
	rpcErr json.RawMessage
	got    bool
}

type watchKey struct{}

// withWatcher returns a context whose first outgoing request is watched.
func withWatcher(ctx context.Context) (context.Context, *watcher) {
	w := &watcher{}
	return context.WithValue(ctx, watchKey{}, w), w
}

func watcherFrom(ctx context.Context) *watcher {
	w, _ := ctx.Value(watchKey{}).(*watcher)
	return w
}

func (w *watcher) deliver(result, rpcErr json.RawMessage) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.result, w.rpcErr, w.got = result, rpcErr, true
}

// answer returns the raw answer, if one arrived.
func (w *watcher) answer() (id string, result, rpcErr json.RawMessage, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.id, w.result, w.rpcErr, w.got
}

// claim registers w for the request being written, once.
func (t *tap) claim(ctx context.Context, msg jsonrpc.Message) {
	w := watcherFrom(ctx)
	if w == nil {
		return
	}
	req, ok := msg.(*jsonrpc.Request)
	if !ok || !req.IsCall() {
		return
	}
	w.mu.Lock()
	claimed := w.id != ""
	w.mu.Unlock()
	if claimed {
		return
	}
	id, err := json.Marshal(req.ID.Raw())
	if err != nil {
		return
	}
	t.watch(string(id), w)
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
	return &tapConn{inner: c, tap: t.tap, record: t.record}, nil
}

type tapConn struct {
	inner  mcp.Connection
	tap    *tap
	record bool
}

func (c *tapConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.inner.Read(ctx)
	if err == nil && c.record {
		if raw, encErr := jsonrpc.EncodeMessage(msg); encErr == nil {
			c.tap.frame(Recv, raw)
		}
	}
	return msg, err
}

func (c *tapConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	c.tap.claim(ctx, msg)
	if c.record {
		if raw, err := jsonrpc.EncodeMessage(msg); err == nil {
			c.tap.frame(Send, raw)
		}
	}
	return c.inner.Write(ctx, msg)
}

func (c *tapConn) Close() error      { return c.inner.Close() }
func (c *tapConn) SessionID() string { return c.inner.SessionID() }
