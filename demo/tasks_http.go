package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// taskHandler answers the task methods of the Streamable HTTP sessions of
// server before next, the SDK's handler, sees them; each session has tasks
// of its own.
type taskHandler struct {
	server *mcp.Server
	next   http.Handler

	mu     sync.Mutex
	stores map[string]*taskStore // by session id
}

// maxTaskBody bounds the POST body read to tell a task request.
const maxTaskBody = 4 << 20

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
	req, ok := msg.(*jsonrpc.Request)
	if err != nil || !ok || !req.IsCall() || !isTaskMethod(req.Method, req.Params) {
		h.next.ServeHTTP(w, r)
		return
	}
	sid := r.Header.Get("Mcp-Session-Id")
	ss := h.session(sid)
	if ss == nil {
		http.Error(w, "session not found: initialize first, and send its Mcp-Session-Id", http.StatusNotFound)
		return
	}
	res, rerr := h.store(sid).handle(r.Context(), httpPeer{ss}, req.Method, req.Params)
	resp := &jsonrpc.Response{ID: req.ID}
	if rerr != nil {
		resp.Error = rerr
	} else if b, err := json.Marshal(res); err != nil {
		resp.Error = rpcError(jsonrpc.CodeInternalError, "encoding the answer: %v", err)
	} else {
		resp.Result = b
	}
	out, err := jsonrpc.EncodeMessage(resp)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(out)
}

// session returns the server's session with id sid, nil when none.
func (h *taskHandler) session(sid string) *mcp.ServerSession {
	if sid == "" {
		return nil
	}
	for ss := range h.server.Sessions() {
		if ss.ID() == sid {
			return ss
		}
	}
	return nil
}

// store returns the tasks of session sid, made on first use; the stores
// of sessions that ended are let go.
func (h *taskHandler) store(sid string) *taskStore {
	h.mu.Lock()
	defer h.mu.Unlock()
	if st := h.stores[sid]; st != nil {
		return st
	}
	live := map[string]bool{}
	for ss := range h.server.Sessions() {
		live[ss.ID()] = true
	}
	for id := range h.stores {
		if !live[id] {
			delete(h.stores, id)
		}
	}
	st := newTaskStore()
	h.stores[sid] = st
	return st
}

// httpPeer reaches the client of an HTTP session through the SDK: progress
// and elicitation go on the session's own stream. The SDK sends no
// notification it does not know, so notifications/tasks/status is not
// sent on HTTP; clients poll.
type httpPeer struct{ ss *mcp.ServerSession }

func (p httpPeer) notify(method string, params any) {
	m, ok := params.(map[string]any)
	if method != "notifications/progress" || !ok {
		return
	}
	done, _ := m["progress"].(int)
	total, _ := m["total"].(int)
	msg, _ := m["message"].(string)
	_ = p.ss.NotifyProgress(context.Background(), &mcp.ProgressNotificationParams{ProgressToken: m["progressToken"],
		Progress: float64(done), Total: float64(total), Message: msg})
}

func (p httpPeer) elicit(ctx context.Context, params *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	return p.ss.Elicit(ctx, params)
}
