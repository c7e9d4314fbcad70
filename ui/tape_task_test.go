package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"mcpwitness/record"
)

// TestTapeRunsATask plays demo.tape against the demo server with its task
// methods on 2026-07-28, from mcpwitness's start through its step that
// runs the refused render_video as a task: each key as the tape presses
// it, each Wait+Screen waiting for its pattern. The step reaches what it
// says: the task's call passes, its task completed, and the Tasks tab
// listed it as this session's own before the tape went back to the tools.
func TestTapeRunsATask(t *testing.T) {
	keys, waits := tapeKeys(t, "../demo.tape"), tapeWaits(t, "../demo.tape")
	end := stepEnd(t, "runs it as a task")
	h := taskHarness(t, tasks2026)
	started, waited := false, 0
	sawTab := false
	wait := func(upTo int) {
		for line := waited + 1; line < upTo; line++ {
			if re := waits[line]; re != nil && started {
				h.until(fmt.Sprintf("demo.tape:%d: /%s/", line, re), func() bool { return re.MatchString(h.screen()) })
				sawTab = sawTab || strings.Contains(re.String(), "This session's tasks")
			}
		}
		waited = max(waited, upTo-1)
	}
	for _, k := range keys {
		if k.line >= end {
			break
		}
		wait(k.line)
		if !started {
			started = k.key == "enter" && strings.Contains(lineText(t, k.line-1), "mcpwitness")
			continue
		}
		msg := keyMsg(k.key)
		if k.text {
			msg = tea.KeyPressMsg{Code: []rune(k.key)[0], Text: k.key}
		}
		_, cmd := h.m.Update(msg)
		h.exec(cmd)
		h.drain()
	}
	wait(end)
	if !sawTab {
		t.Error("the tape's task step waits for no Tasks tab")
	}
	completed := false
	for _, tk := range h.m.St.Tasks() {
		completed = completed || tk.Tool == "render_video" && tk.Status == record.TaskCompleted
	}
	if !completed || h.m.tab != tabTools {
		t.Errorf("after the step: a completed render_video task %v, tab %v; want one, and the Tools tab back", completed, h.m.tab)
	}
}
