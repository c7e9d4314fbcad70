package ui

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"mcpwitness/fold"
	"mcpwitness/paging"
	"mcpwitness/render"
	"mcpwitness/sanitize"

	"mcpwitness/record"
	"mcpwitness/themes"
)

// The Tasks tab of a session whose tasks are the io.modelcontextprotocol/
// tasks extension (2026-07-28), which has no tasks/list: it lists the
// tasks this session knows of — its own calls the server made tasks —
// from the fold, never from a server listing, and says so.

// ownTasksKey is what the rows of an own-tasks pane were built from: the
// fold's list of tasks (a new array on every change) and its length.
type ownTasksKey struct {
	first *fold.Task
	n     int
	query string
}

// ownTasks are the tasks of the session's own calls, oldest first.
func ownTasks(st *fold.State) []*fold.Task {
	var out []*fold.Task
	for _, t := range st.Tasks() {
		if t.Call != 0 {
			out = append(out, t)
		}
	}
	return out
}

// syncOwn rebuilds the rows of an own-tasks pane when a task changed:
// one row per task, no pages, the filter matching the task id and tool.
func (p *itemsPane) syncOwn() {
	tasks := p.St.Tasks()
	k := ownTasksKey{n: len(tasks), query: p.Query}
	if len(tasks) > 0 {
		k.first = tasks[0]
	}
	if k == p.ownBuilt && p.built.walk == nil && p.Rows != nil {
		return
	}
	p.ownBuilt, p.built = k, itemsBuilt{query: p.Query}
	p.hits = nil
	p.Rows, p.count = p.Rows[:0], 0
	for _, t := range ownTasks(p.St) {
		it := taskItem(t)
		if p.Query != "" {
			if _, ok := findItem(p.Query, it); !ok {
				continue
			}
		}
		p.Rows = append(p.Rows, itemRow{item: it})
		p.count++
	}
	if p.Rows == nil {
		p.Rows = []itemRow{}
	}
	p.reselect()
}

// taskItem is a task of the session's own as an item of the Tasks tab:
// keyed by its id, described by its status, named by its id and tool.
func taskItem(t *fold.Task) *fold.Item {
	it := &fold.Item{Method: paging.Tasks().Name, Key: t.ID, Name: t.ID, Description: string(t.Status), Raw: t.Raw}
	if t.StatusMessage != "" {
		it.Description += ": " + t.StatusMessage
	}
	return it
}

// taskBadges are a task row's badges: its status, the call that made it
// and its ttl.
func (p *itemsPane) taskBadges(it *fold.Item) []badge {
	t := p.St.Task(it.Key)
	if t == nil {
		return nil
	}
	var out []badge
	st := string(t.Status)
	out = append(out, badge{st, taskStatusStyle(t.Status, p.Sty).Render(st)})
	if t.Call != 0 {
		c := fmt.Sprintf("#%d %s", t.Call, sanitize.Line(t.Tool))
		out = append(out, badge{c, p.muted.On(c)})
	}
	ttl := ttlText(t.TTL)
	return append(out, badge{ttl, p.subtle.On(ttl)})
}

// taskStatusStyle draws a task status: failed as a failure, waiting on
// input or cancelled as a warning, completed as a pass.
func taskStatusStyle(st record.TaskStatus, sty *themes.Styles) lipgloss.Style {
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

// ttlText says how long the server keeps a task.
func ttlText(ttl *int64) string {
	if ttl == nil {
		return "ttl none"
	}
	return "ttl " + render.Dur(time.Duration(*ttl)*time.Millisecond)
}

// taskView is what a task's document shows from the state, read in
// Update so that the document may be built on another goroutine: the
// task (which the fold never changes; a change replaces it), its age at
// the session's newest event, and the answer of the call that made it.
type taskView struct {
	t      *fold.Task
	age    time.Duration
	rpcErr json.RawMessage // the call's answer, empty when no call is known
	result json.RawMessage
	err    string
}

// readTaskView reads the view of task t from st; nil for no task.
func readTaskView(st *fold.State, t *fold.Task) *taskView {
	if t == nil {
		return nil
	}
	v := &taskView{t: t, age: t.Age(st.At())}
	if c := st.Call(t.Call); c != nil {
		v.rpcErr, v.result, v.err = c.RPCError, c.Result, c.Err
	}
	return v
}

// size is how much of what the server sent the view shows.
func (v *taskView) size() int {
	if v == nil {
		return 0
	}
	return len(v.t.Raw) + len(v.rpcErr) + len(v.result)
}

// taskItemLines builds the document of a task of the Tasks tab: what it
// is (status, ttl, age at the session's newest event, the call that made
// it, its lifecycle), then its result or error — a tasks/result fetched
// for a listed task, the answer of the call that made it on the
// extension — and the statuses it went through.
func taskItemLines(v *taskView, it *fold.Item, k render.ItemListing, req *fold.Request, w int, sty *themes.Styles, loc *time.Location) []string {
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
	field("status", status, taskStatusStyle(t.Status, sty))
	field("ttl", strings.TrimPrefix(ttlText(t.TTL), "ttl "), sty.Text)
	field("age", render.Dur(v.age.Round(time.Millisecond)), sty.Text)
	if t.Call != 0 {
		field("call", fmt.Sprintf("#%d %s", t.Call, sanitize.Line(t.Tool)), sty.Text)
	}
	field("lifecycle", lifecycleName(t.Lifecycle), sty.Text)
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
			{Text: text, Style: taskStatusStyle(s.Status, sty)}}, 4)
	}
	if len(t.Raw) > 0 {
		d.Heading("As the server last said it")
		d.JSON(t.Raw, 2)
	}
	return d.Lines()
}

// openTaskCall shows the call that made the own task selected, in the
// Tools tab's detail: its verdicts, its result or error, its task.
func (m *model) openTaskCall() tea.Cmd {
	it := m.items[tabTasks.item()].Selected()
	if it == nil {
		return nil
	}
	t := m.St.Task(it.Key)
	if t == nil || t.Call == 0 || m.St.Call(t.Call) == nil {
		return m.setStatus("no call of this session made "+sanitize.Line(it.Key), levelWarn)
	}
	m.tools.PickedKey = t.Tool
	m.tools.Reselect()
	sel := m.tools.Selected()
	if sel == nil || sel.Name != t.Tool {
		return m.setStatus(sanitize.Line(t.Tool)+" is not listed now; its call is in the events pane", levelWarn)
	}
	m.tab = tabTools
	m.detail.ShowCall(sel, t.Call)
	m.setFocus(paneDetail)
	return m.sync()
}
