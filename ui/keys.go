package ui

import "charm.land/bubbles/v2/key"

// KeyMap holds every key binding of the UI. [DefaultKeyMap] builds it; the
// help bubble renders it.
type KeyMap struct {
	// Moving.
	Up       key.Binding
	Down     key.Binding
	PageUp   key.Binding
	PageDown key.Binding
	Top      key.Binding
	Bottom   key.Binding
	NextPane key.Binding
	PrevPane key.Binding

	// Acting.
	Call     key.Binding // open the argument editor of the selected tool
	Back     key.Binding // close, cancel the call or abort the walk in flight
	Filter   key.Binding
	Walk     key.Binding
	Wire     key.Binding
	Export   key.Binding
	Theme    key.Binding
	Help     key.Binding
	Quit     key.Binding
	Copy     key.Binding
	PrevCall key.Binding
	NextCall key.Binding
	Force    key.Binding // send a refused call anyway (asks first)
	Confirm  key.Binding

	// The argument editor.
	Send      key.Binding
	NextField key.Binding
	PrevField key.Binding
	Choice    key.Binding // cycle an enum field's choices
	Raw       key.Binding // switch between the form and raw JSON

	// Replaying a session file: the scrubber.
	StepBack    key.Binding // one event back
	StepForward key.Binding // one event forward
	PrevMoment  key.Binding // back to the previous page, walk, call or list change
	NextMoment  key.Binding
	First       key.Binding // the start of the session
	Last        key.Binding // its end

	// Interrupt quits even while text is being typed.
	Interrupt key.Binding
}

// DefaultKeyMap returns the default key bindings.
func DefaultKeyMap() KeyMap {
	b := func(keys []string, help, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	k := func(keys ...string) []string { return keys }
	return KeyMap{
		Up:       b(k("up", "k"), "↑/k", "up"),
		Down:     b(k("down", "j"), "↓/j", "down"),
		PageUp:   b(k("pgup", "ctrl+u"), "pgup", "page up"),
		PageDown: b(k("pgdown", "ctrl+d"), "pgdn", "page down"),
		Top:      b(k("home", "g"), "g/home", "top"),
		Bottom:   b(k("end", "G"), "G/end", "bottom"),
		NextPane: b(k("tab"), "tab", "pane"),
		PrevPane: b(k("shift+tab"), "shift+tab", "previous pane"),

		Call:     b(k("enter"), "enter", "call"),
		Back:     b(k("esc"), "esc", "back/cancel"),
		Filter:   b(k("/"), "/", "filter"),
		Walk:     b(k("r"), "r", "walk again"),
		Wire:     b(k("w"), "w", "wire"),
		Export:   b(k("e"), "e", "export"),
		Theme:    b(k("t"), "t", "theme"),
		Help:     b(k("?"), "?", "help"),
		Quit:     b(k("q", "ctrl+c"), "q", "quit"),
		Copy:     b(k("y"), "y", "copy frame"),
		PrevCall: b(k("["), "[", "older call"),
		NextCall: b(k("]"), "]", "newer call"),
		Force:    b(k("f"), "f", "send anyway"),
		Confirm:  b(k("enter"), "enter", "confirm"),

		Send:      b(k("ctrl+s"), "ctrl+s", "send"),
		NextField: b(k("tab", "down"), "tab/↓", "next field"),
		PrevField: b(k("shift+tab", "up"), "shift+tab/↑", "previous field"),
		Choice:    b(k("left", "right"), "←/→", "choose"),
		Raw:       b(k("ctrl+r"), "ctrl+r", "form/raw JSON"),

		StepBack:    b(k(",", "left"), ",/←", "event back"),
		StepForward: b(k(".", "right"), "./→", "event forward"),
		PrevMoment:  b(k("<", "shift+left"), "</shift+←", "previous moment"),
		NextMoment:  b(k(">", "shift+right"), ">/shift+→", "next moment"),
		First:       b(k("{"), "{", "start of the session"),
		Last:        b(k("}"), "}", "end of the session"),

		Interrupt: b(k("ctrl+c"), "ctrl+c", "quit"),
	}
}

// helpMap adapts a short and a full list of bindings to the help bubble.
type helpMap struct {
	short []key.Binding
	full  [][]key.Binding
}

func (h helpMap) ShortHelp() []key.Binding  { return h.short }
func (h helpMap) FullHelp() [][]key.Binding { return h.full }
