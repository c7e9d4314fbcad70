package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"mcpwitness/ui/panes"
)

// click takes a left click while browsing: on a list row it focuses the
// pane and selects the row (a click on the selected event opens it
// whole), on the tab strip it switches the tab, on a pane it focuses it.
// Where the panes are comes from the layout made in resize; nothing is
// measured here but the tab strip drawn last.
func (m *model) click(ms tea.Mouse) tea.Cmd {
	switch l := m.lay; {
	case ms.Button != tea.MouseLeft || !m.mode.free(),
		m.replay != nil && !m.replay.Loaded() || m.St.Server() == nil && m.replay == nil:
		return nil
	case !l.short && ms.Y >= l.eventsTop && ms.Y < l.eventsTop+l.eventsH:
		return m.clickEvents(ms.Y - l.eventsTop)
	case ms.Y < l.bodyTop || ms.Y >= l.bodyTop+l.bodyH:
		return nil
	}
	return m.clickBody(ms.X, ms.Y-m.lay.bodyTop)
}

// clickBody takes a click at column x of row y of the body: the wire
// pane's list or frame, the detail pane, or the list panes with the tab
// strip over them.
func (m *model) clickBody(x, y int) tea.Cmd {
	l := m.lay
	switch {
	case l.short && m.focus == paneEvents:
		return m.clickEvents(y)
	case m.mode == modeWire:
		if y >= 1 && y <= m.wire.List.H {
			m.setFocus(paneWire)
			m.wire.Click(y - 1)
			return m.wire.Sync()
		}
		m.setFocus(paneFrame)
		return nil
	case l.stacked && m.focus == paneDetail, !l.stacked && x >= l.leftW+3:
		m.setFocus(paneDetail)
		return nil
	case !l.stacked && x >= l.leftW:
		return nil // the rule between the panes
	}
	if m.showsTabs() {
		if y == 0 {
			m.clickTab(x)
			return nil
		}
		y--
	}
	m.setFocus(paneTools)
	m.whole.Close()
	if y == 0 {
		return nil // the title
	}
	if m.tab == tabTools {
		m.tools.Click(y - 1)
		return nil
	}
	m.items[m.tab.item()].Click(y - 1)
	return nil
}

// clickEvents focuses the events pane and selects the row at line y of
// the pane (its title is line 0); a click on the row already selected in
// the focused pane opens it whole.
func (m *model) clickEvents(y int) tea.Cmd {
	focused := m.focus == paneEvents
	m.setFocus(paneEvents)
	if y >= 1 && m.events.Click(y-1) && focused {
		return m.openWhole()
	}
	return nil
}

// clickTab switches to the tab drawn at column x of the tab strip.
func (m *model) clickTab(x int) {
	pos := 0
	for i, part := range strings.Split(ansi.Strip(m.drawn.tabs), " · ") {
		w := ansi.StringWidth(part)
		if x >= pos && x < pos+w {
			m.switchTab(i)
			return
		}
		pos += w + 3
	}
}

// wheelWhole scrolls the event opened whole while the pointer is over it
// (sideways with a horizontal wheel); it says whether it was.
func (m *model) wheelWhole(ms tea.Mouse) bool {
	l := m.lay
	switch {
	case !m.whole.Shown() || m.mode != modeNormal, ms.Y < l.bodyTop || ms.Y >= l.bodyTop+l.bodyH,
		l.stacked && m.focus != paneDetail, !l.stacked && ms.X < l.leftW+3:
		return false
	}
	switch ms.Button {
	case tea.MouseWheelUp:
		m.whole.sc.ScrollBy(-3)
	case tea.MouseWheelDown:
		m.whole.sc.ScrollBy(3)
	case tea.MouseWheelLeft:
		m.whole.sc.ScrollX(-panes.ScrollStep)
	case tea.MouseWheelRight:
		m.whole.sc.ScrollX(panes.ScrollStep)
	default:
		return false
	}
	return true
}

// wheelDetailX scrolls the document on the right (the detail pane, an
// item's pane), or the wire pane's frame, sideways with a horizontal
// wheel while the pointer is over it; it says whether it did. An event opened whole has its own
// wheel (see [model.wheelWhole]).
func (m *model) wheelDetailX(ms tea.Mouse) bool {
	l := m.lay
	n := panes.ScrollStep
	if ms.Button == tea.MouseWheelLeft {
		n = -panes.ScrollStep
	}
	switch {
	case ms.Button != tea.MouseWheelLeft && ms.Button != tea.MouseWheelRight:
		return false
	case m.mode == modeWire && ms.Y >= l.bodyTop && ms.Y < l.bodyTop+l.bodyH:
		return m.wire.WheelX(ms.Y-l.bodyTop, n)
	case m.mode != modeNormal || m.whole.Shown(),
		ms.Y < l.bodyTop || ms.Y >= l.bodyTop+l.bodyH,
		l.stacked && m.focus != paneDetail, !l.stacked && ms.X < l.leftW+3:
		return false
	}
	sc := &m.detail.sc
	if m.tab != tabTools {
		sc = &m.item.Sc
	}
	sc.ScrollX(n)
	return true
}
