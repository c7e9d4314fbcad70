package session

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"mcpwitness/finding"
	"mcpwitness/internal/hostiletest"
	"mcpwitness/paging"
	"mcpwitness/record"
)

// taskTargets are the demo server over stdio and over Streamable HTTP on
// 127.0.0.1: the task methods are the session's own on both.
func taskTargets(t *testing.T) map[string]Target {
	return map[string]Target{"stdio": demoStdio(t), "http": {URL: demoHTTP(t)}}
}

// taskEvents returns the statuses the log's task events recorded for call
// id, in order.
func taskEvents(l *record.Log, id int64) []record.TaskStatus {
	var out []record.TaskStatus
	for _, ev := range l.Events() {
		if ev.Kind == record.KindTask && ev.Task != nil && ev.Task.Call == id {
			out = append(out, ev.Task.Status)
		}
	}
	return out
}

// sentOwn reports how many frames of method went out with one of the
// session's own ids.
func sentOwn(l *record.Log, method string) int {
	n := 0
	for _, ev := range wireFrames(l, record.Send, method) {
		if strings.HasPrefix(ev.ID, `"`+ownIDPrefix) {
			n++
		}
	}
	return n
}

func verdictOf(vs []finding.Verdict, check string) finding.Status {
	for _, v := range vs {
		if v.Check == check {
			return v.Status
		}
	}
	return ""
}

func TestCallTaskCompletes(t *testing.T) {
	t.Parallel()
	for name, target := range taskTargets(t) {
		t.Run(name, func(t *testing.T) {
			s := dial(t, target, &Options{Protocol: "2025-11-25"})
			s.Walk(context.Background(), paging.Tools())
			r := s.CallTask(context.Background(), "render_video", json.RawMessage(`{"storyboard":"title\nsunrise"}`), nil)
			if r.Err != nil || len(r.RPCError) > 0 {
				t.Fatalf("task: %v %s", r.Err, r.RPCError)
			}
			if r.TaskID == "" || r.TaskStatus != record.TaskCompleted || !r.AsTask {
				t.Errorf("task %q status %q asTask %v, want a completed task", r.TaskID, r.TaskStatus, r.AsTask)
			}
			if !strings.Contains(string(r.Result), "Rendered 2 scenes") {
				t.Errorf("result %s, want the rendered video", r.Result)
			}
			if st := verdictOf(r.Verdicts, finding.TaskSupport); st != finding.Pass {
				t.Errorf("task-support verdict %q, want pass", st)
			}
			if st := verdictOf(r.Verdicts, finding.StructuredContent); st == "" {
				t.Error("no structured-content verdict: the result was not checked")
			}
			statuses := taskEvents(s.Log(), r.ID)
			if len(statuses) < 2 || statuses[0] != record.TaskWorking || statuses[len(statuses)-1] != record.TaskCompleted {
				t.Errorf("status history %v, want working … completed", statuses)
			}
			for _, m := range []string{"tools/call", "tasks/get", "tasks/result"} {
				if sentOwn(s.Log(), m) == 0 {
					t.Errorf("no %s went out with the session's own id", m)
				}
			}
			// The SDK saw none of it: the session still works.
			if res := s.Ping(context.Background()); res.Err != nil {
				t.Errorf("ping after the task: %v", res.Err)
			}
		})
	}
}

func TestCallTaskFails(t *testing.T) {
	t.Parallel()
	for name, target := range taskTargets(t) {
		t.Run(name, func(t *testing.T) {
			s := dial(t, target, &Options{Protocol: "2025-11-25"})
			s.Walk(context.Background(), paging.Tools())
			r := s.CallTask(context.Background(), "render_video", json.RawMessage(`{"storyboard":"a\nb","resolution":"2160p"}`), nil)
			if r.TaskStatus != record.TaskFailed {
				t.Fatalf("status %q (err %v), want failed", r.TaskStatus, r.Err)
			}
			if !r.IsError() || !strings.Contains(string(r.Result), "GPU encoder") {
				t.Errorf("result %s, want the isError result tasks/result gave", r.Result)
			}
		})
	}
}

func TestCallTaskCancelSendsTasksCancel(t *testing.T) {
	t.Parallel()
	for name, target := range taskTargets(t) {
		t.Run(name, func(t *testing.T) {
			log := record.NewLog(&record.LogOptions{History: true})
			s := dial(t, target, &Options{Log: log, Protocol: "2025-11-25"})
			s.Walk(context.Background(), paging.Tools())
			ctx, cancel := context.WithCancel(context.Background())
			// Cancel once the first status after creation arrives.
			log.AddSink(func(ev record.Event) {
				if ev.Kind == record.KindTask && ev.Task != nil && ev.Task.Source != record.TaskCreated {
					cancel()
				}
			})
			r := s.CallTask(ctx, "render_video", json.RawMessage(`{"storyboard":"1\n2\n3\n4\n5\n6"}`), nil)
			if !r.Cancelled || r.TaskStatus != record.TaskCancelled || !errors.Is(r.Err, context.Canceled) {
				t.Fatalf("cancelled %v status %q err %v, want cancelled by tasks/cancel", r.Cancelled, r.TaskStatus, r.Err)
			}
			if sentOwn(log, "tasks/cancel") != 1 {
				t.Errorf("%d tasks/cancel sent, want 1", sentOwn(log, "tasks/cancel"))
			}
		})
	}
}

func TestCallTaskTimeoutCancels(t *testing.T) {
	t.Parallel()
	s := dial(t, demoStdio(t), &Options{Protocol: "2025-11-25"})
	s.Walk(context.Background(), paging.Tools())
	shortTimeout(s, 700*time.Millisecond)
	r := s.CallTask(context.Background(), "render_video", json.RawMessage(`{"storyboard":"1\n2\n3\n4\n5\n6"}`), nil)
	if !r.Cancelled || r.Err == nil || !strings.Contains(r.Err.Error(), "tasks/cancel sent") || errors.Is(r.Err, context.Canceled) {
		t.Fatalf("cancelled %v err %v, want the timeout to send tasks/cancel", r.Cancelled, r.Err)
	}
}

func TestCallTaskInputRequiredAnsweredByElicit(t *testing.T) {
	t.Parallel()
	for name, target := range taskTargets(t) {
		t.Run(name, func(t *testing.T) {
			s := dial(t, target, &Options{Protocol: "2025-11-25", Elicit: &ElicitAnswer{Action: ElicitAcceptDefaults}})
			s.Walk(context.Background(), paging.Tools())
			r := s.CallTask(context.Background(), "transcribe_audio", json.RawMessage(`{"url":"https://example.com/a.mp3"}`), nil)
			if r.TaskStatus != record.TaskCompleted {
				t.Fatalf("status %q err %v, want completed", r.TaskStatus, r.Err)
			}
			if !strings.Contains(string(r.Result), "[en]") {
				t.Errorf("result %s, want the language the elicitation accepted (en, its default)", r.Result)
			}
			if n := len(wireFrames(s.Log(), record.Recv, "elicitation/create")); n != 1 {
				t.Errorf("%d elicitation requests, want 1", n)
			}
			if !containsStatus(taskEvents(s.Log(), r.ID), record.TaskInputRequired) {
				t.Errorf("status history %v has no input_required", taskEvents(s.Log(), r.ID))
			}
		})
	}
}

func containsStatus(list []record.TaskStatus, st record.TaskStatus) bool {
	for _, x := range list {
		if x == st {
			return true
		}
	}
	return false
}

func TestCallTaskForbiddenIsRefused(t *testing.T) {
	t.Parallel()
	s := dial(t, demoStdio(t), &Options{Protocol: "2025-11-25"})
	s.Walk(context.Background(), paging.Tools())
	r := s.CallTask(context.Background(), "add", json.RawMessage(`{"a":1,"b":2}`), nil)
	if r.Sent || verdictOf(r.Verdicts, finding.TaskSupport) != finding.Refused {
		t.Fatalf("sent %v verdicts %+v, want a refusal before sending", r.Sent, r.Verdicts)
	}
	if sentOwn(s.Log(), "tools/call") != 0 {
		t.Error("a refused task call reached the wire")
	}
	forced := s.CallTask(context.Background(), "add", json.RawMessage(`{"a":1,"b":2}`), &TaskOptions{Force: true})
	if !forced.Sent || !forced.Forced || len(forced.RPCError) == 0 {
		t.Errorf("forced: sent %v forced %v rpcError %s, want the server's own error", forced.Sent, forced.Forced, forced.RPCError)
	}
}

func TestTasksListIsWalkedLikeTheOtherLists(t *testing.T) {
	t.Parallel()
	for name, target := range taskTargets(t) {
		t.Run(name, func(t *testing.T) {
			s := dial(t, target, &Options{Protocol: "2025-11-25"})
			s.Walk(context.Background(), paging.Tools())
			done := make(chan *CallResult)
			for range 7 {
				go func() {
					done <- s.CallTask(context.Background(), "render_video", json.RawMessage(`{"storyboard":"x","resolution":"2160p"}`), nil)
				}()
			}
			for range 7 {
				if r := <-done; r.TaskStatus != record.TaskFailed {
					t.Fatalf("task status %q (%v), want failed", r.TaskStatus, r.Err)
				}
			}
			_, res := s.Walk(context.Background(), paging.Tasks())
			if res.Incomplete != paging.Complete || len(res.Pages) != 2 || res.Count() != 7 {
				t.Fatalf("walk: %s, %d pages, %d tasks; want complete, 2 pages (5 a page), 7 tasks", res.Incomplete, len(res.Pages), res.Count())
			}
			if items := res.Pages[1].Items; len(items) != 2 {
				t.Errorf("second page has %d items, want 2", len(items))
			} else if info, err := record.ReadTask(items[0]); err != nil || info.Status != record.TaskFailed {
				t.Errorf("second page's first task %+v (%v), want a failed task", info, err)
			}
			if sentOwn(s.Log(), "tasks/list") != 2 {
				t.Errorf("%d tasks/list requests with the session's own id, want 2", sentOwn(s.Log(), "tasks/list"))
			}
			s.max = 1
			if _, res := s.Walk(context.Background(), paging.Tasks()); res.Incomplete != paging.PageLimit {
				t.Errorf("walk bounded to one page: %q, want %q", res.Incomplete, paging.PageLimit)
			}
		})
	}
}

func TestCallTaskBadAnswersNameTheCause(t *testing.T) {
	t.Parallel()
	force := &TaskOptions{Force: true}
	v2025 := &Options{Protocol: "2025-11-25"}
	s := dial(t, hostile(t, hostiletest.ModeTasksNoID), v2025)
	if r := s.CallTask(context.Background(), "echo", nil, force); r.Err == nil || !strings.Contains(r.Err.Error(), "no taskId") {
		t.Errorf("a CreateTaskResult without taskId: err %v, want it named", r.Err)
	}
	s = dial(t, hostile(t, hostiletest.ModeTasksOddStatus), v2025)
	r := s.CallTask(context.Background(), "echo", nil, force)
	if r.Err == nil || !strings.Contains(r.Err.Error(), `status "paused"`) || r.TaskID != "t1" {
		t.Errorf("tasks/get with status paused: task %q err %v, want the status named", r.TaskID, r.Err)
	}
}

func TestTasksListCursorLoopIsAFinding(t *testing.T) {
	t.Parallel()
	s := dial(t, hostile(t, hostiletest.ModeTasksLoop), &Options{Protocol: "2025-11-25"})
	_, res := s.Walk(context.Background(), paging.Tasks())
	if res.Incomplete != paging.CursorRepeated || len(res.Pages) != 3 {
		t.Errorf("walk: %q after %d pages, want cursor-repeated after 3", res.Incomplete, len(res.Pages))
	}
}
