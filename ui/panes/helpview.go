package panes

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// HelpView shows the full help: every key, gathered by the root from the
// maps of every part, and what the badges mean. It scrolls with its own
// Keys.
type HelpView struct {
	Keys *HelpKeyMap
	Sc   Scroller
}

// Open shows the help from its top.
func (v *HelpView) Open() { v.Sc.Top() }

// SetContent replaces the text shown, keeping the scroll position when it
// can.
func (v *HelpView) SetContent(text string) { v.Sc.SetLines(strings.Split(text, "\n")) }

// SetSize sizes the view.
func (v *HelpView) SetSize(w, h int) { v.Sc.SetSize(w, h) }

// Update scrolls on the view's moving Keys.
func (v *HelpView) Update(msg tea.KeyPressMsg) {
	MoveKey(msg, &v.Keys.MoveKeyMap, &v.Sc)
}

// Wheel scrolls by n lines.
func (v *HelpView) Wheel(n int) { v.Sc.ScrollBy(n) }

// View renders the visible lines.
func (v *HelpView) View() string { return v.Sc.View() }

// ShortHelp returns the view's Keys for the help line.
func (v *HelpView) ShortHelp() []key.Binding {
	return []key.Binding{v.Keys.Up, v.Keys.Down, v.Keys.Top, v.Keys.Bottom, v.Keys.Close}
}
