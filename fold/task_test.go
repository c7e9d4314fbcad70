package fold_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"mcpwitness/fold"
	"mcpwitness/paging"
	"mcpwitness/session"
)

// describeTasks is every task of s, and every task call, in words.
func describeTasks(s *fold.State) []string {
	var out []string
	for _, t := range s.Tasks() {
		out = append(out, fmt.Sprintf("task %s %s %q ttl %v call %d %s listed %v page %d gen %d steps %d lifecycle %s",
			t.ID, t.Status, t.StatusMessage, t.TTL != nil, t.Call, t.Tool, t.Listed, t.Page, t.Gen, len(t.Steps), t.Lifecycle))
		for _, st := range t.Steps {
			out = append(out, fmt.Sprintf("  %s %s %q %s", st.T.UTC(), st.Status, st.Message, st.Source))
		}
	}
	for _, c := range s.Calls() {
		out = append(out, fmt.Sprintf("call %d %s asTask %v task %s %s %q steps %d outcome %v",
			c.ID, c.Tool, c.AsTask, c.TaskID, c.TaskStatus, c.TaskMessage, c.TaskSteps, c.Outcome()))
	}
	return out
}

func TestTasksFoldLiveEqualsReplay(t *testing.T) {
	ctx := context.Background()
	live, path := foldLiveAndRecord(t, func(s *session.Session) {
		s.Walk(ctx, paging.Tools())
		s.CallTask(ctx, "render_video", json.RawMessage(`{"storyboard":"a\nb"}`), nil)
		s.CallTask(ctx, "render_video", json.RawMessage(`{"storyboard":"a","resolution":"2160p"}`), nil)
		s.CallTask(ctx, "add", json.RawMessage(`{"a":1,"b":2}`), nil)
		s.Walk(ctx, paging.Tasks())
	})
	replayed := foldFile(t, path)
	if diff := cmp.Diff(describeTasks(live), describeTasks(replayed)); diff != "" {
		t.Errorf("live and recorded task folds differ (-live +recorded):\n%s", diff)
	}
	tasks := live.Tasks()
	if len(tasks) != 2 || tasks[0].Status != session.TaskCompleted || tasks[1].Status != session.TaskFailed {
		t.Fatalf("tasks %v, want a completed and a failed one", describeTasks(live))
	}
	if !tasks[0].Listed || tasks[0].Call == 0 || tasks[0].Tool != "render_video" || len(tasks[0].Steps) < 3 {
		t.Errorf("task %+v: want it listed, tied to its call, with its statuses", tasks[0])
	}
	calls := live.Calls()
	if c := calls[0]; c.TaskID != tasks[0].ID || c.TaskStatus != session.TaskCompleted || c.Outcome() != fold.OutcomePass {
		t.Errorf("call %+v: want it tied to its completed task, passing", c.CallInfo)
	}
	// The session negotiated 2026-07-28: tasks are the extension, whose
	// failed task carries the JSON-RPC error it failed with.
	if tasks[0].Lifecycle != session.LifecycleExtension {
		t.Errorf("task lifecycle %q, want %q", tasks[0].Lifecycle, session.LifecycleExtension)
	}
	if c := calls[1]; c.Outcome() != fold.OutcomeError || !strings.Contains(string(c.RPCError), "GPU encoder") {
		t.Errorf("failed task's call outcome %v (rpc error %s), want the task's JSON-RPC error", c.Outcome(), c.RPCError)
	}
	if c := calls[2]; c.Sent || c.Outcome() != fold.OutcomeRefused {
		t.Errorf("forbidden task call: sent %v outcome %v, want refused", c.Sent, c.Outcome())
	}
}
