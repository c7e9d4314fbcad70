package hostiletest

// The modes of testdata/hostile/tasks.go: the task methods (protocol
// 2025-11-25) misbehaving; tools listed as in normal mode.
const (
	// ModeTasksNoID answers a task-augmented tools/call with a
	// CreateTaskResult whose task has no taskId.
	ModeTasksNoID = "tasks-no-id"
	// ModeTasksOddStatus creates task "t1", then answers tasks/get with
	// status "paused", which the specification does not name.
	ModeTasksOddStatus = "tasks-odd-status"
	// ModeTasksLoop pages tasks/list 1 → "A" → "B" → "A".
	ModeTasksLoop = "tasks-loop"
	// ModeTasksEarlyResult creates task "t1" input_required, answers
	// tasks/get with input_required for ever and tasks/result at once, as
	// if the task had ended.
	ModeTasksEarlyResult = "tasks-early-result"
)
