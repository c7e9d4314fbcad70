package panes

import "charm.land/bubbles/v2/key"

// FormKeyMap is the form's.
type FormKeyMap struct {
	Submit     key.Binding // send; on a suggestion, pick it
	Force      key.Binding // send past missing required fields
	NextField  key.Binding
	PrevField  key.Binding
	NextSuggst key.Binding
	PrevSuggst key.Binding
	Cancel     key.Binding
}

// DefaultFormKeyMap returns the form's default keys.
func DefaultFormKeyMap() FormKeyMap {
	return FormKeyMap{
		Submit:     Binding("enter", "send/pick", "enter"),
		Force:      Binding("alt+enter", "send anyway", "alt+enter"),
		NextField:  Binding("tab", "next field", "tab"),
		PrevField:  Binding("shift+tab", "previous field", "shift+tab"),
		NextSuggst: Binding("↓", "next suggestion", "down"),
		PrevSuggst: Binding("↑", "previous suggestion", "up"),
		Cancel:     Binding("esc", "cancel", "esc"),
	}
}

// ShortHelp returns the keys the help line shows.
func (k FormKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Submit, k.NextField, k.NextSuggst, k.Force, k.Cancel}
}

// FullHelp returns every form key, in columns.
func (k FormKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Submit, k.Force, k.Cancel}, {k.NextField, k.PrevField, k.NextSuggst, k.PrevSuggst}}
}
