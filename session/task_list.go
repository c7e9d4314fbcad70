package session

import (
	"context"
	"errors"
)

// listTasks sends one tasks/list request for cursor as a request of the
// session's own (the SDK has no tasks/list), its answer delivered to w, the
// walk's watcher. A JSON-RPC error is left in w for the walk to read.
func (s *Session) listTasks(ctx context.Context, w *watcher, cursor string) error {
	params := map[string]string{}
	if cursor != "" {
		params["cursor"] = cursor
	}
	rep, err := s.requestWatched(ctx, w, "tasks/list", params)
	if err != nil {
		return err
	}
	if len(rep.result) == 0 && len(rep.rpcErr) == 0 {
		return errors.New("tasks/list: the answer has neither a result nor an error")
	}
	return nil
}
