package panes

import "charm.land/bubbles/v2/key"

// AskKeyMap is the keys of the modal that answers a server's request
// (sampling, elicitation). The form of an elicitation keeps the argument
// editor's keys for its fields.
type AskKeyMap struct {
	Accept  key.Binding // accept the form, send the reply, accept a URL
	Decline key.Binding
	Cancel  key.Binding // cancel an elicitation; decline a sampling request
	Open    key.Binding // open an elicitation's URL
	Stop    key.Binding // cycle a sampling reply's stop reason
	Load    key.Binding // load a sampling reply from a file
	Scroll  MoveKeyMap  // scroll the request
}

// DefaultAskKeyMap returns the modal's default keys.
func DefaultAskKeyMap() AskKeyMap {
	return AskKeyMap{
		Accept:  Binding("ctrl+s", "accept/send", "ctrl+s"),
		Decline: Binding("ctrl+x", "decline", "ctrl+x"),
		Cancel:  Binding("esc", "cancel", "esc"),
		Open:    Binding("ctrl+o", "open URL", "ctrl+o"),
		Stop:    Binding("ctrl+t", "stop reason", "ctrl+t"),
		Load:    Binding("ctrl+l", "load reply file", "ctrl+l"),
		Scroll: MoveKeyMap{
			Up:       Binding("pgup", "scroll up", "pgup"),
			Down:     Binding("pgdn", "scroll down", "pgdown"),
			PageUp:   Binding("pgup", "scroll up", "pgup"),
			PageDown: Binding("pgdn", "scroll down", "pgdown"),
			Top:      Binding("home", "top", "home"),
			Bottom:   Binding("end", "bottom", "end"),
		},
	}
}

// RootsKeyMap is the keys of the roots editor.
type RootsKeyMap struct {
	MoveKeyMap
	Add    key.Binding // type a directory to add
	Remove key.Binding
	Close  key.Binding
}

// DefaultRootsKeyMap returns the roots editor's default keys.
func DefaultRootsKeyMap() RootsKeyMap {
	return RootsKeyMap{
		MoveKeyMap: DefaultMoveKeyMap(),
		Add:        Binding("a", "add directory", "a"),
		Remove:     Binding("d/del", "remove", "d", "delete"),
		Close:      Binding("esc", "close", "esc"),
	}
}
