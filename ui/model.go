package ui

import (
	"context"
	"encoding/json"
	"mcpwitness/ui/panes"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/progress"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"mcpwitness/checks"
	"mcpwitness/fold"
	"mcpwitness/paging"
	"mcpwitness/record"
	"mcpwitness/replay"
	"mcpwitness/sanitize"
	"mcpwitness/session"
	"mcpwitness/themes"
)

// Backend is what the UI asks of a live session. A read-only replay passes
// nil: everything on screen comes from events either way.
// [session.Session] is one.
type Backend interface {
	// Info is what the handshake told about the server.
	Info() record.ServerInfo
	Walk(ctx context.Context, m paging.Method) (int64, *paging.Result)
	Call(ctx context.Context, name string, args json.RawMessage, opts *session.CallOptions) *session.CallResult
	ReadResource(ctx context.Context, uri string) *session.RequestResult
	GetPrompt(ctx context.Context, name string, args map[string]string, opts *session.PromptOptions) *session.RequestResult
	Complete(ctx context.Context, ref session.CompleteRef, arg, value string, resolved map[string]string) *session.RequestResult
	Ping(ctx context.Context) *session.RequestResult
	SetLogLevel(ctx context.Context, level string) *session.RequestResult
	Subscribe(ctx context.Context, uri string) *session.RequestResult
	Unsubscribe(ctx context.Context, uri string) *session.RequestResult
}

// Messages.
type (
	// eventMsg is one session event.
	eventMsg record.Event
	// eventsMsg is a batch of session events, in order, from the bridge.
	eventsMsg []record.Event
	// connectedMsg says the dial succeeded.
	connectedMsg struct{ backend Backend }
	// dialFailedMsg says the dial failed.
	dialFailedMsg struct{ err error }
	// walkDoneMsg says a walk started by the UI returned.
	walkDoneMsg struct {
		method paging.Method
		id     int64
		res    *paging.Result
	}
	// callDoneMsg says a call started by the UI returned.
	callDoneMsg struct {
		tool string
		res  *session.CallResult
	}
	// exportDoneMsg says where an export went, or why it failed.
	exportDoneMsg struct {
		ex  record.Exported
		err error
	}
	statusMsg struct {
		text  string
		level level
	}
	statusExpiredMsg struct{ id int }
)

// status is the status line's message; id tells a message from the next,
// so only its own timer clears it.
type status struct {
	text  string
	level level
	id    int
}

// level is how a status message reads: news, success, a warning or an
// error.
type level int

// Status levels.
const (
	levelInfo level = iota
	levelOK
	levelWarn
	levelError
)

// render draws the message with its level's mark and colour.
func (st status) render(s *themes.Styles) string {
	style, mark := s.Info, "•"
	switch st.level {
	case levelOK:
		style, mark = s.Pass, "✓"
	case levelWarn:
		style, mark = s.Warn, "⚠"
	case levelError:
		style, mark = s.Fail, "✗"
	}
	return style.Render(mark + " " + st.text)
}

// pane names the pane with the keys.
type pane int

const (
	paneTools pane = iota
	paneDetail
	paneEvents
	paneWire
	paneFrame
)

// options are what a [model] is made with.
type options struct {
	Backend Backend
	// Dial connects; nil when Backend is given or for a replay.
	Dial   func(ctx context.Context) (Backend, error)
	Target string // shown while connecting
	// Loopback says the server is on loopback, where a plain http URL of
	// its may be opened (see [oauth.CheckOpenURL]).
	Loopback bool
	Theme    string // "" chooses: dark, light on a light background, mono with NoColor
	NoColor  bool
	// Export writes the session file and says where; nil when there is
	// nothing to export.
	Export func(ctx context.Context) (record.Exported, error)
	Ctx    context.Context
	Tasks  *tasks
	// LogLevel is the level the server is asked to log at once connected
	// ([Config.LogLevel]); "" asks nothing.
	LogLevel string
	Now      func() time.Time
	Loc      *time.Location
	// Replay, when set, makes the model a read-only replay of a session
	// file: no backend, no dial, and the scrubber.
	Replay *replay.Replay
}

// model is the root of the UI: the only tea.Model. It folds session events
// into its state and lays the panes out.
type model struct {
	o options
	*panes.Common
	keys  panes.KeyMap // the panes' maps point into it
	theme string
	fixed bool // the theme was chosen, not guessed
	w, h  int
	lay   layout

	backend Backend
	// several, when the model is one server of several, is the root's
	// keys (S, E), which the full help lists.
	several *ServersKeyMap
	link    link
	dialErr error // why the dial failed, with linkFailed
	v       *checks.Validator

	strip    bool                   // the tab strip shows (the list panes are a row shorter)
	declared declared               // what the server declared
	tab      tab                    // the list shown
	tools    panes.ToolsPane        // tabTools
	items    [numItemTabs]itemsPane // the other tabs, from tabResources on
	item     panes.ItemPane         // the detail of the selected item
	detail   detailPane
	editor   panes.EditorPane
	form     panes.FormPane
	// formID numbers the forms opened; formItem is what the open one fills.
	formID   int
	formItem *fold.Item
	// level is the log level picked in the picker (an index of
	// session.LogLevels).
	level  int
	wire   panes.WirePane
	events panes.EventsPane
	// whole is an event opened whole, in the place of the detail pane.
	whole wholeView
	focus pane

	mode     mode
	helpFrom mode            // the mode under the help
	ops      ops             // what is in flight
	queued   []paging.Method // the first walks not started yet

	help     help.Model
	helpView panes.HelpView // the full help
	spin     spinner.Model
	spinning bool           // a tick is on its way
	bar      progress.Model // reading a replay's file

	replay *replay.Replay // nil for a live session
	scrub  panes.Scrubber // a replay's control

	status status // the status line's message
	// ask is the modal answering the server's requests; roots the roots
	// editor.
	ask   askModal
	roots rootsPane
	// restarts is a restart in flight and a lost HTTP session (R).
	restarts restartState

	memo  memo  // drawings of unchanged parts
	drawn drawn // what View puts together
	hp    headerPaints
}

func newModel(o options) *model {
	if o.Ctx == nil {
		o.Ctx = context.Background()
	}
	if o.Tasks == nil {
		o.Tasks = newTasks()
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Loc == nil {
		o.Loc = time.Local
	}
	m := &model{o: o, keys: panes.DefaultKeyMap(), backend: o.Backend, v: checks.NewValidator(), memo: memo{}}
	m.Common = &panes.Common{St: fold.New(nil), Global: &m.keys.Global, Loc: o.Loc}
	switch {
	case o.Backend != nil:
		m.link = linkUp
	case o.Dial != nil:
		m.link = linkDialing
	}
	m.theme, m.fixed = o.Theme, o.Theme != ""
	if m.theme == "" {
		m.theme = themes.Dark
		if o.NoColor {
			m.theme, m.fixed = themes.Mono, true
		}
	}
	sty, ok := themes.ByName(m.theme)
	if !ok {
		m.theme = themes.Dark
		sty, _ = themes.ByName(m.theme)
	}
	m.Sty = &sty
	m.tools = panes.NewToolsPane(m.Common, &m.keys.Tools)
	for t := tabResources; t < numTabs; t++ {
		m.items[t.item()] = newItemsPane(m.Common, &m.keys.Items, t.method().Name)
	}
	m.item = panes.NewItemPane(m.Common, &m.keys.Item)
	m.detail = newDetailPane(m.Common, &m.keys.Detail)
	m.editor = panes.NewEditorPane(m.Common, &m.keys.Editor, m.v)
	m.wire = panes.NewWirePane(m.Common, &m.keys.Wire)
	m.ask = askModal{Common: m.Common, keys: &m.keys.Ask}
	m.events = panes.NewEventsPane(m.Common, &m.keys.Events)
	m.whole = newWholeView(m.Common, &m.keys.Whole)
	m.help = help.New()
	m.help.Styles = m.Sty.Help
	m.helpView = panes.HelpView{Keys: &m.keys.Help}
	m.bar = newBar(m.Sty)
	m.spin = spinner.New(spinner.WithSpinner(spinner.MiniDot), spinner.WithStyle(m.Sty.Spinner))
	m.setFocus(paneTools)
	m.syncDeclared()
	if o.Replay != nil {
		m.startReplay(o.Replay)
	}
	return m
}

// Init dials (when there is something to dial) and asks the terminal for
// its background colour.
func (m *model) Init() tea.Cmd {
	var cmds []tea.Cmd
	if m.replay != nil {
		cmds = append(cmds, m.startLoad())
	} else if d := m.o.Dial; d != nil && m.backend == nil {
		ctx := m.o.Ctx
		cmds = append(cmds, m.o.Tasks.cmd(func() tea.Msg {
			b, err := d(ctx)
			if err != nil {
				return dialFailedMsg{err: err}
			}
			return connectedMsg{backend: b}
		}))
	} else if m.backend != nil {
		cmds = append(cmds, m.connected())
	}
	if !m.fixed {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	cmds = append(cmds, m.ensureSpin())
	return tea.Batch(cmds...)
}

// sync brings the panes up to date with the state after every message.
func (m *model) sync() tea.Cmd {
	cmds := []tea.Cmd{m.tools.Sync()}
	if m.replay != nil {
		// A replay shows only what was listed at the point shown.
		m.detail.SetAbsent("")
		if m.tools.Pending() {
			m.detail.SetAbsent(m.tools.Picked())
			m.detail.ShowTool(nil)
		}
	}
	if sel, shown := m.tools.Selected(), m.detail.Tool(); m.mode != modeEditor && !m.tools.Pending() {
		switch {
		case sel == nil && shown != nil && (m.St.Shown() == nil || len(m.St.Shown().Tools) == 0):
			m.detail.ShowTool(nil)
		case sel != nil && (shown == nil || shown.Name != sel.Name):
			m.detail.ShowTool(sel)
			if m.ops.call != nil {
				m.ops.call.awaiting = false
			}
		case sel != nil && shown != sel:
			// The same tool from a newer walk: keep what is shown.
			m.detail.Renew(sel)
		}
	}
	cmds = append(cmds, m.detail.Sync())
	cmds = append(cmds, m.syncItems())
	if m.base() == modeWire {
		cmds = append(cmds, m.wire.Sync())
	}
	m.events.Sync()
	cmds = append(cmds, m.whole.Sync())
	cmds = append(cmds, m.ensureSpin())
	return tea.Batch(cmds...)
}

// busy says whether something is in flight that the spinner shows.
func (m *model) busy() bool {
	if r := m.replay; r != nil {
		return !r.Loaded() || r.Running() || m.detail.Busy() || m.wire.Busy()
	}
	return m.link == linkDialing || m.St.Out() > 0 || m.ops.walking() || m.ops.call != nil || m.ops.request != nil || m.ops.ping != nil || m.ops.export ||
		m.detail.Busy() || m.wire.Busy()
}

func (m *model) ensureSpin() tea.Cmd {
	if m.spinning || !m.busy() {
		return nil
	}
	m.spinning = true
	return m.spin.Tick
}

// setStatus shows text on the status line for a while; server text in it
// is shown safely.
func (m *model) setStatus(text string, level level) tea.Cmd {
	m.status.id++
	m.status.text, m.status.level = sanitize.Line(text), level
	life := 6 * time.Second
	if level >= levelWarn {
		life = 12 * time.Second
	}
	return afterCmd(m.o.Ctx, life, statusExpiredMsg{id: m.status.id})
}

// afterCmd delivers msg after d, or nothing once ctx is done, so a timer
// never outlives the program.
func afterCmd(ctx context.Context, d time.Duration, msg tea.Msg) tea.Cmd {
	return func() tea.Msg {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
			return msg
		case <-ctx.Done():
			return nil
		}
	}
}

// setTheme rebuilds the styles. Panes get a new pointer, so documents
// still being built elsewhere keep the old, unchanged styles.
func (m *model) setTheme(name string) {
	sty, ok := themes.ByName(name)
	if !ok {
		return
	}
	m.theme, m.Sty = name, &sty
	m.tools.Restyle()
	for i := range m.items {
		m.items[i].restyle()
	}
	m.form.Restyle()
	m.detail.restyle()
	m.editor.Restyle()
	m.events.Restyle()
	m.bar = newBar(m.Sty)
	m.help.Styles = m.Sty.Help
	m.spin.Style = m.Sty.Spinner
}

// View lays the panes out; it renders only what is visible.
func (m *model) View() tea.View {
	content := m.render()
	switch m.mode {
	case modeAsk:
		content = overlay(content, m.askView(), m.w, m.h)
	case modeRoots:
		content = overlay(content, m.rootsView(), m.w, m.h)
	}
	v := tea.NewView(content)
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	// Nothing from a server, nor a file name, goes into the title: a
	// terminal takes it as it is.
	v.WindowTitle = "mcpwitness"
	return v
}

func plural64(n int64) string {
	if n == 1 {
		return "1 line"
	}
	return itoa64(n) + " lines"
}
