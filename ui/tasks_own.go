package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"mcpwitness/fold"
	"mcpwitness/paging"
	"mcpwitness/sanitize"

	"mcpwitness/ui/panes"
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
	out = append(out, badge{st, panes.TaskStatusStyle(t.Status, p.Sty).Render(st)})
	if t.Call != 0 {
		c := fmt.Sprintf("#%d %s", t.Call, sanitize.Line(t.Tool))
		out = append(out, badge{c, p.muted.On(c)})
	}
	ttl := panes.TTLText(t.TTL)
	return append(out, badge{ttl, p.subtle.On(ttl)})
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
