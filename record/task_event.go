package record

import (
	"encoding/json"
	"fmt"
	"time"
)

// TaskStatus is the status of a task as the specification's tasks section
// (protocol 2025-11-25) names it.
type TaskStatus string

// The statuses of a task.
const (
	TaskWorking       TaskStatus = "working"
	TaskInputRequired TaskStatus = "input_required"
	TaskCompleted     TaskStatus = "completed"
	TaskFailed        TaskStatus = "failed"
	TaskCancelled     TaskStatus = "cancelled"
)

// Terminal reports whether the status is one a task never leaves.
func (st TaskStatus) Terminal() bool {
	return st == TaskCompleted || st == TaskFailed || st == TaskCancelled
}

// known reports whether st is one of the specification's statuses.
func (st TaskStatus) known() bool {
	return st == TaskWorking || st == TaskInputRequired || st.Terminal()
}

// TaskSource says how a task's status came to be known.
type TaskSource string

// The sources of a task event.
const (
	TaskCreated  TaskSource = "created"      // the CreateTaskResult answering tools/call
	TaskPolled   TaskSource = "get"          // a tasks/get answer
	TaskNotified TaskSource = "notification" // notifications/tasks/status
	TaskCancel   TaskSource = "cancel"       // the tasks/cancel answer
	TaskListed   TaskSource = "list"         // a tasks/list page (the walk's page event carries it; this is no event)
)

// TaskInfo is what a task event says: one status of one task, as the server
// told it, and the call that made the task (0 when this session did not).
// In JSON:
//
//	{"call":3,"taskId":"t-1","status":"working","statusMessage":"scene 2 of 4",
//	 "createdAt":"2026-01-01T10:00:00Z","ttl":60000,"pollInterval":500,"source":"get"}
type TaskInfo struct {
	Call          int64      `json:"call,omitempty"`
	TaskID        string     `json:"taskId"`
	Status        TaskStatus `json:"status"`
	StatusMessage string     `json:"statusMessage,omitempty"`
	CreatedAt     string     `json:"createdAt,omitempty"`
	LastUpdatedAt string     `json:"lastUpdatedAt,omitempty"`
	// TTL is how long the server keeps the task, in milliseconds; nil when
	// it did not say (null means unlimited).
	TTL *int64 `json:"ttl,omitempty"`
	// PollInterval is the server's suggested polling interval in
	// milliseconds; 0 when it gave none.
	PollInterval int64      `json:"pollInterval,omitempty"`
	Source       TaskSource `json:"source"`
	// Lifecycle is the tasks protocol the task follows; empty means
	// [LifecycleTasks2025].
	Lifecycle TaskLifecycle `json:"lifecycle,omitempty"`
}

// TaskLifecycle names the tasks protocol a task follows.
type TaskLifecycle string

// The lifecycles of a task.
const (
	// LifecycleTasks2025 is the tasks section of protocol 2025-11-25:
	// tools/call with a task parameter, tasks/get, tasks/result,
	// tasks/cancel, tasks/list.
	LifecycleTasks2025 TaskLifecycle = "2025-11-25"
	// LifecycleExtension is the io.modelcontextprotocol/tasks extension
	// (SEP-2663, protocol 2026-07-28): the server answers tools/call with
	// resultType "task"; tasks/get carries input requests, the result or
	// the error; tasks/update answers; tasks/cancel; no tasks/list.
	LifecycleExtension TaskLifecycle = "io.modelcontextprotocol/tasks"
)

// ReadTask reads a task object (the "task" member of a CreateTaskResult, a
// tasks/get or tasks/cancel result, an item of tasks/list or the params of
// notifications/tasks/status; on the extension, the CreateTaskResult and
// the tasks/get result themselves, with ttlMs and pollIntervalMs). The
// error names what is missing or wrong.
func ReadTask(raw json.RawMessage) (TaskInfo, error) {
	var t struct {
		TaskID        *string         `json:"taskId"`
		Status        *string         `json:"status"`
		StatusMessage string          `json:"statusMessage"`
		CreatedAt     string          `json:"createdAt"`
		LastUpdatedAt string          `json:"lastUpdatedAt"`
		TTL           json.RawMessage `json:"ttl"`
		PollInterval  *float64        `json:"pollInterval"`
		// The extension (io.modelcontextprotocol/tasks) names them so.
		TTLMs          json.RawMessage `json:"ttlMs"`
		PollIntervalMs *float64        `json:"pollIntervalMs"`
	}
	if err := json.Unmarshal(raw, &t); err != nil {
		return TaskInfo{}, fmt.Errorf("the task is not an object with the fields of a task: %v", err)
	}
	if t.TaskID == nil || *t.TaskID == "" {
		return TaskInfo{}, fmt.Errorf("the task has no taskId")
	}
	info := TaskInfo{TaskID: *t.TaskID, StatusMessage: t.StatusMessage, CreatedAt: t.CreatedAt, LastUpdatedAt: t.LastUpdatedAt}
	if t.Status == nil {
		return info, fmt.Errorf("task %q has no status", info.TaskID)
	}
	info.Status = TaskStatus(*t.Status)
	if len(t.TTL) == 0 {
		t.TTL = t.TTLMs
	}
	if t.PollInterval == nil {
		t.PollInterval = t.PollIntervalMs
	}
	if len(t.TTL) > 0 && string(t.TTL) != "null" {
		var ttl float64
		if json.Unmarshal(t.TTL, &ttl) == nil {
			n := int64(ttl)
			info.TTL = &n
		}
	}
	if t.PollInterval != nil && *t.PollInterval > 0 {
		info.PollInterval = int64(*t.PollInterval)
	}
	if !info.Status.known() {
		return info, fmt.Errorf("task %q has status %q, which the specification does not name (working, input_required, completed, failed, cancelled)", info.TaskID, info.Status)
	}
	return info, nil
}

// Created returns when the task was created, if the server said so in
// RFC 3339.
func (t TaskInfo) Created() (time.Time, bool) {
	at, err := time.Parse(time.RFC3339Nano, t.CreatedAt)
	return at, err == nil
}
