package ui

import (
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"mcpwitness/fold"

	"mcpwitness/record"
	"mcpwitness/themes"

	"mcpwitness/ui/panes"
)

// Update folds events into the state and routes everything else; then the
// panes catch up with the state, the mode with the panes, and the cached
// parts of the screen are drawn again.
func (m *model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case tea.WindowSizeMsg, tea.BackgroundColorMsg:
		m.screenChanged(msg)
	case eventMsg, eventsMsg:
		cmd = m.eventsIn(msg)
	case connectedMsg, dialFailedMsg, walkDoneMsg, callDoneMsg, exportDoneMsg:
		cmd = m.opDone(msg)
	case requestDoneMsg, restartDoneMsg, askRepliedMsg, askFileMsg, urlOpenedMsg, authOpenedMsg, rootsMsg, foldedMsg:
		cmd = m.resultIn(msg)
	case statusMsg, statusExpiredMsg, spinner.TickMsg:
		cmd = m.timed(msg)
	case tea.KeyPressMsg:
		cmd = m.keyPress(msg)
	case tea.MouseWheelMsg, tea.MouseClickMsg:
		cmd = m.mouse(msg)
	default:
		cmd = m.toPane(msg)
	}
	cmd = tea.Batch(cmd, m.sync())
	m.settle()
	m.predraw()
	return m, cmd
}

// screenChanged takes what the terminal says of itself: its new size, or
// a light background, which a theme not chosen follows.
func (m *model) screenChanged(msg tea.Msg) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.resize(msg.Width, msg.Height)
		m.ask.resize(msg.Width, msg.Height)
	case tea.BackgroundColorMsg:
		if !m.fixed && !msg.IsDark() {
			m.setTheme(themes.Light)
		}
	}
}

// eventsIn folds the session's events in, one or a batch, in the order
// they came; each may also open or end a modal for a server's request.
func (m *model) eventsIn(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case eventMsg:
		return tea.Batch(m.applyEvent(record.Event(msg)), m.askEvent(record.Event(msg)))
	case eventsMsg:
		cmds := make([]tea.Cmd, 0, len(msg))
		for _, ev := range msg {
			cmds = append(cmds, m.applyEvent(ev), m.askEvent(ev))
		}
		return tea.Batch(cmds...)
	}
	return nil
}

// resultIn takes what a command sent back other than the end of an
// operation: a request's answer, a restart, a modal's reply, the roots
// editor's change, a replay's fold.
func (m *model) resultIn(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case requestDoneMsg:
		return m.requestDone(msg)
	case restartDoneMsg:
		return m.restartDone(msg)
	case askRepliedMsg, askFileMsg, urlOpenedMsg:
		return m.askDone(msg)
	case authOpenedMsg:
		return m.authOpened(msg)
	case rootsMsg:
		return m.rootsDone(msg)
	case foldedMsg:
		return m.folded(msg.job)
	}
	return nil
}

// timed takes what runs on time: a status said, a status whose time is
// up, the spinner's tick.
func (m *model) timed(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case statusMsg:
		return m.setStatus(msg.text, msg.level)
	case statusExpiredMsg:
		if msg.id == m.status.id {
			m.status.text = ""
			return m.keepLost()
		}
	case spinner.TickMsg:
		return m.tick(msg)
	}
	return nil
}

// keyPress offers a key to each part that takes keys before the mode's
// handler, in this order: opening the authorization URL of an OAuth
// flow waiting on the browser, a modal or the roots editor, the event opened
// whole (and copying), the verdicts, restarting, tasks.
func (m *model) keyPress(msg tea.KeyPressMsg) tea.Cmd {
	if c, ok := m.authKey(msg); ok {
		return c
	}
	if c, ok := m.modalKey(msg); ok {
		return c
	}
	if c, ok := m.wholeKey(msg); ok {
		return c
	}
	if c, ok := m.verdictKey(msg); ok {
		return c
	}
	if c, ok := m.restartKey(msg); ok {
		return c
	}
	if c, ok := m.taskKey(msg); ok {
		return c
	}
	return m.key(msg)
}

// mouse takes the wheel and clicks. The wheel scrolls the event opened
// whole, or a document sideways, before the pane under the pointer; a
// click on a verdict picks it before the pane sees the click.
func (m *model) mouse(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.MouseWheelMsg:
		if !m.wheelWhole(msg.Mouse()) && !m.wheelDetailX(msg.Mouse()) {
			return m.wheel(msg.Mouse())
		}
	case tea.MouseClickMsg:
		if c, ok := m.clickVerdict(msg.Mouse()); ok {
			return c
		}
		return m.click(msg.Mouse())
	}
	return nil
}

// opDone takes the end of an operation: the dial, a walk, a call or an
// export.
func (m *model) opDone(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case connectedMsg:
		m.backend, m.link = msg.backend, linkUp
		return m.connected()
	case dialFailedMsg:
		m.dialErr, m.link = msg.err, linkFailed
	case walkDoneMsg:
		w := m.ops.walks[msg.method.Name]
		delete(m.ops.walks, msg.method.Name)
		if w != nil && w.again {
			return m.startWalk(msg.method)
		}
		return m.nextQueued()
	case callDoneMsg:
		m.callDone(msg)
		return m.afterTaskCall(msg)
	case exportDoneMsg:
		m.ops.export = false
		if msg.err != nil {
			return m.setStatus("export failed: "+msg.err.Error()+"; the session is still recorded, try e again", levelError)
		}
		done := "exported " + plural64(msg.ex.Lines) + " to " + msg.ex.Path
		if msg.ex.Stopped != "" {
			return m.setStatus(done+" ("+msg.ex.Stopped+")", levelWarn)
		}
		return m.setStatus(done, levelOK)
	}
	return nil
}

// toPane gives a pane what its commands sent; pastes, clipboard reads and
// cursor blinks go to the input that has the keys.
func (m *model) toPane(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case panes.FilterDoneMsg:
		m.tools, cmd = m.tools.Update(msg)
	case panes.ArgsCheckedMsg:
		// Each editor numbers its checks apart: only its own take.
		m.editor, _ = m.editor.Update(msg)
		m.ask.form, _ = m.ask.form.Update(msg)
	case docBuiltMsg:
		m.detail, _ = m.detail.Update(msg)
	case panes.ItemBuiltMsg:
		m.item, _ = m.item.Update(msg)
	case wholeBuiltMsg:
		m.whole.take(msg)
	case panes.FrameBuiltMsg:
		m.wire, _ = m.wire.Update(msg)
	case panes.FormDebounceMsg, panes.FormCompletionsMsg:
		if m.mode == modeForm {
			m.form, cmd = m.form.Update(msg)
		}
	case panes.FormSubmitMsg, panes.FormCancelMsg:
		return m.formDone(msg)
	default:
		return m.toInput(msg)
	}
	return cmd
}

// toInput gives msg to the input that has the keys: the argument editor's
// or the tools filter's.
func (m *model) toInput(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	switch m.mode {
	case modeEditor:
		m.editor, cmd = m.editor.Update(msg)
	case modeForm:
		m.form, cmd = m.form.Update(msg)
	case modeAsk:
		cmd = m.toAsk(msg)
	case modeRoots:
		m.roots.input, cmd = m.roots.input.Update(msg)
	case modeFilter:
		if m.tab != tabTools {
			i := m.tab.item()
			m.items[i], cmd = m.items[i].Update(msg)
			break
		}
		m.tools, cmd = m.tools.Update(msg)
	}
	return cmd
}

// tick moves the spinner while something is busy, and stops its ticks
// once nothing is.
func (m *model) tick(msg spinner.TickMsg) tea.Cmd {
	if !m.busy() {
		m.spinning = false
		return nil
	}
	var cmd tea.Cmd
	m.spin, cmd = m.spin.Update(msg)
	return cmd
}

// applyEvent folds ev in and reacts to what needs an action: a
// list_changed starts a walk of that list (after the one in flight, if
// any).
func (m *model) applyEvent(ev record.Event) tea.Cmd {
	m.St.Apply(ev)
	if cmd := m.noteConnection(ev); cmd != nil {
		return cmd
	}
	switch {
	case record.SpoolStopped(ev) && m.replay == nil:
		// Said once, as it happens; the events pane keeps it.
		return m.setStatus(record.SpoolStoppedBrief(ev), levelWarn)
	case ev.Kind == record.KindNotification && fold.ListChangedOf(ev.Method) != "" && m.backend != nil:
		return m.walkAgain(ev.Method)
	case ev.Kind == record.KindCall && ev.Call != nil && ev.Call.State == record.PhaseStart && m.ops.call != nil && m.ops.call.awaiting &&
		ev.Call.Tool == m.ops.call.tool && m.detail.Tool() != nil && m.detail.Tool().Name == ev.Call.Tool:
		m.detail.ShowCall(m.detail.Tool(), ev.Call.ID)
		m.ops.call.awaiting = false
	}
	return nil
}

// callDone ends the call in flight: the detail pane shows how it went if
// it still shows its tool.
func (m *model) callDone(msg callDoneMsg) {
	c := m.ops.call
	m.ops.call = nil
	if c == nil {
		return
	}
	if c.note != 0 && c.note == m.status.id {
		// The call settled: the pane says how, "cancelling…" is over.
		m.status.text = ""
	}
	if t := m.detail.Tool(); msg.res != nil && t != nil && t.Name == msg.tool && (c.awaiting || m.detail.CallID() == msg.res.ID) {
		m.detail.ShowCall(t, msg.res.ID)
	}
}
