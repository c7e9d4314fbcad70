package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"mcpwitness/ui/panes"
)

// wholeKey takes the keys of what this file's parts add to browsing,
// before the mode's handler: y copies in any pane, Y the wire pane's
// frame raw; Enter in the events
// pane opens the event whole; while it is open and has the keys, Esc
// closes it and the moving keys scroll it (h and l sideways); H hides
// the tools' held/own column. ok is false for any other key.
func (m *model) wholeKey(msg tea.KeyPressMsg) (cmd tea.Cmd, ok bool) {
	if !m.mode.free() || m.replay != nil && !m.replay.Loaded() {
		return nil, false
	}
	g := &m.keys.Global
	if m.whole.Shown() && (m.focus == paneTools || key.Matches(msg, m.keys.Detail.PrevCall, m.keys.Detail.NextCall)) {
		// Back to the tool and its calls: the detail pane shows again.
		m.whole.Close()
	}
	switch {
	case key.Matches(msg, g.Copy):
		return m.copySelected(), true
	case (m.focus == paneWire || m.focus == paneFrame) && key.Matches(msg, m.keys.Wire.CopyRaw):
		return m.copyRaw(), true
	case m.focus == paneEvents && key.Matches(msg, m.keys.Events.Open):
		return m.openWhole(), true
	case m.mode == modeNormal && m.tab == tabTools && key.Matches(msg, m.keys.Tools.Held):
		m.tools.ToggleHeld()
		return nil, true
	case !m.whole.Shown() || m.focus != paneDetail || m.mode != modeNormal:
		return nil, false
	}
	return m.openWholeKey(msg)
}

// openWholeKey takes a key while a view opened whole has the keys: Esc
// closes it, the moving keys scroll it (h and l sideways).
func (m *model) openWholeKey(msg tea.KeyPressMsg) (cmd tea.Cmd, ok bool) {
	k := &m.keys.Whole
	switch {
	case key.Matches(msg, k.Close) && m.ops.call == nil && m.ops.request == nil && !m.ops.walking():
		// Esc cancels what is in flight first, as everywhere.
		m.whole.Close()
		return nil, true
	case m.replay != nil && (msg.String() == "left" || msg.String() == "right"):
		// The scrubber's: h and l scroll sideways in a replay.
		return nil, false
	case panes.SidewaysKey(msg, &k.SidewaysKeyMap, &m.whole.sc):
		return nil, true
	}
	return nil, panes.MoveKey(msg, &k.MoveKeyMap, &m.whole.sc)
}
