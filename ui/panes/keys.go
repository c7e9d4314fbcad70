package panes

import "charm.land/bubbles/v2/key"

// KeyMap holds every key Binding of the UI, one map per part that owns
// keys: the root's global keys, each pane's, the editor's, the replay
// Scrubber's and the help view's. [DefaultKeyMap] Builds it; each part's
// ShortHelp reads its own map for the help line, and the full help
// gathers the keys of every map.
type KeyMap struct {
	Global   GlobalKeyMap
	Tools    ToolsKeyMap
	Items    ItemsKeyMap
	Item     ItemKeyMap
	Detail   DetailKeyMap
	Editor   EditorKeyMap
	Form     FormKeyMap
	Level    LevelKeyMap
	Events   EventsKeyMap
	Ask      AskKeyMap
	Roots    RootsKeyMap
	Whole    WholeKeyMap
	Wire     WireKeyMap
	Scrubber ScrubberKeyMap
	Help     HelpKeyMap
}

// GlobalKeyMap holds the keys that mean the same whichever pane has the
// focus; the root handles them.
type GlobalKeyMap struct {
	NextPane key.Binding
	PrevPane key.Binding
	Back     key.Binding // cancel the call or abort the walk in flight, else go back
	Walk     key.Binding
	Wire     key.Binding
	Export   key.Binding
	// Tabs switches the list shown: 1 is the first tab, 2 the second….
	Tabs     key.Binding
	Ping     key.Binding
	LogLevel key.Binding // pick the level the server logs at
	Roots    key.Binding // edit the roots answered to roots/list
	OpenAuth key.Binding // open the authorization URL of an OAuth flow waiting on the browser
	Restart  key.Binding // restart the server: a new process or a new HTTP session
	Theme    key.Binding
	// Copy copies what is selected in the focused pane (a tool's
	// definition, the section of a call in view, an event, a frame, an
	// item's URI) to the clipboard, with OSC 52.
	Copy key.Binding
	Help key.Binding
	Quit key.Binding
	// Interrupt quits even while text is being typed.
	Interrupt key.Binding
}

// MoveKeyMap moves through a list or a document.
type MoveKeyMap struct {
	Up       key.Binding
	Down     key.Binding
	PageUp   key.Binding
	PageDown key.Binding
	Top      key.Binding
	Bottom   key.Binding
}

// ToolsKeyMap is the tools pane's.
type ToolsKeyMap struct {
	MoveKeyMap
	Call   key.Binding // open the argument editor of the selected tool
	Filter key.Binding
	Held   key.Binding // hide the held/own column and its legend, or show them
}

// ItemsKeyMap is the keys of the resources, templates and prompts
type ItemsKeyMap struct {
	MoveKeyMap
	Open      key.Binding // read the resource, fill the template, get the prompt
	Filter    key.Binding
	Subscribe key.Binding // subscribe to the resource, or unsubscribe
}

// ItemKeyMap is the keys of the pane that shows an item and its latest
// request.
type ItemKeyMap struct {
	MoveKeyMap
	SidewaysKeyMap
	Open key.Binding // read or get it again
}

// SidewaysKeyMap is the keys that scroll a document's wide JSON lines
// sideways: in the detail pane, an item's pane, a view opened whole and
// the wire pane's frame.
type SidewaysKeyMap struct {
	Left, Right key.Binding
}

// DefaultSidewaysKeyMap returns the default sideways keys.
func DefaultSidewaysKeyMap() SidewaysKeyMap {
	return SidewaysKeyMap{Left: Binding("h/←", "scroll left", "h", "left"), Right: Binding("h/l", "scroll sideways", "l", "right")}
}

// DetailKeyMap is the detail pane's.
type DetailKeyMap struct {
	MoveKeyMap
	Call     key.Binding // open the argument editor of the tool shown
	PrevCall key.Binding
	NextCall key.Binding
	Force    key.Binding // send a refused call anyway (asks first)
	Task     key.Binding // run the call shown (refused or plain) as a task
	Confirm  key.Binding
	SidewaysKeyMap
	// NextVerdict and PrevVerdict pick a verdict of the call shown;
	// OpenVerdict opens the picked one whole.
	NextVerdict, PrevVerdict, OpenVerdict key.Binding
}

// EditorKeyMap is the argument editor's.
type EditorKeyMap struct {
	Send      key.Binding
	NextField key.Binding
	PrevField key.Binding
	Choice    key.Binding // cycle an enum field's choices
	Raw       key.Binding // switch between the form and raw JSON
	Schema    key.Binding // show or hide the input schema beside the raw JSON
	Skeleton  key.Binding // put the skeleton of the property under the cursor in its place
}

// EventsKeyMap is the events pane's.
type EventsKeyMap struct {
	MoveKeyMap
	Level key.Binding // show only log messages at a level or above, cycling
	Open  key.Binding // open the selected event whole in the detail pane
}

// WholeKeyMap is the keys of an event opened whole in the detail pane.
type WholeKeyMap struct {
	MoveKeyMap
	SidewaysKeyMap
	Close key.Binding
}

// WireKeyMap is the wire pane's. Its y (copy the frame, controls shown
// visibly) is the global [GlobalKeyMap.Copy]; CopyRaw copies it as sent.
type WireKeyMap struct {
	MoveKeyMap
	SidewaysKeyMap // the frame's wide JSON lines
	CopyRaw        key.Binding
}

// ScrubberKeyMap is the replay Scrubber's.
type ScrubberKeyMap struct {
	StepBack    key.Binding // one event back
	StepForward key.Binding // one event forward
	PrevMoment  key.Binding // back to the previous page, walk, call, request or list change
	NextMoment  key.Binding
	First       key.Binding // the start of the session
	Last        key.Binding // its end
}

// LevelKeyMap is the log level picker's.
type LevelKeyMap struct {
	Prev, Next key.Binding
	Pick       key.Binding
}

// HelpKeyMap is the full help view's.
type HelpKeyMap struct {
	MoveKeyMap
	Close key.Binding
}

func Binding(help, desc string, keys ...string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
}

// DefaultKeyMap returns the default key bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Global: DefaultGlobalKeyMap(),
		Tools: ToolsKeyMap{MoveKeyMap: DefaultMoveKeyMap(), Call: CallKey(), Filter: Binding("/", "filter", "/"),
			Held: Binding("H", "hide held/own", "H")},
		Items: ItemsKeyMap{MoveKeyMap: DefaultMoveKeyMap(), Open: Binding("enter", "read/get", "enter"),
			Filter: Binding("/", "filter", "/"), Subscribe: Binding("s", "subscribe", "s")},
		Item: ItemKeyMap{MoveKeyMap: DefaultMoveKeyMap(), SidewaysKeyMap: DefaultSidewaysKeyMap(),
			Open: Binding("enter", "again", "enter")},
		Detail: DefaultDetailKeyMap(),
		Editor: DefaultEditorKeyMap(),
		Events: EventsKeyMap{MoveKeyMap: DefaultMoveKeyMap(), Level: Binding("v", "events by level", "v"),
			Open: Binding("enter", "open whole", "enter")},
		Whole: WholeKeyMap{MoveKeyMap: DefaultMoveKeyMap(), SidewaysKeyMap: DefaultSidewaysKeyMap(),
			Close: Binding("esc", "close", "esc")},
		Wire: WireKeyMap{MoveKeyMap: DefaultMoveKeyMap(), SidewaysKeyMap: DefaultSidewaysKeyMap(),
			CopyRaw: Binding("Y", "copy frame raw", "Y")},
		Scrubber: DefaultScrubberKeyMap(),
		Ask:      DefaultAskKeyMap(),
		Roots:    DefaultRootsKeyMap(),
		Form:     DefaultFormKeyMap(),
		Level: LevelKeyMap{Prev: Binding("←/↑", "less", "left", "up", "h", "k"), Next: Binding("→/↓", "more", "right", "down", "l", "j"),
			Pick: Binding("enter", "set level", "enter")},
		Help: HelpKeyMap{MoveKeyMap: DefaultMoveKeyMap(), Close: Binding("?/esc", "close", "?", "esc")},
	}
}

// DefaultGlobalKeyMap returns the default global keys.
func DefaultGlobalKeyMap() GlobalKeyMap {
	return GlobalKeyMap{
		NextPane:  Binding("tab", "pane", "tab"),
		PrevPane:  Binding("shift+tab", "previous pane", "shift+tab"),
		Back:      Binding("esc", "back/cancel", "esc"),
		Walk:      Binding("r", "walk again", "r"),
		Wire:      Binding("w", "wire", "w"),
		Export:    Binding("e", "export", "e"),
		Tabs:      Binding("1-5", "tabs", "1", "2", "3", "4", "5"),
		Ping:      Binding("p", "ping", "p"),
		LogLevel:  Binding("L", "log level", "L"),
		Roots:     Binding("o", "roots", "o"),
		OpenAuth:  Binding("o", "open authorization URL", "o"),
		Restart:   Binding("R", "restart server", "R"),
		Theme:     Binding("t", "theme", "t"),
		Copy:      Binding("y", "copy", "y"),
		Help:      Binding("?", "help", "?"),
		Quit:      Binding("q", "quit", "q", "ctrl+c"),
		Interrupt: Binding("ctrl+c", "quit", "ctrl+c"),
	}
}

// DefaultMoveKeyMap returns the default moving keys.
func DefaultMoveKeyMap() MoveKeyMap {
	return MoveKeyMap{
		Up:       Binding("↑/k", "up", "up", "k"),
		Down:     Binding("↓/j", "down", "down", "j"),
		PageUp:   Binding("pgup", "page up", "pgup", "ctrl+u"),
		PageDown: Binding("pgdn", "page down", "pgdown", "ctrl+d"),
		Top:      Binding("g/home", "top", "home", "g"),
		Bottom:   Binding("G/end", "bottom", "end", "G"),
	}
}

// Bindings returns the moving keys in the order help shows them.
func (k MoveKeyMap) Bindings() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}
}

func CallKey() key.Binding { return Binding("enter", "call", "enter") }

// DefaultDetailKeyMap returns the detail pane's default keys.
func DefaultDetailKeyMap() DetailKeyMap {
	return DetailKeyMap{
		MoveKeyMap:     DefaultMoveKeyMap(),
		Call:           CallKey(),
		PrevCall:       Binding("[", "older call", "["),
		NextCall:       Binding("]", "newer call", "]"),
		Force:          Binding("f", "send anyway", "f"),
		Task:           Binding("T", "run as task", "T"),
		Confirm:        Binding("enter", "confirm", "enter"),
		SidewaysKeyMap: DefaultSidewaysKeyMap(),
		NextVerdict:    Binding("n/N", "pick verdict", "n"),
		PrevVerdict:    Binding("N", "previous verdict", "N"),
		OpenVerdict:    Binding("enter", "open verdict", "enter"),
	}
}

// DefaultEditorKeyMap returns the editor's default keys.
func DefaultEditorKeyMap() EditorKeyMap {
	return EditorKeyMap{
		Send:      Binding("ctrl+s", "send", "ctrl+s"),
		NextField: Binding("tab/↓", "next field", "tab", "down"),
		PrevField: Binding("shift+tab/↑", "previous field", "shift+tab", "up"),
		Choice:    Binding("←/→", "choose", "left", "right"),
		Raw:       Binding("ctrl+r", "form/raw JSON", "ctrl+r"),
		Schema:    Binding("ctrl+o", "schema", "ctrl+o"),
		Skeleton:  Binding("ctrl+x", "skeleton", "ctrl+x"),
	}
}

// DefaultScrubberKeyMap returns the Scrubber's default keys.
func DefaultScrubberKeyMap() ScrubberKeyMap {
	return ScrubberKeyMap{
		StepBack:    Binding(",/←", "event back", ",", "left"),
		StepForward: Binding("./→", "event forward", ".", "right"),
		PrevMoment:  Binding("</shift+←", "previous moment", "<", "shift+left"),
		NextMoment:  Binding(">/shift+→", "next moment", ">", "shift+right"),
		First:       Binding("{", "start of the session", "{"),
		Last:        Binding("}", "end of the session", "}"),
	}
}

// DisableLiveKeys switches off the keys that need a live server: walking,
// calling (the editor's keys with it), sending anyway, exporting.
func DisableLiveKeys(k *KeyMap) {
	for _, b := range []*key.Binding{&k.Global.Walk, &k.Global.Export, &k.Global.Ping, &k.Global.LogLevel, &k.Items.Open,
		&k.Items.Subscribe, &k.Item.Open, &k.Tools.Call, &k.Detail.Call, &k.Detail.Force, &k.Detail.Task,
		&k.Detail.Confirm, &k.Editor.Send, &k.Editor.NextField, &k.Editor.PrevField, &k.Editor.Choice, &k.Editor.Raw} {
		b.SetEnabled(false)
	}
}
