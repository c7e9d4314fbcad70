package ui

import "context"

// mode is what has the keys and what the body shows. Each mode has a key
// handler of its own ([model.key] picks it); the screen, the help line
// and the spinner read the mode rather than work it out again. A new
// part that takes the keys (a form, a modal for a server's request, a
// picker) is a new mode: a constant here, a case in [model.key] and in
// [model.modeBindings], and what the body draws for it.
type mode int

const (
	// modeNormal: the tools and detail panes, keys to the focused pane.
	modeNormal mode = iota
	// modeWire: the wire pane (and its frame) in place of tools and detail.
	modeWire
	// modeFilter: the tools pane's filter input has the keys.
	modeFilter
	// modeEditor: the argument editor has the keys.
	modeEditor
	// modeConfirm: the detail pane asks before a refused call is sent anyway.
	modeConfirm
	// modeHelp: the full help, over the mode it was opened from.
	modeHelp
	// modeForm: the form of a template's variables or a prompt's
	// arguments has the keys.
	modeForm
	// modeLevel: the log level picker has the keys.
	modeLevel
	// modeAsk: the modal answering a server's request (sampling,
	// elicitation) has the keys, over the mode it opened from.
	modeAsk
	// modeRoots: the roots editor has the keys.
	modeRoots
)

// typing says whether keys go to a text input (q and ? are letters there).
func (md mode) typing() bool {
	return md == modeEditor || md == modeFilter || md == modeForm || md == modeAsk || md == modeRoots
}

// link is how the session stands with its server.
type link int

const (
	// linkNone: nothing to dial and no backend (a replay).
	linkNone link = iota
	// linkDialing: the dial is in flight.
	linkDialing
	// linkUp: a backend answers.
	linkUp
	// linkFailed: the dial failed; the model's dialErr says why.
	linkFailed
)

// ops are the operations the UI started that are in flight: at most one
// walk of each list, one call, one request (a read, a prompt, a
// subscription, a log level), one ping and one export.
type ops struct {
	walks   map[string]*walkOp // by list method
	call    *callOp
	request *requestOp
	ping    context.CancelFunc
	export  bool
}

// walking says whether any walk is in flight.
func (o *ops) walking() bool { return len(o.walks) > 0 }

// walkOp is a walk in flight.
type walkOp struct {
	cancel context.CancelFunc
	// again walks once more when this one returns (a list change, or r
	// pressed during it).
	again bool
}

// callOp is a call in flight.
type callOp struct {
	tool   string
	cancel context.CancelFunc
	// awaiting: the detail pane waits to show the call's start.
	awaiting bool
	// note is the status id of "cancelling…", while it shows.
	note int
}

// requestOp is a request in flight other than a list or a call.
type requestOp struct {
	method, about string
	cancel        context.CancelFunc
}

// calling names the tool of the call in flight, or "".
func (o *ops) calling() string {
	if o.call == nil {
		return ""
	}
	return o.call.tool
}

// cancelAll cancels whatever is in flight (the answers still arrive).
func (o *ops) cancelAll() {
	if o.call != nil {
		o.call.cancel()
	}
	for _, w := range o.walks {
		w.cancel()
	}
	if o.request != nil {
		o.request.cancel()
	}
	if o.ping != nil {
		o.ping()
	}
}

// base is the mode under the help, or the mode itself.
func (m *model) base() mode {
	if m.mode == modeHelp {
		return m.helpFrom
	}
	return m.mode
}

// openHelp shows the full help over the current mode.
func (m *model) openHelp() {
	m.helpFrom, m.mode = m.mode, modeHelp
	m.helpView.Open()
}

// closeHelp goes back to the mode help was opened from.
func (m *model) closeHelp() { m.mode = m.helpFrom }

// settle brings the mode in line with what the panes report after a
// message: a filter the tools pane started or ended, a confirmation the
// detail pane dropped (another tool shown).
func (m *model) settle() {
	filtering := m.tools.Filtering()
	if m.tab != tabTools {
		filtering = m.items[m.tab.item()].Filtering()
	}
	switch {
	case m.mode == modeNormal && filtering:
		m.mode = modeFilter
	case m.mode == modeFilter && !filtering:
		m.mode = modeNormal
	case m.mode == modeConfirm && !m.detail.Confirming():
		m.mode = modeNormal
	}
}
