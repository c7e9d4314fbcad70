package fold

import (
	"encoding/json"
	"slices"
	"time"

	"mcpwitness/paging"
	"mcpwitness/record"
)

// maxTasks is the most tasks kept; older ones are forgotten.
const maxTasks = 1000

// Task is one task as the session came to know it: made by a call of this
// session (Call, Tool), listed by tasks/list, or both. Tasks never change
// once made: a change replaces them.
type Task struct {
	ID            string
	Status        record.TaskStatus
	StatusMessage string
	CreatedAt     string
	LastUpdatedAt string
	// TTL is how long the server keeps the task in milliseconds, nil when
	// it did not say or said null (unlimited).
	TTL          *int64
	PollInterval int64
	// Call is the call of this session that made the task (0: none did),
	// Tool its tool.
	Call int64
	Tool string
	// Steps are the statuses the task went through, oldest first.
	Steps []TaskStep
	// First and Last are when the task was first and last heard of.
	First, Last time.Time
	// Listed says a tasks/list page listed it; Walk, Page and Gen say
	// which and the generation of its answer.
	Listed bool
	Walk   int64
	Page   int
	Gen    int64
	Raw    json.RawMessage
	// Lifecycle is the tasks protocol the task follows, as its events
	// said (empty: protocol 2025-11-25's, or only listed).
	Lifecycle record.TaskLifecycle
}

// TaskStep is one status of a task, as the server told it.
type TaskStep struct {
	T       time.Time
	Status  record.TaskStatus
	Message string
	Source  record.TaskSource
}

// Age is how long before now the task was created: from its createdAt
// when the server gave one, else from when the session first heard of it.
func (t *Task) Age(now time.Time) time.Duration {
	if at, err := time.Parse(time.RFC3339Nano, t.CreatedAt); err == nil {
		return now.Sub(at)
	}
	return now.Sub(t.First)
}

// taskBook is what the fold keeps of tasks. Like [others] it is never
// changed in place: each change makes a new one, so a clone may share it.
type taskBook struct {
	byID  map[string]*Task
	order []*Task // oldest first
}

func (b *taskBook) edit() *taskBook {
	n := &taskBook{byID: map[string]*Task{}}
	if b != nil {
		for id, t := range b.byID {
			n.byID[id] = t
		}
		n.order = slices.Clone(b.order)
	}
	return n
}

// put replaces (or adds) t.
func (b *taskBook) put(t *Task) {
	if old := b.byID[t.ID]; old != nil {
		if i := slices.Index(b.order, old); i >= 0 {
			b.order[i] = t
		}
	} else {
		b.order = append(b.order, t)
		if len(b.order) > maxTasks {
			delete(b.byID, b.order[0].ID)
			b.order = slices.Clone(b.order[1:])
		}
	}
	b.byID[t.ID] = t
}

// Tasks returns the tasks kept, oldest first.
func (s *State) Tasks() []*Task {
	if s.tasks == nil {
		return nil
	}
	return s.tasks.order
}

// Task returns the task id, or nil when it is not kept.
func (s *State) Task(id string) *Task {
	if s.tasks == nil {
		return nil
	}
	return s.tasks.byID[id]
}

// taskOf returns a copy of task id (new if unknown) to change.
func (b *taskBook) taskOf(id string, t time.Time) *Task {
	if old := b.byID[id]; old != nil {
		n := *old
		n.Steps = clip(old.Steps)
		return &n
	}
	return &Task{ID: id, First: t}
}

// fill sets what info says of the task.
func (t *Task) fill(info record.TaskInfo, at time.Time) {
	t.Status, t.StatusMessage = info.Status, info.StatusMessage
	if info.CreatedAt != "" {
		t.CreatedAt = info.CreatedAt
	}
	if info.LastUpdatedAt != "" {
		t.LastUpdatedAt = info.LastUpdatedAt
	}
	if info.TTL != nil {
		t.TTL = info.TTL
	}
	if info.PollInterval > 0 {
		t.PollInterval = info.PollInterval
	}
	if info.Lifecycle != "" {
		t.Lifecycle = info.Lifecycle
	}
	t.Last = at
}

// applyTask folds a task event: the task's new status, and the call that
// made it, which shows the status live.
func (s *State) applyTask(ev record.Event) {
	info := ev.Task
	if info == nil || info.TaskID == "" {
		return
	}
	b := s.tasks.edit()
	t := b.taskOf(info.TaskID, ev.T)
	t.fill(*info, ev.T)
	t.Raw = ev.Data
	t.Steps = append(t.Steps, TaskStep{T: ev.T, Status: info.Status, Message: info.StatusMessage, Source: info.Source})
	if info.Call != 0 {
		t.Call = info.Call
		if c := s.calls[info.Call]; c != nil {
			c = s.own(c)
			c.TaskID, c.TaskStatus, c.TaskMessage = info.TaskID, info.Status, info.StatusMessage
			c.TaskSteps++
			c.Rev++
			t.Tool = c.Tool
		}
	}
	b.put(t)
	s.tasks = b
	s.row(&Row{T: ev.T, Kind: RowTask, Level: taskLevel(info.Status), Method: "tasks", Text: ev.Text})
}

// RowTask is the row of a task's new status.
const RowTask RowKind = "task"

func taskLevel(st record.TaskStatus) Level {
	switch st {
	case record.TaskFailed:
		return LevelError
	case record.TaskCancelled, record.TaskInputRequired:
		return LevelWarn
	}
	return LevelNone
}

// applyTaskPage folds the tasks a tasks/list page listed.
func (s *State) applyTaskPage(ev record.Event) {
	if ev.Page == nil || ev.Walk == nil || (ev.Method != paging.Tasks().Name && ev.Walk.Method != paging.Tasks().Name) {
		return
	}
	b := s.tasks.edit()
	for _, raw := range ev.Items {
		info, err := record.ReadTask(raw)
		if info.TaskID == "" {
			continue
		}
		t := b.taskOf(info.TaskID, ev.T)
		if err == nil && (len(t.Steps) == 0 || t.Status != info.Status || t.StatusMessage != info.StatusMessage) {
			t.Steps = append(t.Steps, TaskStep{T: ev.T, Status: info.Status, Message: info.StatusMessage, Source: record.TaskListed})
		}
		t.fill(info, ev.T)
		t.Raw = raw
		t.Listed, t.Walk, t.Page, t.Gen = true, ev.Walk.ID, ev.Page.Number, ev.Page.Generation
		b.put(t)
	}
	s.tasks = b
}

// TaskCaps is what a server declared of tasks: protocol 2025-11-25's
// capabilities.tasks, and 2026-07-28's tasks extension.
type TaskCaps struct {
	// Declared says capabilities.tasks is there; List, Cancel and
	// ToolsCall that it lists tasks, cancels them and takes task-augmented
	// tools/call.
	Declared, List, Cancel, ToolsCall bool
	// Extension says capabilities.extensions names the
	// io.modelcontextprotocol/tasks extension, which has no tasks/list.
	Extension bool
}

// ReadTaskCaps reads capabilities.tasks and the tasks extension out of the
// raw capabilities.
func ReadTaskCaps(raw json.RawMessage) TaskCaps {
	var c struct {
		Extensions map[string]json.RawMessage
		Tasks      *struct {
			List, Cancel json.RawMessage
			Requests     struct {
				Tools struct {
					Call json.RawMessage
				}
			}
		}
	}
	if json.Unmarshal(raw, &c) != nil {
		return TaskCaps{}
	}
	_, ext := c.Extensions[record.ExtensionTasks]
	if c.Tasks == nil {
		return TaskCaps{Extension: ext}
	}
	set := func(v json.RawMessage) bool { return len(v) > 0 && string(v) != "null" }
	return TaskCaps{Declared: true, List: set(c.Tasks.List), Cancel: set(c.Tasks.Cancel), ToolsCall: set(c.Tasks.Requests.Tools.Call), Extension: ext}
}

// readTaskItem fills it, an item of tasks/list, from the task raw: its
// key and name are the task id, its description its status and message.
func readTaskItem(it *Item, raw json.RawMessage) {
	info, err := record.ReadTask(raw)
	it.Key, it.Name = info.TaskID, info.TaskID
	it.Description = string(info.Status)
	if info.StatusMessage != "" {
		it.Description += ": " + info.StatusMessage
	}
	if err != nil && it.Bad == "" {
		it.Bad = err.Error()
	}
}
