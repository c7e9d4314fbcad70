package session

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"mcpwitness/finding"
	"mcpwitness/internal/hostiletest"
	"mcpwitness/record"
)

// A task waiting for input has its result asked for once: a server that
// answers tasks/result at once while tasks/get still says input_required
// is polled at its pollInterval, not asked for tasks/result again after
// each answer (which went back and forth with no pause until the timeout).
// The early answer is a finding.
func TestTaskResultIsAskedForOnce(t *testing.T) {
	t.Parallel()
	log := record.NewLog(&record.LogOptions{History: true})
	s := dial(t, hostile(t, hostiletest.ModeTasksEarlyResult), &Options{Log: log, Protocol: "2025-11-25"})
	const timeout = time.Second
	shortTimeout(s, timeout)
	r := s.CallTask(context.Background(), "echo", nil, &TaskOptions{Force: true})
	if !r.Cancelled || r.Err == nil || !strings.Contains(r.Err.Error(), "no result within") {
		t.Errorf("cancelled %v err %v, want the task cancelled at the timeout (its status never ended)", r.Cancelled, r.Err)
	}
	if n := sentOwn(log, "tasks/result"); n != 1 {
		t.Errorf("%d tasks/result sent, want 1", n)
	}
	if !slices.ContainsFunc(r.Findings, func(f finding.Finding) bool {
		return f.Check == "task-result-early" && strings.Contains(f.Message, "while the task was still input_required")
	}) {
		t.Errorf("findings %+v, want task-result-early: tasks/result came before the task ended", r.Findings)
	}
	// Each poll waits for the timer (at least minPoll), but the one right
	// after tasks/result's answer.
	if n, most := sentOwn(log, "tasks/get"), int(timeout/minPoll)+1; n > most {
		t.Errorf("%d tasks/get sent within %s, want at most %d (one every %s)", n, timeout, most, minPoll)
	}
}
