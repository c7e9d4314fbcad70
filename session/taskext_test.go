package session

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"mcpwitness/demo"
	"mcpwitness/finding"
	"mcpwitness/paging"
	"mcpwitness/record"
)

// extTargets are the demo server over stdio and over Streamable HTTP on
// 127.0.0.1 without sessions, the HTTP the SDK serves 2026-07-28 on.
func extTargets(t *testing.T) map[string]Target {
	srv := httptest.NewServer(demo.StatelessHandler(nil))
	t.Cleanup(srv.Close)
	return map[string]Target{"stdio": demoStdio(t), "http": {URL: srv.URL}}
}

// extSession dials target on protocol 2026-07-28, where tasks are the
// io.modelcontextprotocol/tasks extension, and walks the tools.
func extSession(t *testing.T, target Target, opts *Options) *Session {
	t.Helper()
	if opts == nil {
		opts = &Options{}
	}
	opts.Protocol = newProtocol
	s := dial(t, target, opts)
	if v := s.Info().ProtocolVersion; v != newProtocol {
		t.Fatalf("negotiated %s, want %s", v, newProtocol)
	}
	s.Walk(context.Background(), paging.Tools())
	return s
}

// extFrames reports what went on the wire of the extension's lifecycle:
// whether each tools/call sent declared the extension, and how many
// frames of each task method went out.
func extFrames(t *testing.T, l *record.Log) map[string]int {
	t.Helper()
	n := map[string]int{}
	for _, ev := range wireFrames(l, record.Send, "tools/call") {
		if !strings.Contains(string(ev.Frame), `"extensions":{"`+record.ExtensionTasks+`":{}}`) {
			t.Errorf("a tools/call went out without declaring the tasks extension: %s", ev.Frame)
		}
		n["tools/call"]++
	}
	for _, m := range []string{"tasks/get", "tasks/update", "tasks/cancel", "tasks/result"} {
		n[m] = len(wireFrames(l, record.Send, m))
	}
	return n
}

// lifecycles returns the lifecycles the task events of call id named.
func lifecycles(l *record.Log, id int64) map[record.TaskLifecycle]bool {
	out := map[record.TaskLifecycle]bool{}
	for _, ev := range l.Events() {
		if ev.Kind == record.KindTask && ev.Task != nil && ev.Task.Call == id {
			out[ev.Task.Lifecycle] = true
		}
	}
	return out
}

func TestExtensionTaskCompletes(t *testing.T) {
	t.Parallel()
	for name, target := range extTargets(t) {
		t.Run(name, func(t *testing.T) {
			s := extSession(t, target, nil)
			r := s.CallTask(context.Background(), "render_video", json.RawMessage(`{"storyboard":"title\nsunrise"}`), nil)
			if r.Err != nil || len(r.RPCError) > 0 {
				t.Fatalf("task: %v %s", r.Err, r.RPCError)
			}
			if r.TaskID == "" || r.TaskStatus != record.TaskCompleted || !r.AsTask {
				t.Errorf("task %q status %q asTask %v, want a completed task", r.TaskID, r.TaskStatus, r.AsTask)
			}
			if !strings.Contains(string(r.Result), "Rendered 2 scenes") {
				t.Errorf("result %s, want the rendered video from tasks/get", r.Result)
			}
			if st := verdictOf(r.Verdicts, finding.StructuredContent); st == "" {
				t.Error("no structured-content verdict: the result was not checked")
			}
			if len(r.Findings) != 0 {
				t.Errorf("findings %+v, want none", r.Findings)
			}
			statuses := taskEvents(s.Log(), r.ID)
			if len(statuses) < 2 || statuses[0] != record.TaskWorking || statuses[len(statuses)-1] != record.TaskCompleted {
				t.Errorf("status history %v, want working … completed", statuses)
			}
			if lc := lifecycles(s.Log(), r.ID); len(lc) != 1 || !lc[record.LifecycleExtension] {
				t.Errorf("task events name lifecycles %v, want only the extension", lc)
			}
			n := extFrames(t, s.Log())
			if n["tools/call"] != 1 || n["tasks/get"] == 0 || n["tasks/result"] != 0 {
				t.Errorf("frames sent %v, want one tools/call, tasks/get polled, no tasks/result", n)
			}
			if res := s.Ping(context.Background()); res.Err != nil {
				t.Errorf("ping after the task: %v", res.Err)
			}
		})
	}
}

func TestExtensionTaskFailsWithItsError(t *testing.T) {
	t.Parallel()
	for name, target := range extTargets(t) {
		t.Run(name, func(t *testing.T) {
			s := extSession(t, target, nil)
			r := s.CallTask(context.Background(), "render_video", json.RawMessage(`{"storyboard":"a\nb","resolution":"2160p"}`), nil)
			if r.TaskStatus != record.TaskFailed {
				t.Fatalf("status %q (err %v), want failed", r.TaskStatus, r.Err)
			}
			if len(r.Result) != 0 || !strings.Contains(string(r.RPCError), "GPU encoder") || !strings.Contains(record.RPCErrorText(r.RPCError), "-32603") {
				t.Errorf("result %s rpcError %s, want the JSON-RPC error tasks/get gave and no result", r.Result, r.RPCError)
			}
		})
	}
}

func TestExtensionTaskCancelSendsTasksCancel(t *testing.T) {
	t.Parallel()
	for name, target := range extTargets(t) {
		t.Run(name, func(t *testing.T) {
			log := record.NewLog(&record.LogOptions{History: true})
			s := extSession(t, target, &Options{Log: log})
			ctx, cancel := context.WithCancel(context.Background())
			log.AddSink(func(ev record.Event) {
				if ev.Kind == record.KindTask && ev.Task != nil && ev.Task.Source == record.TaskPolled {
					cancel()
				}
			})
			r := s.CallTask(ctx, "render_video", json.RawMessage(`{"storyboard":"1\n2\n3\n4\n5\n6"}`), nil)
			if !r.Cancelled || r.TaskStatus != record.TaskCancelled || !errors.Is(r.Err, context.Canceled) {
				t.Fatalf("cancelled %v status %q err %v, want cancelled by tasks/cancel", r.Cancelled, r.TaskStatus, r.Err)
			}
			if n := extFrames(t, log); n["tasks/cancel"] != 1 {
				t.Errorf("%d tasks/cancel sent, want 1", n["tasks/cancel"])
			}
		})
	}
}

func TestExtensionInputRequiredAnsweredByElicitThroughTasksUpdate(t *testing.T) {
	t.Parallel()
	for name, target := range extTargets(t) {
		t.Run(name, func(t *testing.T) {
			s := extSession(t, target, &Options{Elicit: &ElicitAnswer{Action: ElicitAcceptDefaults}})
			r := s.CallTask(context.Background(), "transcribe_audio", json.RawMessage(`{"url":"https://example.com/a.mp3"}`), nil)
			if r.TaskStatus != record.TaskCompleted {
				t.Fatalf("status %q err %v, want completed", r.TaskStatus, r.Err)
			}
			if !strings.Contains(string(r.Result), "[en]") {
				t.Errorf("result %s, want the language the elicitation accepted (en, its default)", r.Result)
			}
			if !containsStatus(taskEvents(s.Log(), r.ID), record.TaskInputRequired) {
				t.Errorf("status history %v has no input_required", taskEvents(s.Log(), r.ID))
			}
			n := extFrames(t, s.Log())
			if n["tasks/update"] != 1 || len(wireFrames(s.Log(), record.Recv, "elicitation/create")) != 0 {
				t.Errorf("frames sent %v, want one tasks/update and no elicitation/create request on the wire", n)
			}
			asked := 0
			for _, ev := range s.Log().Events() {
				if ev.Kind == record.KindServerCall && ev.Method == MethodElicit && ev.Text == "asked (an input request in a result)" {
					asked++
					if ev.Call == nil || ev.Call.ID != r.ID {
						t.Errorf("the elicitation names call %+v, want %d", ev.Call, r.ID)
					}
				}
			}
			if asked != 1 {
				t.Errorf("the answer path was asked %d times, want once (a key repeated by later polls is answered once)", asked)
			}
		})
	}
}

func TestPlainCallAnsweredWithATaskIsFollowed(t *testing.T) {
	t.Parallel()
	for name, target := range extTargets(t) {
		t.Run(name, func(t *testing.T) {
			s := extSession(t, target, nil)
			// transcribe_audio's taskSupport is optional: a plain call goes
			// out, and the server makes it a task on its own.
			r := s.Call(context.Background(), "transcribe_audio", json.RawMessage(`{"url":"https://example.com/a.mp3","language":"de"}`), nil)
			if r.Err != nil || r.AsTask {
				t.Fatalf("err %v asTask %v, want a plain call that succeeded", r.Err, r.AsTask)
			}
			if r.TaskID == "" || r.TaskStatus != record.TaskCompleted || !strings.Contains(string(r.Result), "[de]") {
				t.Errorf("task %q status %q result %s, want the task followed to its result", r.TaskID, r.TaskStatus, r.Result)
			}
			if strings.Contains(string(r.Result), `"resultType":"task"`) {
				t.Errorf("the call's result is the task handle: %s", r.Result)
			}
			if st := verdictOf(r.Verdicts, finding.StructuredContent); st == "" {
				t.Error("no structured-content verdict on the task's result")
			}
			if len(r.Findings) != 0 {
				t.Errorf("findings %+v, want none", r.Findings)
			}
		})
	}
}
