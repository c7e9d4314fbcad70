package ui

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mcpwitness/demo"
	"mcpwitness/fold"
	"mcpwitness/paging"
	"mcpwitness/record"
	"mcpwitness/session"
)

// The protocol versions whose tasks differ: 2025-11-25's tasks section,
// and 2026-07-28's io.modelcontextprotocol/tasks extension.
const (
	tasks2025 = "2025-11-25"
	tasks2026 = "2026-07-28"
)

// taskHarness dials the demo server with its task methods (in-process,
// the connection wrapped as stdio and HTTP are) on protocol version and
// opens the UI on it.
func taskHarness(t *testing.T, version string) *harness {
	t.Helper()
	return taskHarnessWith(t, version, nil)
}

// taskHarnessWith is taskHarness whose session's requests are answered by
// answerer (nil: the default, which declares nothing).
func taskHarnessWith(t *testing.T, version string, answerer session.Answerer) *harness {
	t.Helper()
	return taskHarnessStepping(t, version, answerer, nil)
}

// taskHarnessHolding is taskHarness whose demo holds the first working
// status whose message starts with held until release is called (or the
// test ends): a test that must see that status on screen sees it however
// busy the machine is.
func taskHarnessHolding(t *testing.T, version, held string) (h *harness, release func()) {
	t.Helper()
	seen := make(chan struct{})
	var once sync.Once
	release = func() { once.Do(func() { close(seen) }) }
	t.Cleanup(release)
	step := func(ctx context.Context, msg string) {
		if strings.HasPrefix(msg, held) {
			select {
			case <-seen:
			case <-ctx.Done():
			}
		}
	}
	return taskHarnessStepping(t, version, nil, step), release
}

// taskHarnessStepping is taskHarnessWith whose demo calls step after each
// working status a task's work sets (see demo.Options.TaskStep).
func taskHarnessStepping(t *testing.T, version string, answerer session.Answerer, step func(context.Context, string)) *harness {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	opts := &demo.Options{Tasks: true, TaskStep: step}
	ss, err := demo.New(opts).Connect(context.Background(), demo.TasksWith(st, opts), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	log := record.NewLog(nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := session.Dial(ctx, session.Target{Transport: ct, Name: "demo"}, &session.Options{Log: log, Timeout: time.Minute, Protocol: version, Answerer: answerer})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	h := newHarness(t, options{Backend: s})
	h.bridge(log)
	info := s.Info()
	h.feed(record.Event{Kind: record.KindConnect, Server: &info})
	h.firstWalks()
	return h
}

// refusedRender calls render_video plainly with a storyboard of n scenes,
// which the checks refuse.
func (h *harness) refusedRender(n int) *fold.Call {
	h.t.Helper()
	h.key("/")
	h.typeText("render_video")
	h.key("enter")
	h.key("esc")
	h.key("enter")
	h.key("ctrl+r")
	board, _ := json.Marshal(strings.TrimSpace(strings.Repeat("scene\n", n)))
	h.m.editor.Area.SetValue(`{"storyboard":` + string(board) + `}`)
	h.key("ctrl+s")
	h.until("the refused call", func() bool {
		c := h.m.detail.Call()
		return h.m.ops.call == nil && c != nil && c.Done
	})
	c := h.m.detail.Call()
	if c.Outcome() != fold.OutcomeRefused {
		h.t.Fatalf("render_video: %v, want refused", c.Outcome())
	}
	return c
}

func TestTaskKeyRunsTheRefusedCallAsATask(t *testing.T) {
	for _, version := range []string{tasks2025, tasks2026} {
		t.Run(version, func(t *testing.T) { testTaskKeyRuns(t, version) })
	}
}

func testTaskKeyRuns(t *testing.T, version string) {
	h, release := taskHarnessHolding(t, version, "rendering scene 1 of 3")
	refused := h.refusedRender(3)
	// T is offered wherever the keys are: the help line names it with the
	// tools pane focused, and the refusal says it.
	if s := h.screen(); h.m.focus != paneTools || !strings.Contains(s, "T run as task") || !strings.Contains(s, "T runs it as a task") {
		t.Errorf("the refusal offers no T (focus %v):\n%s", h.m.focus, s)
	}
	h.key("T")
	// The progress of a scene may show before the task's status does: wait
	// for the screen that has both.
	h.until("the task's live status", func() bool {
		s := h.screen()
		return strings.Contains(s, "rendering scene") && strings.Contains(s, "calling render_video…") && strings.Contains(s, "task task-1 working")
	})
	release()
	h.until("the task's end", func() bool { c := h.m.detail.Call(); return c != nil && c.Done && c.ID != refused.ID })
	c := h.m.detail.Call()
	if !c.AsTask || c.TaskStatus != record.TaskCompleted || c.Outcome() != fold.OutcomePass {
		t.Fatalf("task call: asTask %v status %q outcome %v", c.AsTask, c.TaskStatus, c.Outcome())
	}
	if string(c.Args) != string(refused.Args) {
		t.Errorf("args %s, want the refused call's %s", c.Args, refused.Args)
	}
	if task := h.m.St.Task(c.TaskID); task == nil || len(task.Steps) < 3 || task.Call != c.ID {
		t.Errorf("task %+v: want its statuses, tied to call %d", task, c.ID)
	}
	// The call's document shows its task, the lifecycle it followed and
	// its statuses.
	lifecycle := "protocol 2025-11-25's tasks"
	if version == tasks2026 {
		lifecycle = "the io.modelcontextprotocol/tasks extension (2026-07-28)"
	}
	h.until("the task in the call's document", func() bool {
		d := h.detailText()
		return strings.Contains(d, "Task task-1 · "+lifecycle) && strings.Contains(d, "completed: done")
	})
	if version != tasks2026 {
		return
	}
	// On 2026-07-28 the extension runs, not 2025-11-25's tasks with a
	// finding: a plain tools/call declaring it, tasks/get, no tasks/result.
	if task := h.m.St.Task(c.TaskID); task == nil || task.Lifecycle != record.LifecycleExtension {
		t.Errorf("task %+v: want the extension's lifecycle", task)
	}
	seen := map[string]int{}
	for i := 0; i < h.m.St.Frames().Len(); i++ {
		f := h.m.St.Frames().At(i)
		seen[f.Method]++
		if f.Method == "tools/call" && strings.Contains(string(f.Frame), `"task":{`) {
			t.Errorf("a tools/call carried 2025-11-25's task parameter: %s", f.Frame)
		}
	}
	if seen["tasks/get"] == 0 || seen["tasks/result"] != 0 {
		t.Errorf("frames by method %v, want tasks/get and no tasks/result", seen)
	}
	if strings.Contains(h.screen(), "2025-11-25") || strings.Contains(h.m.status.text, "2025-11-25") {
		t.Errorf("the screen speaks of 2025-11-25's tasks:\n%s", h.screen())
	}
}

func TestTaskKeyOnAToolThatForbidsTasksSays(t *testing.T) {
	h := taskHarness(t, tasks2026)
	// A tool whose input the checks refuse, without taskSupport.
	h.key("/")
	h.typeText("add")
	h.key("enter")
	h.key("esc")
	h.key("enter")
	h.key("ctrl+r")
	h.m.editor.Area.SetValue(`{"a":"not a number"}`)
	h.key("ctrl+s")
	h.until("the refused call", func() bool { c := h.m.detail.Call(); return h.m.ops.call == nil && c != nil && c.Done })
	h.key("T")
	if h.m.ops.call != nil || !strings.Contains(h.m.status.text, "does not allow tasks") {
		t.Errorf("T on add: call %v, status %q", h.m.ops.call, h.m.status.text)
	}
}

func TestEscCancelsARunningTask(t *testing.T) {
	for _, version := range []string{tasks2025, tasks2026} {
		t.Run(version, func(t *testing.T) { testEscCancels(t, version) })
	}
}

func testEscCancels(t *testing.T, version string) {
	h := taskHarness(t, version)
	h.refusedRender(10)
	h.key("T")
	h.until("the task working", func() bool { c := h.m.detail.Call(); return taskRunning(c) && c.TaskStatus == record.TaskWorking })
	h.key("esc")
	h.until("the cancelled task", func() bool { c := h.m.detail.Call(); return c != nil && c.AsTask && c.Done })
	c := h.m.detail.Call()
	if !c.Cancelled || c.TaskStatus != record.TaskCancelled {
		t.Errorf("after esc: cancelled %v status %q", c.Cancelled, c.TaskStatus)
	}
	h.until("tasks/cancel on the wire", func() bool {
		for i := 0; i < h.m.St.Frames().Len(); i++ {
			if h.m.St.Frames().At(i).Method == "tasks/cancel" {
				return true
			}
		}
		return false
	})
}

func TestTasksTabListsTasksAndShowsAResult(t *testing.T) {
	// tasks/list is 2025-11-25's; the extension has none.
	h := taskHarness(t, tasks2025)
	if tabs := h.m.tabs(); len(tabs) != 5 || tabs[4] != tabTasks {
		t.Fatalf("tabs %v, want Tasks fifth (the demo declares tasks.list)", tabs)
	}
	h.refusedRender(1)
	h.key("T")
	h.until("the task's end", func() bool { c := h.m.detail.Call(); return c != nil && c.AsTask && c.Done })
	h.until("the tasks listed again after the task", func() bool {
		w := h.m.St.Latest(paging.Tasks().Name)
		return w != nil && w.Done && h.m.items[tabTasks.item()].Count() == 1
	})
	h.key("5")
	if h.m.tab != tabTasks {
		t.Fatalf("tab %v after 5, want Tasks", h.m.tab)
	}
	h.until("tasks/list walked", func() bool {
		w := h.m.St.Latest(paging.Tasks().Name)
		return w != nil && w.Done && h.m.items[tabTasks.item()].Count() == 1 && !h.m.ops.walking()
	})
	if s := h.screen(); !strings.Contains(s, "Tasks 1") || !strings.Contains(s, "│ Task ") || !strings.Contains(s, "task-1") || !strings.Contains(s, "completed") {
		t.Errorf("Tasks tab:\n%s", s)
	}
	h.key("enter")
	h.until("tasks/result", func() bool { return h.m.ops.request == nil && strings.Contains(h.screen(), "Rendered 1 scenes") })
}

// TestGoldenRunningTask draws a call running as a task, its live status
// under the spinner, from synthetic events.
func TestGoldenRunningTask(t *testing.T) {
	h := newHarness(t, options{})
	h.update(tea.WindowSizeMsg{Width: 90, Height: 24})
	b := &evs{}
	def := tool("render_video", `"execution":{"taskSupport":"required"}`)
	h.feed(b.connect(), b.walkStart(1), b.page(1, 1, 1, "", def), b.walkDone(1, 1, 1, 1, ""))
	h.feed(b.ev(record.Event{Kind: record.KindCall, Call: &record.CallInfo{ID: 1, Tool: "render_video", State: record.PhaseStart,
		Args: json.RawMessage(`{"storyboard":"a\nb\nc\nd"}`), Listed: true, Generation: 1, AsTask: true}}))
	ttl := int64(300000)
	for _, msg := range []string{"starting", "rendering scene 2 of 4: b"} {
		h.feed(b.ev(record.Event{Kind: record.KindTask, Method: "tasks", ID: "task-7", Text: "task task-7 working: " + msg,
			Task: &record.TaskInfo{Call: 1, TaskID: "task-7", Status: record.TaskWorking, StatusMessage: msg, TTL: &ttl, PollInterval: 250, Source: record.TaskPolled}}))
	}
	h.feed(b.ev(record.Event{Kind: record.KindProgress, Progress: &record.ProgressInfo{CallID: 1, Progress: 1, Total: 4, Message: "rendering scene 2 of 4: b"}}))
	h.m.detail.ShowCall(h.m.tools.Selected(), 1)
	h.update(tea.WindowSizeMsg{Width: 90, Height: 24})
	golden.RequireEqual(t, h.screen())
}

// TestPlainCallMadeATaskShowsItsStatus calls transcribe_audio plainly on
// 2026-07-28: the server makes the call a task (the extension lets it), and
// the call's live line follows the task's status.
func TestPlainCallMadeATaskShowsItsStatus(t *testing.T) {
	h, release := taskHarnessHolding(t, tasks2026, "fetching audio")
	h.key("/")
	h.typeText("transcribe_audio")
	h.key("enter")
	h.key("esc")
	h.key("enter")
	h.key("ctrl+r")
	h.m.editor.Area.SetValue(`{"url":"https://example.com/a.mp3","language":"de"}`)
	h.key("ctrl+s")
	h.until("the task's live status", func() bool {
		c := h.m.detail.Call()
		return taskRunning(c) && strings.Contains(h.screen(), "task task-1 working")
	})
	release()
	h.until("the call's end", func() bool { c := h.m.detail.Call(); return c != nil && c.Done })
	c := h.m.detail.Call()
	if c.AsTask || c.TaskStatus != record.TaskCompleted || c.Outcome() != fold.OutcomePass {
		t.Errorf("plain call: asTask %v task status %q outcome %v, want a plain call whose task completed", c.AsTask, c.TaskStatus, c.Outcome())
	}
}

// TestExtensionTaskInputOpensTheModal calls transcribe_audio without a
// language on 2026-07-28: the server makes the call a task whose input
// request (tasks/get's inputRequests) opens the modal as any request of
// the server's does; the answer goes back with tasks/update and the task
// completes with it.
func TestExtensionTaskInputOpensTheModal(t *testing.T) {
	h := taskHarnessWith(t, tasks2026, session.NewInteractive())
	h.key("/")
	h.typeText("transcribe_audio")
	h.key("enter")
	h.key("esc")
	h.key("enter")
	h.key("ctrl+r")
	h.m.editor.Area.SetValue(`{"url":"https://example.com/a.mp3"}`)
	h.key("ctrl+s")
	h.until("the modal for the task's input request", func() bool { return h.m.mode == modeAsk && h.m.ask.current() != nil })
	if s := h.screen(); !strings.Contains(s, "elicitation/create") || !strings.Contains(s, "which language is spoken") {
		t.Errorf("the modal:\n%s", s)
	}
	h.key("ctrl+s")
	h.until("the call's end", func() bool { c := h.m.detail.Call(); return h.m.ops.call == nil && c != nil && c.Done })
	c := h.m.detail.Call()
	if c.TaskStatus != record.TaskCompleted || !strings.Contains(string(c.Result), "[en]") {
		t.Errorf("task status %q result %s, want it completed with the language accepted", c.TaskStatus, c.Result)
	}
	update := false
	for i := 0; i < h.m.St.Frames().Len(); i++ {
		update = update || h.m.St.Frames().At(i).Method == "tasks/update"
	}
	if !update {
		t.Error("no tasks/update on the wire")
	}
}
