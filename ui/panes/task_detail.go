package panes

import (
	"time"

	"mcpwitness/fold"
	"mcpwitness/render"
	"mcpwitness/sanitize"

	"mcpwitness/record"
	"mcpwitness/themes"
)

// TaskLines draws, under a call's document, the task the call ran as
// (made as one, or a plain call the server made one on the tasks
// extension): its id, the lifecycle it followed, and each status with when
// it was learnt and how (created, get, notification, cancel). Nothing when
// the call made no task.
func TaskLines(st *fold.State, c *fold.Call, w int, sty *themes.Styles, loc *time.Location) []string {
	if c == nil || c.TaskID == "" {
		return nil
	}
	t := st.Task(c.TaskID)
	if t == nil {
		return nil
	}
	d := render.NewDoc(w, sty)
	d.Heading("Task " + sanitize.Line(t.ID) + " · " + LifecycleName(t.Lifecycle))
	for _, s := range t.Steps {
		style := sty.Text
		switch s.Status {
		case record.TaskFailed:
			style = sty.Fail
		case record.TaskInputRequired, record.TaskCancelled:
			style = sty.Warn
		}
		text := string(s.Status)
		if s.Message != "" {
			text += ": " + s.Message
		}
		d.Segs([]render.Seg{{Text: render.Clock(s.T, loc) + " ", Style: sty.Muted}, {Text: string(s.Source) + "  ", Style: sty.Muted},
			{Text: text, Style: style}}, 4)
	}
	return d.Lines()
}

// LifecycleName says which tasks protocol a task followed.
func LifecycleName(l record.TaskLifecycle) string {
	if l == record.LifecycleExtension {
		return "the io.modelcontextprotocol/tasks extension (2026-07-28)"
	}
	return "protocol 2025-11-25's tasks"
}
