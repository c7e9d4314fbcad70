package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// helpView shows the full help: every key, gathered by the root from the
// maps of every part, and what the badges mean. It scrolls with its own
// keys.
type helpView struct {
	keys *HelpKeyMap
	sc   scroller
}

// Open shows the help from its top.
func (v *helpView) Open() { v.sc.Top() }

// SetContent replaces the text shown, keeping the scroll position when it
// can.
func (v *helpView) SetContent(text string) { v.sc.SetLines(strings.Split(text, "\n")) }

// SetSize sizes the view.
func (v *helpView) SetSize(w, h int) { v.sc.SetSize(w, h) }

// Update scrolls on the view's moving keys.
func (v *helpView) Update(msg tea.KeyPressMsg) {
	moveKey(msg, &v.keys.MoveKeyMap, &v.sc)
}

// Wheel scrolls by n lines.
func (v *helpView) Wheel(n int) { v.sc.ScrollBy(n) }

// View renders the visible lines.
func (v *helpView) View() string { return v.sc.View() }

// ShortHelp returns the view's keys for the help line.
func (v *helpView) ShortHelp() []key.Binding {
	return []key.Binding{v.keys.Up, v.keys.Down, v.keys.Top, v.keys.Bottom, v.keys.Close}
}
