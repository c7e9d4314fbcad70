package session

import (
	"context"
	"encoding/json"
)

// MethodTaskResult is tasks/result, a [RequestResult]'s method when the
// result of a task is asked for on its own (see [Session.TaskResult]).
const MethodTaskResult = "tasks/result"

// TaskResult asks for the result of task id with tasks/result, as a
// request of the session's own (the SDK has no tasks support), recorded as
// any other request is (About is the task id). The server answers once the
// task has ended: with the tool's result, or the error the task failed
// with.
func (s *Session) TaskResult(ctx context.Context, id string) *RequestResult {
	params := map[string]string{"taskId": id}
	r := s.newRequest(MethodTaskResult, id, params)
	s.send(ctx, r, func(rctx context.Context) error {
		_, err := s.requestWatched(rctx, watcherFrom(rctx), MethodTaskResult, params)
		return err
	}, nil)
	return r
}

// keepInit keeps the raw result of the handshake's answer, to initialize
// or to server/discover (see [tap.initialized]).
func (t *tap) keepInit(result json.RawMessage) {
	t.mu.Lock()
	t.init = result
	t.mu.Unlock()
}

// initialized returns the capabilities of the raw handshake answer, as
// the server wrote them (the SDK's struct drops what it does not know,
// such as tasks), or nil.
func (t *tap) initialized() json.RawMessage {
	t.mu.Lock()
	defer t.mu.Unlock()
	var res struct {
		Capabilities json.RawMessage `json:"capabilities"`
	}
	if json.Unmarshal(t.init, &res) != nil || len(res.Capabilities) == 0 || res.Capabilities[0] != '{' {
		return nil
	}
	return res.Capabilities
}
