package ui

import (
	"context"
	"encoding/json"
	"strconv"

	tea "charm.land/bubbletea/v2"

	"mcpwitness/fold"
	"mcpwitness/paging"
	"mcpwitness/session"
)

// back does what Esc means here: cancel the call in flight, else abort the
// walk in flight, else clear the filter, else leave a call's view, else
// leave the wire pane.
func (m *model) back() tea.Cmd {
	switch {
	case m.ops.call != nil:
		m.ops.call.cancel()
		cmd := m.setStatus("cancelling the call to "+m.ops.call.tool+"…", levelInfo)
		m.ops.call.note = m.status.id
		return cmd
	case m.ops.request != nil:
		m.ops.request.cancel()
		return m.setStatus("cancelling "+m.ops.request.method+"…", levelInfo)
	case m.ops.walking():
		for _, w := range m.ops.walks {
			w.cancel()
			w.again = false
		}
		m.queued = nil
		return m.setStatus("aborting the walk: no page is accepted after this", levelInfo)
	case m.tab == tabTools && m.tools.Filtered() && m.mode == modeNormal:
		m.tools.ClearFilter()
	case m.tab != tabTools && m.items[m.tab.item()].Filtered() && m.mode == modeNormal:
		m.items[m.tab.item()].clearFilter()
	case m.detail.ShowsCall() && m.mode == modeNormal:
		m.detail.ShowTool(m.detail.Tool())
	case m.mode == modeWire:
		m.toggleWire()
	}
	return nil
}

func (m *model) quit() tea.Cmd {
	m.ops.cancelAll()
	return tea.Quit
}

func (m *model) setFocus(p pane) {
	m.focus = p
	m.tools.Focus(p == paneTools)
	m.detail.Focus(p == paneDetail)
	m.events.Focus(p == paneEvents)
	m.wire.Focus(p == paneWire || p == paneFrame, p == paneFrame)
}

func (m *model) cycleFocus(dir int) {
	order := []pane{paneTools, paneDetail, paneEvents}
	if m.mode == modeWire {
		order = []pane{paneWire, paneFrame, paneEvents}
	}
	i := 0
	for n, p := range order {
		if p == m.focus {
			i = n
		}
	}
	m.setFocus(order[(i+dir+len(order))%len(order)])
}

// unable reports whether an action (what) cannot be done now, and says
// why on the status line: no live server yet or at all, or the session is
// closed.
func (m *model) unable(what string) (tea.Cmd, bool) {
	switch {
	case m.backend == nil && m.link == linkDialing:
		return m.setStatus("still connecting; "+what+" once the server answers", levelInfo), true
	case m.backend == nil:
		return m.setStatus("no live server: cannot "+what, levelError), true
	case m.St.Closed():
		return m.setStatus("cannot "+what+": the session is closed ("+m.closedText()+"); press R to restart the server", levelWarn), true
	}
	return nil, false
}

// closedText says why the session closed.
func (m *model) closedText() string {
	if m.St.ClosedWhy() == "" {
		return "session closed"
	}
	return m.St.ClosedWhy()
}

// startWalk walks the list method; pressed during a walk of it, it aborts
// that walk and walks again when it returns.
func (m *model) startWalk(method paging.Method) tea.Cmd {
	if cmd, ok := m.unable("walk"); ok {
		return cmd
	}
	if w := m.ops.walks[method.Name]; w != nil {
		w.again = true
		w.cancel()
		return nil
	}
	ctx, cancel := context.WithCancel(m.o.Ctx)
	if m.ops.walks == nil {
		m.ops.walks = map[string]*walkOp{}
	}
	m.ops.walks[method.Name] = &walkOp{cancel: cancel}
	b := m.backend
	return m.o.Tasks.cmd(func() tea.Msg {
		defer cancel()
		id, res := b.Walk(ctx, method)
		return walkDoneMsg{method: method, id: id, res: res}
	})
}

// startWalks walks every list the server declares, one after the other
// (tools first, as a client does), so the first walks read the same way
// every time.
func (m *model) startWalks() tea.Cmd {
	if m.backend == nil {
		return nil
	}
	lists := fold.ReadCaps(m.backend.Info().Capabilities).Lists()
	m.queued = lists[1:]
	return m.startWalk(lists[0])
}

// nextQueued starts the next of the first walks, once none is in flight.
func (m *model) nextQueued() tea.Cmd {
	if len(m.queued) == 0 || m.ops.walking() {
		return nil
	}
	next := m.queued[0]
	m.queued = m.queued[1:]
	return m.startWalk(next)
}

// walkAgain walks again the list the notification method says changed
// (after the walk of it in flight, if any). Resources changing means their
// templates may have too.
func (m *model) walkAgain(method string) tea.Cmd {
	list := fold.ListChangedOf(method)
	if list == "" || m.backend == nil {
		return nil
	}
	lists := []paging.Method{paging.Tools()}
	switch list {
	case paging.Resources().Name:
		lists = []paging.Method{paging.Resources(), paging.ResourceTemplates()}
	case paging.Prompts().Name:
		lists = []paging.Method{paging.Prompts()}
	}
	var cmds []tea.Cmd
	for _, l := range lists {
		if w := m.ops.walks[l.Name]; w != nil {
			w.again = true
			continue
		}
		cmds = append(cmds, m.startWalk(l))
	}
	return tea.Batch(cmds...)
}

func (m *model) openEditor() tea.Cmd {
	t := m.tools.Selected()
	if m.focus == paneDetail && m.detail.Tool() != nil {
		t = m.detail.Tool()
	}
	if t == nil {
		return nil
	}
	if cmd, ok := m.unable("call " + t.Name); ok {
		return cmd
	}
	m.mode = modeEditor
	cmd := m.editor.Open(t)
	if c := m.detail.Call(); c != nil && c.Tool == t.Name && len(c.Args) > 0 {
		cmd = tea.Batch(cmd, m.editor.Fill(c.Args))
	}
	return cmd
}

// sendCall calls t with args; force sends past a refusal.
func (m *model) sendCall(t *fold.Tool, args json.RawMessage, force bool) tea.Cmd {
	if t == nil {
		return nil
	}
	if cmd, ok := m.unable("call " + t.Name); ok {
		return cmd
	}
	if c := m.ops.call; c != nil {
		return m.setStatus("a call to "+c.tool+" is in flight; esc cancels it", levelError)
	}
	ctx, cancel := context.WithCancel(m.o.Ctx)
	m.ops.call = &callOp{tool: t.Name, cancel: cancel, awaiting: true}
	m.detail.ShowTool(t)
	if m.lay.stacked {
		// One pane at a time: show the one the answer goes to.
		m.setFocus(paneDetail)
	}
	b, name := m.backend, t.Name
	return m.o.Tasks.cmd(func() tea.Msg {
		defer cancel()
		res := b.Call(ctx, name, args, &session.CallOptions{Force: force})
		return callDoneMsg{tool: name, res: res}
	})
}

func (m *model) export() tea.Cmd {
	if m.o.Export == nil {
		return m.setStatus("nothing to export: this session has no record", levelError)
	}
	if m.ops.export {
		return nil
	}
	m.ops.export = true
	exp, ctx := m.o.Export, m.o.Ctx
	return tea.Batch(m.setStatus("exporting the session…", levelInfo), m.o.Tasks.cmd(func() tea.Msg {
		ex, err := exp(ctx)
		return exportDoneMsg{ex: ex, err: err}
	}))
}

// wheel scrolls the pane under the pointer.
func (m *model) wheel(ms tea.Mouse) tea.Cmd {
	n := 0
	switch ms.Button {
	case tea.MouseWheelUp:
		n = -3
	case tea.MouseWheelDown:
		n = 3
	default:
		return nil
	}
	switch m.mode {
	case modeHelp:
		m.helpView.Wheel(n)
		return nil
	case modeEditor, modeForm:
		return nil
	}
	return m.wheelBody(ms, n)
}

// wheelBody scrolls by n the pane of the body or the events under the
// pointer.
func (m *model) wheelBody(ms tea.Mouse, n int) tea.Cmd {
	l := m.lay
	inBody := ms.Y >= l.bodyTop && ms.Y < l.bodyTop+l.bodyH
	switch {
	case l.short && m.focus == paneEvents && inBody, !l.short && ms.Y >= l.eventsTop && ms.Y < l.eventsTop+l.eventsH:
		m.events.Wheel(n)
	case !inBody:
	case m.mode == modeWire:
		return m.wire.Wheel(ms.Y-l.bodyTop, n)
	case (l.stacked && m.focus != paneDetail || !l.stacked && ms.X < l.leftW) && m.tab != tabTools:
		m.items[m.tab.item()].Wheel(n)
	case l.stacked && m.focus != paneDetail, !l.stacked && ms.X < l.leftW:
		m.tools.Wheel(n)
	case m.tab != tabTools:
		m.item.Wheel(n)
	default:
		m.detail.Wheel(n)
	}
	return nil
}

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }
