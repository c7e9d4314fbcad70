package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"mcpwitness/session"
	"mcpwitness/themes"
)

// key routes one key press to the handler of the mode. ctrl+c quits in
// every mode, even while text is being typed.
func (m *model) key(msg tea.KeyPressMsg) tea.Cmd {
	if key.Matches(msg, m.keys.Global.Interrupt) {
		return m.quit()
	}
	switch m.mode {
	case modeHelp:
		return m.keyHelp(msg)
	case modeEditor:
		return m.keyEditor(msg)
	case modeFilter:
		return m.toInput(msg)
	case modeConfirm:
		return m.keyConfirm(msg)
	case modeForm:
		return m.keyForm(msg)
	case modeLevel:
		return m.keyLevel(msg)
	}
	return m.keyBrowse(msg)
}

// keyHelp quits, closes the full help, or scrolls it.
func (m *model) keyHelp(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, m.keys.Global.Quit):
		return m.quit()
	case key.Matches(msg, m.keys.Help.Close):
		m.closeHelp()
	default:
		m.helpView.Update(msg)
	}
	return nil
}

// keyEditor sends the call, leaves the editor, or types into it.
func (m *model) keyEditor(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, m.keys.Editor.Send):
		if !m.editor.Ready() {
			return nil
		}
		m.mode = modeNormal
		return m.sendCall(m.editor.Tool(), m.editor.Args(), false)
	case key.Matches(msg, m.keys.Global.Back):
		m.mode = modeNormal
		return nil
	}
	return m.toInput(msg)
}

// keyConfirm sends the refused call anyway, or keeps it unsent.
func (m *model) keyConfirm(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, m.keys.Detail.Confirm):
		m.detail.Settle()
		m.mode = modeNormal
		if c := m.detail.Call(); c != nil {
			return m.sendCall(m.detail.Tool(), c.Args, true)
		}
	case key.Matches(msg, m.keys.Global.Back):
		m.detail.Settle()
		m.mode = modeNormal
	}
	return nil
}

// keyBrowse handles a key in the normal and wire modes: the scrubber's
// keys in a replay, then the global keys, then those of the tools and
// detail panes, then the focused pane's own.
func (m *model) keyBrowse(msg tea.KeyPressMsg) tea.Cmd {
	if m.replay != nil {
		if cmd, ok := m.replayKey(msg); ok {
			return cmd
		}
	}
	if cmd, ok := m.globalKey(msg); ok {
		return cmd
	}
	if m.mode == modeNormal {
		if cmd, ok := m.panesKey(msg); ok {
			return cmd
		}
	}
	var cmd tea.Cmd
	switch {
	case m.focus == paneTools && m.tab != tabTools:
		i := m.tab.item()
		m.items[i], cmd = m.items[i].Update(msg)
	case m.focus == paneDetail && m.tab != tabTools:
		m.item, cmd = m.item.Update(msg)
	}
	if cmd != nil || m.tab != tabTools && (m.focus == paneTools || m.focus == paneDetail) {
		return cmd
	}
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

// globalKey handles the keys that mean the same whichever pane has the
// focus. ok is false for any other key.
func (m *model) globalKey(msg tea.KeyPressMsg) (cmd tea.Cmd, ok bool) {
	k := &m.keys.Global
	switch {
	case key.Matches(msg, k.Quit):
		return m.quit(), true
	case key.Matches(msg, k.Help):
		m.openHelp()
	case key.Matches(msg, k.Theme):
		m.fixed = true
		m.setTheme(themes.Next(m.theme))
		return m.setStatus("theme "+m.theme, levelInfo), true
	case key.Matches(msg, k.Wire):
		m.toggleWire()
	case key.Matches(msg, k.Export):
		return m.export(), true
	case key.Matches(msg, k.Walk):
		return m.startWalk(m.tab.method()), true
	case key.Matches(msg, k.Tabs) && m.mode == modeNormal:
		m.switchTab(int(msg.String()[0] - '1'))
	case key.Matches(msg, k.Ping):
		return m.ping(), true
	case key.Matches(msg, k.LogLevel):
		return m.openLevel(), true
	case key.Matches(msg, k.NextPane):
		m.cycleFocus(1)
	case key.Matches(msg, k.PrevPane):
		m.cycleFocus(-1)
	case key.Matches(msg, k.Back):
		return m.back(), true
	default:
		return nil, false
	}
	return nil, true
}

// panesKey handles the keys of the tools and detail panes that reach past
// the focused pane: stepping through calls, sending anyway, calling, and
// the filter (which moves the focus to the tools pane, whose key it is).
func (m *model) panesKey(msg tea.KeyPressMsg) (cmd tea.Cmd, ok bool) {
	if m.tab != tabTools {
		return m.itemsKey(msg)
	}
	k := &m.keys.Detail
	switch {
	case key.Matches(msg, k.PrevCall, k.NextCall):
		dir := 1
		if key.Matches(msg, k.PrevCall) {
			dir = -1
		}
		m.detail.StepCall(dir)
		if m.lay.stacked {
			// One pane at a time: show the call stepped to.
			m.setFocus(paneDetail)
		}
		return nil, true
	case key.Matches(msg, k.Force):
		if m.detail.Ask() {
			m.mode = modeConfirm
		}
		return nil, true
	case m.focus == paneTools && key.Matches(msg, m.keys.Tools.Call), m.focus == paneDetail && key.Matches(msg, k.Call):
		return m.openEditor(), true
	case key.Matches(msg, m.keys.Tools.Filter):
		m.setFocus(paneTools)
	}
	return nil, false
}

// toggleWire shows the wire pane in place of tools and detail, or back.
func (m *model) toggleWire() {
	if m.mode == modeWire {
		m.mode = modeNormal
		m.setFocus(paneTools)
		return
	}
	m.mode = modeWire
	m.setFocus(paneWire)
}

// itemsKey handles the keys of the resources, templates and prompts tabs
// that act: Enter reads or gets the item (from the list or its detail), s
// subscribes, / filters.
func (m *model) itemsKey(msg tea.KeyPressMsg) (cmd tea.Cmd, ok bool) {
	k := &m.keys.Items
	switch {
	case m.focus == paneTools && key.Matches(msg, k.Open), m.focus == paneDetail && key.Matches(msg, m.keys.Item.Open):
		return m.openItem(), true
	case m.tab == tabResources && key.Matches(msg, k.Subscribe):
		return m.toggleSubscription(), true
	case key.Matches(msg, k.Filter):
		m.setFocus(paneTools)
	}
	return nil, false
}

// openLevel opens the log level picker on the level picked last.
func (m *model) openLevel() tea.Cmd {
	if cmd, ok := m.unable("set the log level"); ok {
		return cmd
	}
	if !m.caps().Logging {
		return m.setStatus("the server does not declare logging: it has no level to set", levelWarn)
	}
	m.mode = modeLevel
	return nil
}

// keyLevel moves through the log levels, sets the one picked, or closes
// the picker.
func (m *model) keyLevel(msg tea.KeyPressMsg) tea.Cmd {
	k := &m.keys.Level
	n := len(session.LogLevels())
	switch {
	case key.Matches(msg, k.Prev):
		m.level = (m.level - 1 + n) % n
	case key.Matches(msg, k.Next):
		m.level = (m.level + 1) % n
	case key.Matches(msg, k.Pick):
		m.mode = modeNormal
		return m.setLogLevel(session.LogLevels()[m.level])
	case key.Matches(msg, m.keys.Global.Back), key.Matches(msg, m.keys.Global.Quit):
		m.mode = modeNormal
	}
	return nil
}
