package ui

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"mcpwitness/fold"
	"mcpwitness/paging"
	"mcpwitness/record"
	"mcpwitness/session"
)

// On 2026-07-28 the tasks extension has no tasks/list: the Tasks tab shows
// the tasks of the session's own calls, says so, asks the server nothing,
// and enter opens the call that made one, with its result or error.
func TestOwnTasksTabOnTheExtension(t *testing.T) {
	h := taskHarness(t, tasks2026)
	if tabs := h.m.tabs(); len(tabs) != 5 || tabs[4] != tabTasks || !h.m.declared.ownTasks {
		t.Fatalf("tabs %v own %v, want Tasks fifth, of the session's own tasks", tabs, h.m.declared.ownTasks)
	}
	h.refusedRender(1)
	h.key("T")
	h.until("the task's end", func() bool { c := h.m.detail.Call(); return c != nil && c.AsTask && c.Done })
	done := h.m.detail.Call().ID
	// A task that fails: the demo fails a render at 2160p with a
	// JSON-RPC error.
	h.key("esc")
	h.key("enter")
	h.key("ctrl+r")
	h.m.editor.Area.SetValue(`{"storyboard":"a","resolution":"2160p"}`)
	h.key("ctrl+s")
	// The call's events can come before its end: T waits for the end.
	h.until("the refused call", func() bool {
		c := h.m.detail.Call()
		return h.m.ops.call == nil && c != nil && c.Done && c.ID > done
	})
	h.key("T")
	h.until("the failed task", func() bool {
		c := h.m.detail.Call()
		return h.m.ops.call == nil && c != nil && c.AsTask && c.Done && c.ID > done && c.TaskStatus == record.TaskFailed
	})
	h.key("5")
	if h.m.tab != tabTasks {
		t.Fatalf("tab %v after 5, want Tasks", h.m.tab)
	}
	s := h.screen()
	for _, want := range []string{"This session's tasks 2", "no tasks/list", "task-1", "completed", "failed", "render_video", "enter open call"} {
		if !strings.Contains(s, want) {
			t.Errorf("the Tasks tab lacks %q:\n%s", want, s)
		}
	}
	// The failed task is the second row: its document shows the error.
	h.key("down")
	h.until("the failed task's document", func() bool {
		d := strings.Join(h.m.item.Sc.Lines, "\n")
		return strings.Contains(d, "a task of this session's own call") && strings.Contains(d, "Error") && strings.Contains(d, "2160p")
	})
	h.key("r")
	if !strings.Contains(h.m.status.text, "no tasks/list") {
		t.Errorf("r in the Tasks tab said %q", h.m.status.text)
	}
	h.key("up")
	h.key("enter")
	if h.m.tab != tabTools || h.m.focus != paneDetail || h.m.detail.CallID() != done {
		t.Fatalf("enter on task-1: tab %v focus %v call %d, want the Tools tab's detail of call %d", h.m.tab, h.m.focus, h.m.detail.CallID(), done)
	}
	if d := h.detailText(); !strings.Contains(d, "Rendered 1 scenes") {
		t.Errorf("the call's document lacks its result:\n%s", d)
	}
	for i := 0; i < h.m.St.Frames().Len(); i++ {
		if f := h.m.St.Frames().At(i); f.Method == paging.Tasks().Name || f.Method == "tasks/result" {
			t.Errorf("%s went out on the extension: %s", f.Method, f.Frame)
		}
	}
}

// extTask is an event of task id of call (on the tasks extension) in
// status st.
func (b *evs) extTask(call int64, id string, st record.TaskStatus, msg string, src record.TaskSource) record.Event {
	ttl := int64(60000)
	return b.ev(record.Event{Kind: record.KindTask, Method: "tasks", ID: id, Text: "task " + id + " " + string(st),
		Task: &record.TaskInfo{Call: call, TaskID: id, Status: st, StatusMessage: msg, TTL: &ttl, PollInterval: 250,
			Source: src, Lifecycle: record.LifecycleExtension, CreatedAt: t0.Format("2006-01-02T15:04:05.000Z07:00")},
		Data: json.RawMessage(`{"taskId":"` + id + `","status":"` + string(st) + `","ttlMs":60000}`)})
}

// renderCallStart is the start of call id of render_video as a task.
func (b *evs) renderCallStart(id int64, args string) record.Event {
	return b.ev(record.Event{Kind: record.KindCall, Call: &record.CallInfo{ID: id, Tool: "render_video", State: record.PhaseStart,
		Args: json.RawMessage(args), Listed: true, Generation: 1, AsTask: true}})
}

// renderTask is call id of render_video made task "task-ID", working
// and then completed with result.
func (b *evs) renderTask(id int64, result string) []record.Event {
	tid := fmt.Sprintf("task-%d", id)
	return []record.Event{b.renderCallStart(id, `{"storyboard":"title card"}`),
		b.extTask(id, tid, record.TaskWorking, "rendering scene 1 of 1", record.TaskCreated),
		b.extTask(id, tid, record.TaskCompleted, "done", record.TaskPolled),
		b.ev(record.Event{Kind: record.KindCall, Call: &record.CallInfo{ID: id, Tool: "render_video", State: record.PhaseDone, Sent: true,
			Listed: true, AsTask: true, TaskID: tid, TaskStatus: record.TaskCompleted, Ms: 900, Result: json.RawMessage(result)}})}
}

// extTaskHarness is a harness at 110×30 on a 2026-07-28 session with the
// tasks extension whose one tool, render_video, requires a task, and the
// builder of its events.
func extTaskHarness(t *testing.T) (*harness, *evs) {
	t.Helper()
	h := newHarness(t, options{})
	h.update(tea.WindowSizeMsg{Width: 110, Height: 30})
	b := &evs{}
	conn := b.connect()
	conn.Server.ProtocolVersion = "2026-07-28"
	conn.Server.Capabilities = json.RawMessage(`{"tools":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}`)
	h.feed(conn, b.walkStart(1), b.page(1, 1, 1, "", tool("render_video", `"execution":{"taskSupport":"required"}`)), b.walkDone(1, 1, 1, 1, ""))
	return h, b
}

// TestGoldenOwnTasksTab draws the Tasks tab of a 2026-07-28 session from
// synthetic events: a completed task and a failed one, each with its
// call, status, ttl, and the completed one's document.
func TestGoldenOwnTasksTab(t *testing.T) {
	h, b := extTaskHarness(t)
	task, start := b.extTask, b.renderCallStart
	h.feed(b.renderTask(1, `{"content":[{"type":"text","text":"Rendered 1 scenes"}]}`)...)
	h.feed(start(2, `{"storyboard":"a","resolution":"2160p"}`),
		task(2, "task-2", record.TaskWorking, "", record.TaskCreated),
		task(2, "task-2", record.TaskFailed, "2160p is not supported", record.TaskPolled),
		b.ev(record.Event{Kind: record.KindCall, Call: &record.CallInfo{ID: 2, Tool: "render_video", State: record.PhaseDone, Sent: true,
			Listed: true, AsTask: true, TaskID: "task-2", TaskStatus: record.TaskFailed, Ms: 300,
			RPCError: json.RawMessage(`{"code":-32603,"message":"2160p is not supported"}`)}}))
	// The server lists tools alone: Tasks is the second tab.
	h.key("2")
	if h.m.tab != tabTasks {
		t.Fatalf("tab %v after 2, want Tasks", h.m.tab)
	}
	golden.RequireEqual(t, h.screen())
}

// On 2025-11-25 a task-optional tool is called plainly; T runs the same
// call again as a task. transcribe_audio without a language then asks for
// it while input_required: the modal answers it (tasks/result carries the
// request), and the task completes with the answer.
func TestTaskKeyRunsAPlainCallAsATaskThatAsksForInput(t *testing.T) {
	h := taskHarnessWith(t, tasks2025, session.NewInteractive())
	h.key("/")
	h.typeText("transcribe_audio")
	h.key("enter")
	h.key("esc")
	h.key("enter")
	h.key("ctrl+r")
	h.m.editor.Area.SetValue(`{"url":"https://example.com/a.mp3"}`)
	h.key("ctrl+s")
	// A plain call asks nothing: the demo detects the language.
	h.until("the plain call's end", func() bool { c := h.m.detail.Call(); return h.m.ops.call == nil && c != nil && c.Done })
	plain := h.m.detail.Call()
	if plain.AsTask || plain.TaskID != "" || !strings.Contains(string(plain.Result), "en (detected)") {
		t.Fatalf("plain call: asTask %v task %q result %s", plain.AsTask, plain.TaskID, plain.Result)
	}
	if s := h.screen(); !strings.Contains(s, "T run as task") {
		t.Errorf("a finished call of a task-optional tool offers no T:\n%s", s)
	}
	h.key("T")
	h.until("the task's request", func() bool { return h.m.mode == modeAsk && h.m.ask.current() != nil })
	for h.m.ask.form.Fields[h.m.ask.form.Focus].Name != "language" {
		h.key("tab")
	}
	h.key("right") // en → de
	h.until("the live check", func() bool { c := h.m.ask.form.Checked; return c != nil && len(c.Errs) == 0 })
	h.key("ctrl+s")
	h.until("the task's end", func() bool {
		c := h.m.detail.Call()
		return h.m.ops.call == nil && c != nil && c.ID != plain.ID && c.Done
	})
	c := h.m.detail.Call()
	if !c.AsTask || c.TaskStatus != record.TaskCompleted || !strings.Contains(string(c.Result), "[de]") || string(c.Args) != string(plain.Args) {
		t.Errorf("task call: asTask %v status %q args %s result %s, want the plain call's arguments, completed in de", c.AsTask, c.TaskStatus, c.Args, c.Result)
	}
	if task := h.m.St.Task(c.TaskID); task == nil || !slices.ContainsFunc(task.Steps, func(s fold.TaskStep) bool { return s.Status == record.TaskInputRequired }) {
		t.Errorf("task %+v: no input_required status", task)
	}
}
