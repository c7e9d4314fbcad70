package ui

import (
	"context"
	"encoding/json"
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"mcpwitness/fold"
	"mcpwitness/paging"
	"mcpwitness/sanitize"
	"mcpwitness/session"
)

// taskBackend is a [Backend] that runs tools as tasks and fetches task
// results ([session.Session] is one). A backend without it offers no
// tasks.
type taskBackend interface {
	CallTask(ctx context.Context, name string, args json.RawMessage, opts *session.TaskOptions) *session.CallResult
	TaskResult(ctx context.Context, id string) *session.RequestResult
}

// taskKey handles the keys of tasks before the panes see them: T runs the
// call shown (refused, or made plainly) again as a task, 5 (or the Tasks tab's number) opens the
// Tasks tab and lists the tasks the first time, and Enter on a task
// fetches its result. ok is false for any other key.
func (m *model) taskKey(msg tea.KeyPressMsg) (cmd tea.Cmd, ok bool) {
	if m.mode != modeNormal {
		return nil, false
	}
	switch {
	case m.tab == tabTools && key.Matches(msg, m.keys.Detail.Task):
		return m.runAsTask(), true
	case key.Matches(msg, m.keys.Global.Tabs):
		n := int(msg.String()[0] - '1')
		if tabs := m.tabs(); n < len(tabs) && tabs[n] == tabTasks {
			m.switchTab(n)
			return m.listTasksOnce(), true
		}
	case m.tab == tabTasks && (m.focus == paneTools && key.Matches(msg, m.keys.Items.Open) ||
		m.focus == paneDetail && key.Matches(msg, m.keys.Item.Open)):
		if m.declared.ownTasks {
			return m.openTaskCall(), true
		}
		return m.fetchTaskResult(), true
	case m.tab == tabTasks && m.declared.ownTasks && key.Matches(msg, m.keys.Global.Walk):
		return m.setStatus("the tasks extension has no tasks/list: these are this session's own tasks, kept as they change", levelInfo), true
	}
	return nil, false
}

// taskTool is the tool of the call shown when the call has ended (refused,
// or made plainly of a task-optional tool) and the tool may run as a task,
// else nil: T runs it again as a task, with the same arguments.
func (m *model) taskTool() *fold.Tool {
	t, c := m.detail.Tool(), m.detail.Call()
	if t == nil || c == nil || !c.Done || !mayRunAsTask(t) {
		return nil
	}
	return t
}

// mayRunAsTask says whether t's taskSupport lets a client ask for a task.
func mayRunAsTask(t *fold.Tool) bool {
	return t != nil && (t.TaskSupport == "required" || t.TaskSupport == "optional")
}

// runAsTask runs the tool of the call shown as a task, with the same
// arguments. Esc cancels it like any call (tasks/cancel goes out).
func (m *model) runAsTask() tea.Cmd {
	t := m.taskTool()
	if t == nil {
		if c := m.detail.Call(); c != nil && c.Done {
			return m.setStatus(sanitize.Line(c.Tool)+" does not allow tasks (its taskSupport): f sends the plain call anyway", levelWarn)
		}
		return nil
	}
	if cmd, ok := m.unable("run " + t.Name + " as a task"); ok {
		return cmd
	}
	tb, ok := m.backend.(taskBackend)
	if !ok {
		return m.setStatus("this connection cannot run tasks", levelWarn)
	}
	if c := m.ops.call; c != nil {
		return m.setStatus("a call to "+c.tool+" is in flight; esc cancels it", levelError)
	}
	args := json.RawMessage("{}")
	if c := m.detail.Call(); len(c.Args) > 0 {
		args = c.Args
	}
	ctx, cancel := context.WithCancel(m.o.Ctx)
	m.ops.call = &callOp{tool: t.Name, cancel: cancel, awaiting: true}
	if m.lay.stacked {
		m.setFocus(paneDetail)
	}
	name := t.Name
	return m.o.Tasks.cmd(func() tea.Msg {
		defer cancel()
		return callDoneMsg{tool: name, res: tb.CallTask(ctx, name, args, nil)}
	})
}

// listTasksOnce walks tasks/list when the Tasks tab has not been listed
// yet.
func (m *model) listTasksOnce() tea.Cmd {
	if m.backend == nil || m.declared.ownTasks || m.St.Latest(paging.Tasks().Name) != nil || m.ops.walks[paging.Tasks().Name] != nil {
		return nil
	}
	return m.startWalk(paging.Tasks())
}

// afterTaskCall lists the tasks again once a call made as a task ended,
// when the server lists them.
func (m *model) afterTaskCall(msg callDoneMsg) tea.Cmd {
	if msg.res == nil || !msg.res.AsTask || msg.res.TaskID == "" || !slices.Contains(m.tabs(), tabTasks) || m.declared.ownTasks || m.backend == nil {
		return nil
	}
	if w := m.ops.walks[paging.Tasks().Name]; w != nil {
		w.again = true
		return nil
	}
	return m.startWalk(paging.Tasks())
}

// fetchTaskResult asks for the result of the task selected (tasks/result);
// it shows in the item pane, as a read or a get does.
func (m *model) fetchTaskResult() tea.Cmd {
	it := m.items[tabTasks.item()].Selected()
	if it == nil || it.Key == "" {
		return nil
	}
	tb, ok := m.backend.(taskBackend)
	if !ok && m.backend != nil {
		return m.setStatus("this connection cannot ask for task results", levelWarn)
	}
	id := it.Key
	return m.request(session.MethodTaskResult, id, func(ctx context.Context, _ Backend) *session.RequestResult {
		return tb.TaskResult(ctx, id)
	})
}

// taskLine is the live line of a call running as a task: its task and
// status, once the server made it.
func taskLine(c *fold.Call) string {
	if c.TaskID == "" {
		return "task: asking the server for one…"
	}
	s := "task " + c.TaskID + " " + string(c.TaskStatus)
	if c.TaskMessage != "" {
		s += ": " + c.TaskMessage
	}
	return sanitize.Line(s)
}

// taskRunning says whether c is a call running as a task: made as one,
// or a plain call the server made a task (the tasks extension of
// 2026-07-28 lets it).
func taskRunning(c *fold.Call) bool { return c != nil && !c.Done && (c.AsTask || c.TaskID != "") }
