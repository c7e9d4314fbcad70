package ui

import (
	"context"
	"encoding/json"
	"strconv"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"mcpwitness/fold"
	"mcpwitness/paging"
	"mcpwitness/session"
	"mcpwitness/themes"
)

// key routes one key press: modal parts first (help, editor, filter,
// confirmation), then global keys, then the focused pane.
func (m *model) key(msg tea.KeyPressMsg) tea.Cmd {
	k := &m.keys
	if key.Matches(msg, k.Interrupt) {
		return m.quit()
	}
	if m.showHelp {
		switch {
		case key.Matches(msg, k.Quit):
			return m.quit()
		case key.Matches(msg, k.Help, k.Back):
			m.showHelp = false
		case key.Matches(msg, k.Up):
			m.helpSc.ScrollBy(-1)
		case key.Matches(msg, k.Down):
			m.helpSc.ScrollBy(1)
		case key.Matches(msg, k.PageUp):
			m.helpSc.ScrollBy(-m.helpSc.h)
		case key.Matches(msg, k.PageDown):
			m.helpSc.ScrollBy(m.helpSc.h)
		}
		return nil
	}
	if m.editing {
		switch {
		case key.Matches(msg, k.Send):
			if !m.editor.Ready() {
				return nil
			}
			m.editing = false
			return m.sendCall(m.editor.tool, m.editor.Args(), false)
		case key.Matches(msg, k.Back):
			m.editing = false
			return nil
		}
		var cmd tea.Cmd
		m.editor, cmd = m.editor.Update(msg)
		return cmd
	}
	if m.tools.Filtering() {
		var cmd tea.Cmd
		m.tools, cmd = m.tools.Update(msg)
		return cmd
	}
	if m.detail.confirm {
		switch {
		case key.Matches(msg, k.Confirm):
			m.detail.confirm = false
			if c := m.detail.Call(); c != nil {
				return m.sendCall(m.detail.tool, c.Args, true)
			}
		case key.Matches(msg, k.Back):
			m.detail.confirm = false
		}
		return nil
	}

	if m.replay != nil {
		if cmd, ok := m.replayKey(msg); ok {
			return cmd
		}
	}
	switch {
	case key.Matches(msg, k.Quit):
		return m.quit()
	case key.Matches(msg, k.Help):
		m.showHelp = true
		m.helpSc.Top()
		return nil
	case key.Matches(msg, k.Theme):
		m.fixed = true
		m.setTheme(themes.Next(m.theme))
		return m.setStatus("theme "+m.theme, levelInfo)
	case key.Matches(msg, k.Wire):
		m.showWire = !m.showWire
		if m.showWire {
			m.setFocus(paneWire)
		} else {
			m.setFocus(paneTools)
		}
		return nil
	case key.Matches(msg, k.Export):
		return m.export()
	case key.Matches(msg, k.Walk):
		return m.startWalk()
	case key.Matches(msg, k.NextPane):
		m.cycleFocus(1)
		return nil
	case key.Matches(msg, k.PrevPane):
		m.cycleFocus(-1)
		return nil
	case key.Matches(msg, k.Back):
		return m.back()
	case key.Matches(msg, k.PrevCall, k.NextCall) && !m.showWire:
		dir := 1
		if key.Matches(msg, k.PrevCall) {
			dir = -1
		}
		m.detail.StepCall(dir)
		if m.lay.stacked {
			// One pane at a time: show the call stepped to.
			m.setFocus(paneDetail)
		}
		return nil
	case key.Matches(msg, k.Force) && !m.showWire:
		if c := m.detail.Call(); c != nil && c.Outcome() == fold.OutcomeRefused {
			m.detail.confirm = true
		}
		return nil
	case key.Matches(msg, k.Call) && (m.focus == paneTools || m.focus == paneDetail):
		return m.openEditor()
	case key.Matches(msg, k.Filter) && !m.showWire:
		m.setFocus(paneTools)
	}

	var cmd tea.Cmd
	switch m.focus {
	case paneTools:
		m.tools, cmd = m.tools.Update(msg)
	case paneDetail:
		m.detail, cmd = m.detail.Update(msg)
	case paneEvents:
		m.events, cmd = m.events.Update(msg)
	case paneWire, paneFrame:
		m.wire, cmd = m.wire.Update(msg)
	}
	return cmd
}

// back does what Esc means here: cancel the call in flight, else abort the
// walk in flight, else clear the filter, else leave a call's view, else
// leave the wire pane.
func (m *model) back() tea.Cmd {
	switch {
	case m.callCancel != nil:
		m.callCancel()
		cmd := m.setStatus("cancelling the call to "+m.calling+"…", levelInfo)
		m.cancelNote = m.statusID
		return cmd
	case m.walkCancel != nil:
		m.walkCancel()
		m.rewalk = false
		return m.setStatus("aborting the walk: no page is accepted after this", levelInfo)
	case m.tools.Filtered() && !m.showWire:
		m.tools.clearFilter()
	case m.detail.call != 0 && !m.showWire:
		m.detail.ShowTool(m.detail.tool)
	case m.showWire:
		m.showWire = false
		m.setFocus(paneTools)
	}
	return nil
}

func (m *model) quit() tea.Cmd {
	if m.callCancel != nil {
		m.callCancel()
	}
	if m.walkCancel != nil {
		m.walkCancel()
	}
	return tea.Quit
}

func (m *model) setFocus(p pane) {
	m.focus = p
	m.tools.focused = p == paneTools
	m.detail.focused = p == paneDetail
	m.events.focused = p == paneEvents
	m.wire.focused = p == paneWire || p == paneFrame
	m.wire.onFrame = p == paneFrame
}

func (m *model) cycleFocus(dir int) {
	order := []pane{paneTools, paneDetail, paneEvents}
	if m.showWire {
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

// readOnly explains why an action needs a live server.
func (m *model) readOnly(what string) tea.Cmd {
	if m.o.Dial != nil && m.dialErr == nil {
		return m.setStatus("still connecting; "+what+" once the server answers", levelInfo)
	}
	return m.setStatus("no live server: cannot "+what, levelError)
}

// closedStatus says why an action cannot be done: the session is closed.
func (m *model) closedStatus(what string) tea.Cmd {
	return m.setStatus("cannot "+what+": the session is closed ("+m.closedText()+"); start mcpwitness again to reconnect", levelWarn)
}

// closedText says why the session closed.
func (m *model) closedText() string {
	if m.st.ClosedWhy() == "" {
		return "session closed"
	}
	return m.st.ClosedWhy()
}

// startWalk walks tools/list; pressed during a walk, it aborts that walk
// and walks again when it returns.
func (m *model) startWalk() tea.Cmd {
	if m.backend == nil {
		return m.readOnly("walk")
	}
	if m.st.Closed() {
		return m.closedStatus("walk")
	}
	if m.walking {
		m.rewalk = true
		if m.walkCancel != nil {
			m.walkCancel()
		}
		return nil
	}
	ctx, cancel := context.WithCancel(m.o.Ctx)
	m.walking, m.walkCancel = true, cancel
	b := m.backend
	return m.o.Tasks.cmd(func() tea.Msg {
		defer cancel()
		id, res := b.Walk(ctx, paging.Tools())
		return walkDoneMsg{id: id, res: res}
	})
}

func (m *model) openEditor() tea.Cmd {
	t := m.tools.Selected()
	if m.focus == paneDetail && m.detail.tool != nil {
		t = m.detail.tool
	}
	if t == nil {
		return nil
	}
	if m.backend == nil {
		return m.readOnly("call " + t.Name)
	}
	if m.st.Closed() {
		return m.closedStatus("call " + t.Name)
	}
	m.editing = true
	m.editor.SetSize(m.lay.rightW, m.lay.bodyH)
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
	if m.backend == nil {
		return m.readOnly("call " + t.Name)
	}
	if m.st.Closed() {
		return m.closedStatus("call " + t.Name)
	}
	if m.calling != "" {
		return m.setStatus("a call to "+m.calling+" is in flight; esc cancels it", levelError)
	}
	ctx, cancel := context.WithCancel(m.o.Ctx)
	m.calling, m.callCancel, m.awaiting = t.Name, cancel, true
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
	if m.exporting {
		return nil
	}
	m.exporting = true
	exp, ctx := m.o.Export, m.o.Ctx
	return tea.Batch(m.setStatus("exporting the session…", levelInfo), m.o.Tasks.cmd(func() tea.Msg {
		path, n, err := exp(ctx)
		return exportDoneMsg{path: path, lines: n, err: err}
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
	l := m.lay
	switch {
	case m.showHelp:
		m.helpSc.ScrollBy(n)
	case m.editing:
		return nil
	case l.short && m.focus == paneEvents && ms.Y >= l.bodyTop && ms.Y < l.bodyTop+l.bodyH:
		m.events.Wheel(n)
	case !l.short && ms.Y >= l.eventsTop && ms.Y < l.eventsTop+l.eventsH:
		m.events.Wheel(n)
	case ms.Y >= l.bodyTop && ms.Y < l.bodyTop+l.bodyH && m.showWire:
		return m.wire.Wheel(ms.Y-l.bodyTop, n)
	case ms.Y >= l.bodyTop && ms.Y < l.bodyTop+l.bodyH && l.stacked && m.focus != paneDetail:
		m.tools.Wheel(n)
	case ms.Y >= l.bodyTop && ms.Y < l.bodyTop+l.bodyH && !l.stacked && ms.X < l.leftW:
		m.tools.Wheel(n)
	case ms.Y >= l.bodyTop && ms.Y < l.bodyTop+l.bodyH:
		m.detail.Wheel(n)
	}
	return nil
}

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }
