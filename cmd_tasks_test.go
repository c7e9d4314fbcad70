package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"mcpwitness/demo"
	"mcpwitness/record"
)

// taskCallOut is what the tests read of call --task --json.
type taskCallOut struct {
	Sent     bool
	Verdicts []struct{ Check, Status string }
	Result   json.RawMessage
	Error    json.RawMessage
	Task     *struct {
		TaskID  string
		Status  string
		TTL     *int64 `json:"ttlMs"`
		History []struct{ Status, Source string }
	}
}

func readTaskCall(t *testing.T, out string) taskCallOut {
	t.Helper()
	var doc taskCallOut
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	return doc
}

func verdictStatus(doc taskCallOut, check string) string {
	for _, v := range doc.Verdicts {
		if v.Check == check {
			return v.Status
		}
	}
	return ""
}

// v2025 asks for protocol 2025-11-25, whose tasks section the tests
// named so follow; without it the demo negotiates 2026-07-28, where tasks
// are the io.modelcontextprotocol/tasks extension.
var v2025 = []string{"--protocol", "2025-11-25"}

func TestCallTaskCommand(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		args   []string
		code   int
		status string // the task's last status; "" for no task
		sent   bool
	}{
		{"completes", []string{"render_video", "storyboard=a", "--task", "--task-ttl", "90s"}, exitOK, "completed", true},
		{"fails with an isError result", []string{"render_video", "storyboard=a", "resolution=2160p", "--task"}, exitToolError, "failed", true},
		{"optional runs as a task", []string{"transcribe_audio", "url=x", "language=de", "--task"}, exitOK, "completed", true},
		{"forbidden is refused", []string{"add", "a=1", "b=2", "--task"}, exitCheck, "", false},
		{"forbidden forced gets the server's error", []string{"add", "a=1", "b=2", "--task", "--force"}, exitConnect, "", true},
		{"timeout cancels", []string{"render_video", "storyboard=" + strings.Repeat("scene\n", 40), "--task", "--timeout", "4s"}, exitConnect, "cancelled", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, stderr := runCLI(t, append(append([]string{"call", "--json"}, v2025...), tc.args...)...)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr: %s", code, tc.code, stderr)
			}
			doc := readTaskCall(t, out)
			if doc.Sent != tc.sent {
				t.Errorf("sent %v, want %v", doc.Sent, tc.sent)
			}
			switch {
			case tc.status == "" && doc.Task != nil:
				t.Errorf("a task %+v, want none", doc.Task)
			case tc.status != "" && (doc.Task == nil || doc.Task.Status != tc.status || len(doc.Task.History) == 0):
				t.Fatalf("task %+v, want one with status %s and its history", doc.Task, tc.status)
			}
			if !tc.sent && verdictStatus(doc, "task-support") != "refused" {
				t.Errorf("task-support %q, want refused", verdictStatus(doc, "task-support"))
			}
			if tc.status == "cancelled" && !strings.Contains(string(doc.Error), "tasks/cancel sent") {
				t.Errorf("error %s, want it to say tasks/cancel was sent", doc.Error)
			}
			if tc.name == "completes" && (doc.Task.TTL == nil || *doc.Task.TTL != 90000) {
				t.Errorf("ttl %v, want the 90000 ms asked for", doc.Task.TTL)
			}
		})
	}
}

func TestCallTaskAnswersInputRequiredWithElicit(t *testing.T) {
	t.Parallel()
	code, out, stderr := runCLI(t, "call", "--json", "--protocol", "2025-11-25", "transcribe_audio", "url=x", "--task", "--elicit", "accept-defaults")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	doc := readTaskCall(t, out)
	if !strings.Contains(string(doc.Result), "[en]") {
		t.Errorf("result %s, want the language accepted by --elicit accept-defaults", doc.Result)
	}
	var sawInput bool
	for _, h := range doc.Task.History {
		sawInput = sawInput || h.Status == "input_required"
	}
	if !sawInput {
		t.Errorf("history %+v has no input_required", doc.Task.History)
	}
}

// call --task prints each status of the task as it comes. The demo holds
// the intermediate status until the test has read its line, so a machine
// too busy to poll in time cannot skip it: on 2025-11-25 (statuses
// notified) and on 2026-07-28 (the extension, polled).
func TestCallTaskPrintsStatusLive(t *testing.T) {
	t.Parallel()
	for _, protocol := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(protocol, func(t *testing.T) {
			const held = "rendering scene 1 of 2: a"
			seen := make(chan struct{})
			srv := httptest.NewServer(demo.Handler(&demo.Options{TaskStep: func(ctx context.Context, msg string) {
				if msg == held {
					select {
					case <-seen:
					case <-ctx.Done():
					}
				}
			}}))
			t.Cleanup(srv.Close)
			out := liveOutput(t, seen, "task task-1 working: "+held,
				"call", "render_video", "storyboard=a\nb", "--task", "--protocol", protocol, "--url", srv.URL+"/mcp")
			assertSays(t, "call --task", out, "task task-1 working: "+held, "task task-1 completed", "Rendered 2 scenes")
		})
	}
	code, out, _ := runCLI(t, "call", "render_video", "storyboard=a")
	if code != exitCheck || !strings.Contains(out, "--task runs it as a task") {
		t.Errorf("a refused plain call (exit %d) does not offer --task:\n%s", code, out)
	}
}

// liveOutput runs mcpwitness with args and returns its stdout, closing
// seen once a line of it holds want, while it still runs.
func liveOutput(t *testing.T, seen chan struct{}, want string, args ...string) string {
	t.Helper()
	pr, pw := io.Pipe()
	var out strings.Builder
	read := make(chan struct{})
	go func() {
		defer close(read)
		sc := bufio.NewScanner(pr)
		once := false
		for sc.Scan() {
			out.WriteString(sc.Text() + "\n")
			if !once && strings.Contains(sc.Text(), want) {
				once = true
				close(seen)
			}
		}
		_, _ = io.Copy(io.Discard, pr)
	}()
	var stderr bytes.Buffer
	code := run(append([]string{"--timeout", "60s"}, args...), pw, &stderr)
	pw.Close()
	<-read
	if code != exitOK {
		t.Errorf("exit %d: %s", code, stderr.String())
	}
	return out.String()
}

func TestTaskFlagsAreForCall(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"tools", "--task"}, {"call", "add", "--task-ttl", "5s"}, {"call", "add", "--task", "--task-ttl", "soon"}} {
		if code, _, _ := runCLI(t, args...); code != exitUsage {
			t.Errorf("%q: exit %d, want %d", args, code, exitUsage)
		}
	}
}

func TestTasksCommandWalksTasksList(t *testing.T) {
	t.Parallel()
	code, out, stderr := runCLI(t, append([]string{"tasks", "--json"}, v2025...)...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc struct {
		Walk *struct {
			Method   string
			Complete bool
			Pages    int
		}
		Tasks []json.RawMessage
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if doc.Walk == nil || doc.Walk.Method != "tasks/list" || !doc.Walk.Complete || doc.Walk.Pages != 1 || doc.Tasks == nil {
		t.Errorf("walk %+v tasks %v, want one complete tasks/list walk of a page", doc.Walk, doc.Tasks)
	}
}

func TestCallTaskCommandOnTheExtension(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		args   []string
		code   int
		status string // the task's last status; "" for no task
	}{
		{"completes", []string{"render_video", "storyboard=a\nb", "--task"}, exitOK, "completed"},
		{"fails with its JSON-RPC error", []string{"render_video", "storyboard=a", "resolution=2160p", "--task"}, exitConnect, "failed"},
		{"a plain call the server makes a task", []string{"transcribe_audio", "url=x", "language=de"}, exitOK, "completed"},
		{"input_required answered by --elicit", []string{"transcribe_audio", "url=x", "--task", "--elicit", "accept-defaults"}, exitOK, "completed"},
		{"timeout cancels", []string{"render_video", "storyboard=" + strings.Repeat("scene\n", 40), "--task", "--timeout", "4s"}, exitConnect, "cancelled"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, stderr := runCLI(t, append([]string{"call", "--json"}, tc.args...)...)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr: %s", code, tc.code, stderr)
			}
			doc := readTaskCall(t, out)
			if doc.Task == nil || doc.Task.Status != tc.status || len(doc.Task.History) == 0 {
				t.Fatalf("task %+v, want one with status %s and its history", doc.Task, tc.status)
			}
			switch tc.name {
			case "fails with its JSON-RPC error":
				if !strings.Contains(string(doc.Error), "GPU encoder") {
					t.Errorf("error %s, want the task's JSON-RPC error", doc.Error)
				}
			case "input_required answered by --elicit":
				if !strings.Contains(string(doc.Result), "[en]") {
					t.Errorf("result %s, want the language accepted by --elicit accept-defaults", doc.Result)
				}
			case "timeout cancels":
				if !strings.Contains(string(doc.Error), "tasks/cancel sent") {
					t.Errorf("error %s, want it to say tasks/cancel was sent", doc.Error)
				}
			}
		})
	}
	code, out, stderr := runCLI(t, "call", "render_video", "storyboard=a\nb", "--task")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	assertSays(t, "call --task on the extension", out, "task task-1 working", "task task-1 completed", "Rendered 2 scenes")
	if strings.Contains(out, "2025-11-25") {
		t.Errorf("call --task on 2026-07-28 speaks of 2025-11-25's tasks:\n%s", out)
	}
}

func TestTasksCommandOnTheExtensionSaysThereIsNoList(t *testing.T) {
	t.Parallel()
	code, out, stderr := runCLI(t, "tasks")
	if code != exitUsage || !strings.Contains(stderr, "has no tasks/list") || !strings.Contains(stderr, "--protocol 2025-11-25") {
		t.Errorf("tasks on 2026-07-28: exit %d, stderr %q, want %d and the extension's missing tasks/list named", code, stderr, exitUsage)
	}
	if strings.Contains(out, "tasks/list") && !strings.Contains(out, "no tasks/list") {
		t.Errorf("stdout %q", out)
	}
}

// A task's status is printed once however often the server tells it: a
// server that notifies the status its CreateTaskResult gave (the
// TypeScript SDK's servers do) printed the first status twice.
func TestLiveTaskLinesPrintEachStatusOnce(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	a := &app{cfg: &config{}, log: record.NewLog(nil), pr: newPrinter(&out, false, nil)}
	defer a.log.Close()
	a.liveTaskLines()
	status := func(st record.TaskStatus, msg string, src record.TaskSource) {
		a.log.Append(record.Event{Kind: record.KindTask, Task: &record.TaskInfo{TaskID: "t1", Status: st, StatusMessage: msg, Source: src}})
	}
	status(record.TaskWorking, "starting", record.TaskCreated)
	status(record.TaskWorking, "starting", record.TaskNotified)
	status(record.TaskWorking, "scene 1", record.TaskNotified)
	status(record.TaskWorking, "scene 1", record.TaskPolled)
	status(record.TaskCompleted, "done", record.TaskNotified)
	want := "task t1 working: starting\ntask t1 working: scene 1\ntask t1 completed: done\n"
	if out.String() != want {
		t.Errorf("printed:\n%s\nwant:\n%s", out.String(), want)
	}
}
