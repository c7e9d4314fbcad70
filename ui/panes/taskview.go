package panes

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"charm.land/lipgloss/v2"

	"mcpwitness/fold"
	"mcpwitness/render"
	"mcpwitness/sanitize"

	"mcpwitness/record"
	"mcpwitness/themes"
)

// TaskStatusStyle draws a task status: failed as a failure, waiting on
// input or cancelled as a warning, completed as a pass.
func TaskStatusStyle(st record.TaskStatus, sty *themes.Styles) lipgloss.Style {
	switch st {
	case record.TaskFailed:
		return sty.Fail
	case record.TaskInputRequired, record.TaskCancelled:
		return sty.Warn
	case record.TaskCompleted:
		return sty.Pass
	}
	return sty.Muted
}

// TTLText says how long the server keeps a task.
func TTLText(ttl *int64) string {
	if ttl == nil {
		return "ttl none"
	}
	return "ttl " + render.Dur(time.Duration(*ttl)*time.Millisecond)
}

// TaskView is what a task's document shows from the state, read in
// Update so that the document may be built on another goroutine: the
// task (which the fold never changes; a change replaces it), its age at
// the session's newest event, and the answer of the call that made it.
type TaskView struct {
	t      *fold.Task
	age    time.Duration
	rpcErr json.RawMessage // the call's answer, empty when no call is known
	result json.RawMessage
	err    string
}

// ReadTaskView reads the view of task t from st; nil for no task.
func ReadTaskView(st *fold.State, t *fold.Task) *TaskView {
	if t == nil {
		return nil
	}
	v := &TaskView{t: t, age: t.Age(st.At())}
	if c := st.Call(t.Call); c != nil {
		v.rpcErr, v.result, v.err = c.RPCError, c.Result, c.Err
	}
	return v
}

// size is how much of what the server sent the view shows.
func (v *TaskView) size() int {
	if v == nil {
		return 0
	}
	return len(v.t.Raw) + len(v.rpcErr) + len(v.result)
}

// TaskItemLines builds the document of a task of the Tasks tab: what it
// is (status, ttl, age at the session's newest event, the call that made
// it, its lifecycle), then its result or error — a tasks/result fetched
// for a listed task, the answer of the call that made it on the
// extension — and the statuses it went through.
func TaskItemLines(v *TaskView, it *fold.Item, k render.ItemListing, req *fold.Request, w int, sty *themes.Styles, loc *time.Location) []string {
	if v == nil {
		return render.ItemDoc(it, k, req, w, sty, loc)
	}
	t := v.t
	d := render.NewWideDoc(w, sty)
	d.Segs([]render.Seg{{Text: t.ID, Style: sty.Bold}}, 4)
	if t.Listed {
		d.Text(sty.Muted, fmt.Sprintf("walk #%d · page %d · gen %d", t.Walk, t.Page, t.Gen), 0)
	} else {
		d.Text(sty.Muted, "a task of this session's own call, not a server listing (the tasks extension has no tasks/list)", 0)
	}
	d.Blank()
	field := func(name, value string, style lipgloss.Style) {
		d.Segs([]render.Seg{{Text: fmt.Sprintf("%-10s", name), Style: sty.Muted}, {Text: value, Style: style}}, 10)
	}
	status := string(t.Status)
	if t.StatusMessage != "" {
		status += ": " + t.StatusMessage
	}
	field("status", status, TaskStatusStyle(t.Status, sty))
	field("ttl", strings.TrimPrefix(TTLText(t.TTL), "ttl "), sty.Text)
	field("age", render.Dur(v.age.Round(time.Millisecond)), sty.Text)
	if t.Call != 0 {
		field("call", fmt.Sprintf("#%d %s", t.Call, sanitize.Line(t.Tool)), sty.Text)
	}
	field("lifecycle", LifecycleName(t.Lifecycle), sty.Text)
	switch {
	case req != nil:
		d.Heading("Latest " + req.Method)
		for _, l := range render.RequestDoc(req, w-2, sty, loc, nil) {
			d.Add("  " + l)
		}
	case !t.Listed && len(v.rpcErr) > 0:
		d.Heading("Error")
		d.JSON(v.rpcErr, 2)
	case !t.Listed && len(v.result) > 0:
		d.Heading("Result")
		d.JSON(v.result, 2)
	case !t.Listed && v.err != "":
		d.Heading("Error")
		d.Text(sty.Fail, v.err, 2)
	case k.Verb != "":
		d.Blank()
		d.Text(sty.Muted, "enter "+k.Verb, 0)
	}
	d.Heading("Statuses")
	for _, s := range t.Steps {
		text := string(s.Status)
		if s.Message != "" {
			text += ": " + s.Message
		}
		d.Segs([]render.Seg{{Text: render.Clock(s.T, loc) + " ", Style: sty.Muted}, {Text: string(s.Source) + "  ", Style: sty.Muted},
			{Text: text, Style: TaskStatusStyle(s.Status, sty)}}, 4)
	}
	if len(t.Raw) > 0 {
		d.Heading("As the server last said it")
		d.JSON(t.Raw, 2)
	}
	return d.Lines()
}
