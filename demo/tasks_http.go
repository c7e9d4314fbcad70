package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// taskHandler answers the task methods of the Streamable HTTP sessions of
// server before next, the SDK's handler, sees them; each session has tasks
// of its own. tasks/result answers on an event stream, on which a task
// waiting for input (input_required) sends its requests, as the
// specification has it; the client posts its answers back.
type taskHandler struct {
	server *mcp.Server
	next   http.Handler

	mu       sync.Mutex
	sessions map[string]*httpTasks // by session id
	// shared are the tasks of a handler without sessions (see
	// [StatelessHandler]), nil on one with sessions.
	shared *httpTasks
	// step is [Options.TaskStep], given to each session's tasks.
	step func(ctx context.Context, message string)
}

// StatelessHandler serves the demo server over Streamable HTTP without
// sessions (StreamableHTTPOptions.Stateless), as protocol 2026-07-28
// requires of HTTP (the SDK serves it on no other); the task methods are
// answered as [Handler] answers them, from one store for all its clients:
// the tasks extension names the task in each request, and there is no
// session to keep them by.
func StatelessHandler(opts *Options) http.Handler {
	s := New(withTasks(opts))
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: true})
	return &taskHandler{server: s, next: sdk, sessions: map[string]*httpTasks{}, shared: newHTTPTasks(nil)}
}

// newHTTPTasks returns the tasks of the HTTP session ss (nil: of a
// handler without sessions).
func newHTTPTasks(ss *mcp.ServerSession) *httpTasks {
	return &httpTasks{store: newTaskStore(), ss: ss, streams: map[string]chan []byte{}, opened: make(chan struct{}),
		waiting: map[string]chan *jsonrpc.Response{}}
}

// httpTasks are the tasks of one HTTP session and the tasks/result streams
// open on it.
type httpTasks struct {
	store *taskStore
	ss    *mcp.ServerSession

	mu sync.Mutex
	// streams are the open tasks/result streams, by task id: what is sent
	// on one is written to it. opened is closed (and replaced) whenever one
	// opens.
	streams map[string]chan []byte
	opened  chan struct{}
	// waiting are the answers awaited to the tasks' own requests, by id.
	waiting map[string]chan *jsonrpc.Response
	seq     int
}

// maxTaskBody bounds the POST body read to tell a task request.
const maxTaskBody = 4 << 20

// taskRequestPrefix starts the ids of the tasks' own requests to the client.
const taskRequestPrefix = "demo-task-request-"

func (h *taskHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.Body == nil {
		h.next.ServeHTTP(w, r)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxTaskBody))
	r.Body.Close()
	if err != nil {
		http.Error(w, "reading the request: "+err.Error(), http.StatusBadRequest)
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	msg, err := jsonrpc.DecodeMessage(body)
	if err != nil {
		h.next.ServeHTTP(w, r)
		return
	}
	sid := r.Header.Get("Mcp-Session-Id")
	switch m := msg.(type) {
	case *jsonrpc.Response:
		if id, ok := m.ID.Raw().(string); ok && strings.HasPrefix(id, taskRequestPrefix) {
			if t := h.tasks(sid); t != nil && t.deliver(id, m) {
				w.WriteHeader(http.StatusAccepted)
				return
			}
		}
	case *jsonrpc.Request:
		if m.IsCall() && isTaskMethod(m.Method, m.Params) {
			h.answer(w, r, sid, m)
			return
		}
	}
	h.next.ServeHTTP(w, r)
}

// answer answers task request req of session sid.
func (h *taskHandler) answer(w http.ResponseWriter, r *http.Request, sid string, req *jsonrpc.Request) {
	t := h.tasks(sid)
	if t == nil {
		http.Error(w, "session not found: initialize first, and send its Mcp-Session-Id", http.StatusNotFound)
		return
	}
	if req.Method == "tasks/result" {
		t.streamResult(w, r, req)
		return
	}
	var res any
	rerr := routedByTask(r, req)
	if rerr == nil {
		res, rerr = t.store.handle(r.Context(), t, req.Method, req.Params)
	}
	out, err := jsonrpc.EncodeMessage(response(req.ID, res, rerr))
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(out)
}

// response is the answer of id: res, or rerr when not nil.
func response(id jsonrpc.ID, res any, rerr *jsonrpc.Error) *jsonrpc.Response {
	resp := &jsonrpc.Response{ID: id}
	if rerr != nil {
		resp.Error = rerr
	} else if b, err := json.Marshal(res); err != nil {
		resp.Error = rpcError(jsonrpc.CodeInternalError, "encoding the answer: %v", err)
	} else {
		resp.Result = b
	}
	return resp
}

// streamResult answers tasks/result on an event stream: first whatever the
// task asks of the client while it waits, then the result.
func (t *httpTasks) streamResult(w http.ResponseWriter, r *http.Request, req *jsonrpc.Request) {
	var p struct {
		TaskID string `json:"taskId"`
	}
	_ = json.Unmarshal(req.Params, &p)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flush := func() {
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
	}
	flush()
	out := t.open(p.TaskID)
	defer t.close(p.TaskID, out)
	done := make(chan *jsonrpc.Response, 1)
	go func() {
		res, rerr := t.store.handle(r.Context(), t, req.Method, req.Params)
		done <- response(req.ID, res, rerr)
	}()
	for {
		select {
		case frame := <-out:
			fmt.Fprintf(w, "event: message\ndata: %s\n\n", frame)
			flush()
		case resp := <-done:
			if b, err := jsonrpc.EncodeMessage(resp); err == nil {
				fmt.Fprintf(w, "event: message\ndata: %s\n\n", b)
				flush()
			}
			return
		case <-r.Context().Done():
			return
		}
	}
}

// tasks returns the tasks of session sid, made on first use, nil when the
// server has no such session; those of sessions that ended are let go.
func (h *taskHandler) tasks(sid string) *httpTasks {
	if sid == "" {
		return h.shared
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if t := h.sessions[sid]; t != nil {
		return t
	}
	var ss *mcp.ServerSession
	live := map[string]bool{}
	for s := range h.server.Sessions() {
		live[s.ID()] = true
		if s.ID() == sid {
			ss = s
		}
	}
	for id := range h.sessions {
		if !live[id] {
			delete(h.sessions, id)
		}
	}
	if ss == nil {
		return nil
	}
	t := newHTTPTasks(ss)
	t.store.step = h.step
	h.sessions[sid] = t
	return t
}

// open registers a tasks/result stream for task id.
func (t *httpTasks) open(id string) chan []byte {
	out := make(chan []byte, 8)
	t.mu.Lock()
	t.streams[id] = out
	close(t.opened)
	t.opened = make(chan struct{})
	t.mu.Unlock()
	return out
}

// close ends task id's stream out.
func (t *httpTasks) close(id string, out chan []byte) {
	t.mu.Lock()
	if t.streams[id] == out {
		delete(t.streams, id)
	}
	t.mu.Unlock()
}

// deliver hands the client's answer to the request id; it reports whether
// one was awaited.
func (t *httpTasks) deliver(id string, resp *jsonrpc.Response) bool {
	t.mu.Lock()
	ch := t.waiting[id]
	delete(t.waiting, id)
	t.mu.Unlock()
	if ch != nil {
		ch <- resp
	}
	return ch != nil
}

// notify sends progress through the SDK's session. The SDK sends no
// notification it does not know, so notifications/tasks/status is not
// sent on HTTP: clients poll.
func (t *httpTasks) notify(method string, params any) {
	m, ok := params.(map[string]any)
	if method != "notifications/progress" || !ok || t.ss == nil {
		return
	}
	done, _ := m["progress"].(int)
	total, _ := m["total"].(int)
	msg, _ := m["message"].(string)
	_ = t.ss.NotifyProgress(context.Background(), &mcp.ProgressNotificationParams{ProgressToken: m["progressToken"],
		Progress: float64(done), Total: float64(total), Message: msg})
}

// elicit asks the client on the tasks/result stream of task taskID, once
// the client opens one (it does when it sees input_required), and waits
// for the answer it posts.
func (t *httpTasks) elicit(ctx context.Context, taskID string, params *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	if t.ss == nil {
		return nil, errors.New("a server without sessions asks through the tasks extension's input requests only")
	}
	if ip := t.ss.InitializeParams(); ip == nil || ip.Capabilities == nil || ip.Capabilities.Elicitation == nil {
		return nil, errors.New("client does not support elicitation")
	}
	t.mu.Lock()
	t.seq++
	idStr := fmt.Sprintf("%s%d", taskRequestPrefix, t.seq)
	ch := make(chan *jsonrpc.Response, 1)
	t.waiting[idStr] = ch
	t.mu.Unlock()
	defer func() {
		t.mu.Lock()
		delete(t.waiting, idStr)
		t.mu.Unlock()
	}()
	id, err := jsonrpc.MakeID(idStr)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	frame, err := jsonrpc.EncodeMessage(&jsonrpc.Request{ID: id, Method: "elicitation/create", Params: b})
	if err != nil {
		return nil, err
	}
	for sent := false; !sent; {
		t.mu.Lock()
		out, opened := t.streams[taskID], t.opened
		t.mu.Unlock()
		if out != nil {
			select {
			case out <- frame:
				sent = true
				continue
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		select {
		case <-opened:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	select {
	case resp := <-ch:
		if resp.Error != nil {
			return nil, resp.Error
		}
		var res mcp.ElicitResult
		if err := json.Unmarshal(resp.Result, &res); err != nil {
			return nil, err
		}
		return &res, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// codeHeaderMismatch is protocol 2026-07-28's error for HTTP headers that
// do not match the body.
const codeHeaderMismatch = -32020

// routedByTask checks, on protocol 2026-07-28, that a task method names
// its task in the Mcp-Name header, as the tasks extension requires of
// clients (intermediaries route by it): an error when it does not.
func routedByTask(r *http.Request, req *jsonrpc.Request) *jsonrpc.Error {
	if !strings.HasPrefix(req.Method, "tasks/") || r.Header.Get("Mcp-Protocol-Version") < "2026-07-28" {
		return nil
	}
	var p struct {
		TaskID string `json:"taskId"`
	}
	_ = json.Unmarshal(req.Params, &p)
	if got := r.Header.Get("Mcp-Name"); got != p.TaskID || r.Header.Get("Mcp-Method") != req.Method {
		return rpcError(codeHeaderMismatch, "%s: the Mcp-Name header must be the taskId (%q) and Mcp-Method the method; got %q and %q",
			req.Method, p.TaskID, got, r.Header.Get("Mcp-Method"))
	}
	return nil
}
