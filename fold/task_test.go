package fold_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mcpwitness/demo"
	"mcpwitness/fold"
	"mcpwitness/paging"
	"mcpwitness/record"
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
	if len(tasks) != 2 || tasks[0].Status != record.TaskCompleted || tasks[1].Status != record.TaskFailed {
		t.Fatalf("tasks %v, want a completed and a failed one", describeTasks(live))
	}
	if !tasks[0].Listed || tasks[0].Call == 0 || tasks[0].Tool != "render_video" || len(tasks[0].Steps) < 3 {
		t.Errorf("task %+v: want it listed, tied to its call, with its statuses", tasks[0])
	}
	calls := live.Calls()
	if c := calls[0]; c.TaskID != tasks[0].ID || c.TaskStatus != record.TaskCompleted || c.Outcome() != fold.OutcomePass {
		t.Errorf("call %+v: want it tied to its completed task, passing", c.CallInfo)
	}
	// The session negotiated 2026-07-28: tasks are the extension, whose
	// failed task carries the JSON-RPC error it failed with.
	if tasks[0].Lifecycle != record.LifecycleExtension {
		t.Errorf("task lifecycle %q, want %q", tasks[0].Lifecycle, record.LifecycleExtension)
	}
	if c := calls[1]; c.Outcome() != fold.OutcomeError || !strings.Contains(string(c.RPCError), "GPU encoder") {
		t.Errorf("failed task's call outcome %v (rpc error %s), want the task's JSON-RPC error", c.Outcome(), c.RPCError)
	}
	if c := calls[2]; c.Sent || c.Outcome() != fold.OutcomeRefused {
		t.Errorf("forbidden task call: sent %v outcome %v, want refused", c.Sent, c.Outcome())
	}
}

// TestExtensionTaskFoldLiveEqualsReplay runs a task of the tasks extension
// (2026-07-28) that asks for input, answered by the session's elicit
// answer through tasks/update, and a plain call the server makes a task:
// the fold of the record equals the live one, the task's input request and
// its answer among the call's rows.
func TestExtensionTaskFoldLiveEqualsReplay(t *testing.T) {
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := demo.New(nil).Connect(ctx, demo.Tasks(st), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	path := filepath.Join(t.TempDir(), "run.jsonl")
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	target := session.Target{Name: "demo"}
	rec, err := record.NewRecorder(out, record.NewHeader("mcpwitness test", target.Describe()), target.Secrets())
	if err != nil {
		t.Fatal(err)
	}
	log := record.NewLog(nil)
	live := fold.New(nil)
	log.AddSink(live.Apply)
	log.AddSink(rec.Write)
	s, err := session.Dial(ctx, session.Target{Transport: ct, Name: "demo"}, &session.Options{Log: log, Timeout: time.Minute,
		Protocol: "2026-07-28", Elicit: &session.ElicitAnswer{Action: session.ElicitAcceptDefaults}})
	if err != nil {
		t.Fatal(err)
	}
	s.Walk(ctx, paging.Tools())
	asked := s.CallTask(ctx, "transcribe_audio", json.RawMessage(`{"url":"https://example.com/a.mp3"}`), nil)
	plain := s.Call(ctx, "transcribe_audio", json.RawMessage(`{"url":"https://example.com/b.mp3","language":"fr"}`), nil)
	s.Close()
	log.Close()
	if err := rec.Err(); err != nil {
		t.Fatal(err)
	}
	replayed := foldFile(t, path)
	if diff := cmp.Diff(describe(live), describe(replayed)); diff != "" {
		t.Errorf("live and recorded folds differ (-live +recorded):\n%s", diff)
	}
	if diff := cmp.Diff(describeTasks(live), describeTasks(replayed)); diff != "" {
		t.Errorf("live and recorded task folds differ (-live +recorded):\n%s", diff)
	}
	for _, r := range []*session.CallResult{asked, plain} {
		c := replayed.Call(r.ID)
		task := replayed.Task(r.TaskID)
		if c == nil || task == nil || c.Outcome() != fold.OutcomePass || task.Lifecycle != record.LifecycleExtension || task.Call != r.ID {
			t.Fatalf("call %d: %+v task %+v, want a passing call tied to its extension task", r.ID, c, task)
		}
	}
	if !strings.Contains(string(replayed.Call(asked.ID).Result), "[en]") || !strings.Contains(string(replayed.Call(plain.ID).Result), "[fr]") {
		t.Errorf("results %s and %s, want the answered and the given language", replayed.Call(asked.ID).Result, replayed.Call(plain.ID).Result)
	}
	var update, answered bool
	for i := 0; i < replayed.Frames().Len(); i++ {
		update = update || replayed.Frames().At(i).Method == "tasks/update"
	}
	for i := 0; i < replayed.Rows().Len(); i++ {
		r := replayed.Rows().At(i)
		answered = answered || r.Kind == fold.RowServerCall && r.Method == session.MethodElicit && strings.HasPrefix(r.Text, "accept")
	}
	if !update || !answered {
		t.Errorf("tasks/update frame %v, answered elicitation row %v: want both in the record", update, answered)
	}
}
