package main

import (
	"encoding/json"
	"fmt"
)

// The modes of this file: the task methods (protocol 2025-11-25)
// misbehaving. Tools are listed as in normal mode; a task-augmented
// tools/call is answered here.
//
//	tasks-no-id     answers a task-augmented tools/call with a
//	                CreateTaskResult whose task has no taskId.
//	tasks-odd-status answers tools/call with task "t1" working, then
//	                tasks/get with status "paused", which the specification
//	                does not name.
//	tasks-loop      tasks/list pages 1 → "A" → "B" → "A", one task a page.
//	tasks-early-result answers tools/call with task "t1" input_required,
//	                tasks/get with input_required for ever, and tasks/result
//	                at once with a result, as if the task had ended.
const (
	modeTasksNoID        = "tasks-no-id"
	modeTasksOddStatus   = "tasks-odd-status"
	modeTasksLoop        = "tasks-loop"
	modeTasksEarlyResult = "tasks-early-result"
)

// tasksTheme holds the modes of this file.
func tasksTheme() theme {
	return theme{modes: []string{modeTasksNoID, modeTasksOddStatus, modeTasksLoop, modeTasksEarlyResult}, handle: handleTasks}
}

// hostileTask is a task as the protocol writes it.
func hostileTask(id, status string) map[string]any {
	return map[string]any{"taskId": id, "status": status, "createdAt": "2026-01-01T00:00:00Z",
		"lastUpdatedAt": "2026-01-01T00:00:00Z", "ttl": 60000, "pollInterval": 100}
}

func handleTasks(s *server, req request) bool {
	if len(req.ID) == 0 {
		return false
	}
	switch req.Method {
	case "tools/call":
		var p struct {
			Task json.RawMessage `json:"task"`
		}
		if json.Unmarshal(req.Params, &p) != nil || len(p.Task) == 0 {
			return false
		}
		task := hostileTask("t1", "working")
		switch s.cfg.mode {
		case modeTasksNoID:
			delete(task, "taskId")
		case modeTasksEarlyResult:
			task["status"] = "input_required"
		}
		s.reply(req.ID, map[string]any{"task": task})
	case "tasks/get":
		if s.cfg.mode == modeTasksEarlyResult {
			s.reply(req.ID, hostileTask("t1", "input_required"))
			return true
		}
		s.reply(req.ID, hostileTask("t1", "paused"))
	case "tasks/result":
		if s.cfg.mode != modeTasksEarlyResult {
			return false
		}
		s.reply(req.ID, map[string]any{"content": []any{map[string]any{"type": "text", "text": "early"}}})
	case "tasks/cancel":
		s.reply(req.ID, hostileTask("t1", "cancelled"))
	case "tasks/list":
		var p struct {
			Cursor string `json:"cursor"`
		}
		_ = json.Unmarshal(req.Params, &p)
		page, next, ok := pageOf(pagesLoop, 3, p.Cursor)
		if !ok {
			s.fail(req.ID, codeInvalidParams, fmt.Sprintf("invalid cursor %q", p.Cursor))
			return true
		}
		res := map[string]any{"tasks": []any{hostileTask(fmt.Sprintf("t%d", page), "completed")}}
		if next != "" {
			res["nextCursor"] = next
		}
		s.reply(req.ID, res)
	default:
		return false
	}
	return true
}
