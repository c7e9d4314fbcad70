//lint:file-ignore SA1019 servers on protocols before 2026-07-28 still ask for sampling; a person answers them here

package ui

import (
	"encoding/json"
	"mcpwitness/ui/panes"
	"os"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mcpwitness/fold"
	"mcpwitness/record"
	"mcpwitness/session"
	"mcpwitness/session/oauth"
)

// The modal that answers the server's own requests: a sampling request, an
// elicitation (a form or a URL). It opens over whatever is on screen when
// the session's "asked" event arrives (a call stays in flight behind it),
// and each answer goes back to the session, which sends it.

// askKind is what a request of the server's asks of the person.
type askKind int

const (
	// askSampling: a sampling/createMessage, answered with a message.
	askSampling askKind = iota
	// askForm: an elicitation/create in form mode.
	askForm
	// askURL: an elicitation/create in URL mode.
	askURL
)

// stopReasons are the stop reasons a person may give a sampling reply.
func stopReasons() []string { return []string{"endTurn", "stopSequence", "maxTokens"} }

// askReq is one request of the server's waiting for the person.
type askReq struct {
	seq       int64 // the session's number of it (its events' ID "ask-N")
	method    string
	kind      askKind
	params    json.RawMessage
	call      int64 // the call in flight that asked, 0 if none is known
	roundTrip bool  // it came as an input request in a result
	findings  []string
	// message, url and elicitationID are the elicitation's; schema its
	// requestedSchema.
	message, url, elicitationID string
	schema                      json.RawMessage
	// complete says the server sent notifications/elicitation/complete
	// for it.
	complete bool
	// token is the progress token the request carries, if any.
	token string
}

// answerer is what a live backend offers to answer the server's requests
// and edit the roots; [session.Session] is one.
type answerer interface {
	Reply(seq int64, r session.Reply) bool
	Roots() []string
	SetRoots(roots []string) error
}

// Messages of the modal's commands.
type (
	// askRepliedMsg says whether the reply to ask seq found it waiting.
	askRepliedMsg struct {
		seq  int64
		ok   bool
		what string
	}
	// askFileMsg is a sampling reply read from a file, or why it was not.
	askFileMsg struct {
		seq  int64
		path string
		text string
		err  error
	}
	// urlOpenedMsg says which command opened an elicitation's URL, or why
	// it failed.
	urlOpenedMsg struct {
		cmd string
		err error
	}
)

// askModal is the modal's state: the requests waiting, the first shown.
type askModal struct {
	*panes.Common
	keys  *panes.AskKeyMap
	w, h  int
	queue []*askReq
	// from is the mode the modal opened over.
	from mode

	form   panes.EditorPane // an elicitation's form: the call editor's
	reply  textarea.Model   // a sampling reply
	path   textinput.Model
	pathOn bool // the file path input has the keys
	stop   int  // the stop reason picked, in stopReasons
	sc     panes.Scroller
	note   string
}

// current is the request shown, or nil.
func (a *askModal) current() *askReq {
	if len(a.queue) == 0 {
		return nil
	}
	return a.queue[0]
}

// find returns the waiting request seq, or nil.
func (a *askModal) find(seq int64) *askReq {
	for _, r := range a.queue {
		if r.seq == seq {
			return r
		}
	}
	return nil
}

// askSeq reads the number of an ask's event ID ("ask-N"); 0 if it is not one.
func askSeq(id string) int64 {
	n, err := strconv.ParseInt(strings.TrimPrefix(id, "ask-"), 10, 64)
	if err != nil || !strings.HasPrefix(id, "ask-") {
		return 0
	}
	return n
}

// newAskReq reads an "asked" event.
func newAskReq(ev record.Event) *askReq {
	r := &askReq{seq: askSeq(ev.ID), method: ev.Method, params: ev.Data, kind: askSampling,
		roundTrip: strings.Contains(ev.Text, "input request")}
	if ev.Call != nil {
		r.call = ev.Call.ID
	}
	var meta struct {
		Meta struct {
			Token json.RawMessage `json:"progressToken"`
		} `json:"_meta"`
	}
	if json.Unmarshal(ev.Data, &meta) == nil && len(meta.Meta.Token) > 0 {
		r.token = string(meta.Meta.Token)
	}
	if ev.Method == session.MethodElicit {
		var p struct {
			Mode            string          `json:"mode"`
			Message         string          `json:"message"`
			URL             string          `json:"url"`
			ElicitationID   string          `json:"elicitationId"`
			RequestedSchema json.RawMessage `json:"requestedSchema"`
		}
		_ = json.Unmarshal(ev.Data, &p)
		r.kind, r.message, r.schema = askForm, p.Message, p.RequestedSchema
		if p.Mode == "url" {
			r.kind, r.url, r.elicitationID = askURL, p.URL, p.ElicitationID
		}
	}
	return r
}

// askEvent takes the session's events about the server's requests: an
// "asked" one opens the modal (or queues behind the one shown), a finding
// joins its request, an "unanswered" one (the server cancelled, the
// timeout) closes it, and an elicitation's completion is noted.
func (m *model) askEvent(ev record.Event) tea.Cmd {
	if _, ok := m.backend.(answerer); !ok || m.replay != nil {
		return nil
	}
	if ev.Kind == record.KindNotification && ev.Method == "notifications/elicitation/complete" {
		var p struct {
			ElicitationID string `json:"elicitationId"`
		}
		_ = json.Unmarshal(ev.Data, &p)
		for _, r := range m.ask.queue {
			if r.kind == askURL && r.elicitationID == p.ElicitationID {
				r.complete = true
			}
		}
		return nil
	}
	seq := askSeq(ev.ID)
	if ev.Kind != record.KindServerCall || seq == 0 {
		return nil
	}
	switch {
	case strings.HasPrefix(ev.Text, "asked"):
		m.ask.queue = append(m.ask.queue, newAskReq(ev))
		if len(m.ask.queue) == 1 {
			return m.showAsk()
		}
	case strings.HasPrefix(ev.Text, "finding: "):
		if r := m.ask.find(seq); r != nil {
			r.findings = append(r.findings, strings.TrimPrefix(ev.Text, "finding: "))
		}
	case strings.HasPrefix(ev.Text, "unanswered: "):
		if r := m.ask.find(seq); r != nil {
			shown := r == m.ask.current()
			m.ask.drop(seq)
			cmd := m.setStatus(r.method+" "+strings.TrimPrefix(ev.Text, "unanswered: ")+"; it is no longer waiting", levelWarn)
			if shown {
				return tea.Batch(cmd, m.nextAsk())
			}
			return cmd
		}
	}
	return nil
}

// drop takes ask seq out of the queue.
func (a *askModal) drop(seq int64) {
	for i, r := range a.queue {
		if r.seq == seq {
			a.queue = append(a.queue[:i:i], a.queue[i+1:]...)
			return
		}
	}
}

// showAsk opens the modal on the first request waiting.
func (m *model) showAsk() tea.Cmd {
	r := m.ask.current()
	if r == nil {
		return nil
	}
	if m.mode != modeAsk {
		m.ask.from = m.mode
		if m.mode == modeHelp {
			m.ask.from = m.helpFrom
		}
		m.mode = modeAsk
	}
	a := &m.ask
	a.note, a.pathOn, a.stop = "", false, 0
	a.sc = panes.Scroller{}
	var cmd tea.Cmd
	switch r.kind {
	case askForm:
		a.form = panes.NewEditorPane(m.Common, &m.keys.Editor, m.v)
		a.form.Answer = true
		// Its checks are numbered apart from the call editor's.
		a.form.CheckSeq = 1 << 30
		a.resize(m.w, m.h)
		cmd = a.form.Open(&fold.Tool{Name: "elicitation", Label: "elicitation", Input: r.schema})
	case askSampling:
		a.reply = textarea.New()
		a.reply.ShowLineNumbers = false
		a.reply.Prompt = ""
		a.reply.Placeholder = "the assistant's reply"
		a.path = textinput.New()
		a.path.Prompt = "file: "
		a.path.Placeholder = "a path to a text file, or a JSON CreateMessageResult"
		cmd = a.reply.Focus()
	}
	a.resize(m.w, m.h)
	return cmd
}

// nextAsk shows the next request waiting, or closes the modal.
func (m *model) nextAsk() tea.Cmd {
	if len(m.ask.queue) > 0 {
		return m.showAsk()
	}
	if m.mode == modeAsk {
		m.mode = m.ask.from
	}
	return nil
}

// replyAsk answers the request shown with r and moves on; the reply goes
// to the session in a command.
func (m *model) replyAsk(r session.Reply, what string) tea.Cmd {
	cur := m.ask.current()
	b, ok := m.backend.(answerer)
	if cur == nil || !ok {
		return nil
	}
	m.ask.drop(cur.seq)
	seq := cur.seq
	send := m.o.Tasks.cmd(func() tea.Msg { return askRepliedMsg{seq: seq, ok: b.Reply(seq, r), what: what} })
	return tea.Batch(send, m.nextAsk())
}

// modalKey gives a key to the modal or the roots editor when one is
// open, or opens the roots editor; it reports whether it took the key.
// ctrl+c still quits.
func (m *model) modalKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if key.Matches(msg, m.keys.Global.Interrupt) {
		return nil, false
	}
	switch m.mode {
	case modeAsk:
		return m.keyAsk(msg), true
	case modeRoots:
		return m.keyRoots(msg), true
	case modeNormal, modeWire:
		if key.Matches(msg, m.keys.Global.Roots) {
			return m.openRoots(), true
		}
	}
	return nil, false
}

// askDone takes what the modal's commands answered.
func (m *model) askDone(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case askRepliedMsg:
		if !msg.ok {
			return m.setStatus("the server no longer waits for that answer (cancelled or timed out); it was not sent", levelWarn)
		}
		return m.setStatus("answered the server: "+msg.what, levelOK)
	case askFileMsg:
		cur := m.ask.current()
		if cur == nil || cur.seq != msg.seq {
			return nil
		}
		if msg.err != nil {
			m.ask.note = "could not read " + msg.path + ": " + msg.err.Error()
			return nil
		}
		var res mcp.CreateMessageResult
		if json.Unmarshal([]byte(msg.text), &res) == nil && res.Content != nil && res.Model != "" {
			return m.replyAsk(session.Reply{Result: &res, Text: "answered with " + msg.path}, "the reply in "+msg.path)
		}
		m.ask.pathOn = false
		m.ask.path.Blur()
		m.ask.reply.SetValue(msg.text)
		m.ask.note = "loaded " + msg.path + "; ctrl+s sends it"
		return m.ask.reply.Focus()
	case urlOpenedMsg:
		if msg.err != nil {
			m.ask.note = "opening the URL failed (" + msg.err.Error() + "); open it by hand"
			return nil
		}
		m.ask.note = "opened with " + msg.cmd + "; ctrl+s accepts once done there, esc cancels"
	}
	return nil
}

// keyAsk answers the request shown, or gives the key to its form or reply.
func (m *model) keyAsk(msg tea.KeyPressMsg) tea.Cmd {
	a, k := &m.ask, &m.keys.Ask
	r := a.current()
	if r == nil {
		m.mode = a.from
		return nil
	}
	if panes.MoveKey(msg, &k.Scroll, &a.sc) {
		return nil
	}
	switch r.kind {
	case askForm:
		return m.keyAskForm(msg)
	case askURL:
		switch {
		case key.Matches(msg, k.Accept), msg.String() == "enter":
			return m.replyAsk(session.Reply{Result: &mcp.ElicitResult{Action: "accept"}, Text: "accept (URL)"}, "accept")
		case key.Matches(msg, k.Decline):
			return m.replyAsk(session.Reply{Result: &mcp.ElicitResult{Action: "decline"}, Text: "decline"}, "decline")
		case key.Matches(msg, k.Cancel):
			return m.replyAsk(session.Reply{Result: &mcp.ElicitResult{Action: "cancel"}, Text: "cancel"}, "cancel")
		case key.Matches(msg, k.Open), msg.String() == "o":
			u, ctx, loopback := r.url, m.o.Ctx, m.o.Loopback
			if _, err := oauth.CheckOpenURL(u, loopback); err != nil {
				a.note = "not opened: " + err.Error()
				return nil
			}
			a.note = "opening…"
			return m.o.Tasks.cmd(func() tea.Msg {
				cmd, err := oauth.OpenURL(ctx, u, loopback)
				return urlOpenedMsg{cmd: cmd, err: err}
			})
		}
		return nil
	}
	return m.keySampling(msg)
}

// keyAskForm accepts, declines or cancels an elicitation form, or edits it.
func (m *model) keyAskForm(msg tea.KeyPressMsg) tea.Cmd {
	a, k := &m.ask, &m.keys.Ask
	switch {
	case key.Matches(msg, k.Accept):
		var content map[string]any
		if err := json.Unmarshal(a.form.Args(), &content); err != nil {
			a.note = "fix the JSON before accepting: " + err.Error()
			return nil
		}
		if c := a.form.Checked; c != nil && (len(c.Errs) > 0 || c.JsonErr != "") {
			a.note = "the answer does not match the requested schema; fix the fields, or decline or cancel"
			return nil
		}
		return m.replyAsk(session.Reply{Result: &mcp.ElicitResult{Action: "accept", Content: content},
			Text: "accept with " + session.FieldList(content)}, "accept")
	case key.Matches(msg, k.Decline):
		return m.replyAsk(session.Reply{Result: &mcp.ElicitResult{Action: "decline"}, Text: "decline"}, "decline")
	case key.Matches(msg, k.Cancel):
		return m.replyAsk(session.Reply{Result: &mcp.ElicitResult{Action: "cancel"}, Text: "cancel"}, "cancel")
	}
	var cmd tea.Cmd
	a.form, cmd = a.form.Update(msg)
	a.note = ""
	return cmd
}

// keySampling sends or declines a sampling reply, or edits it.
func (m *model) keySampling(msg tea.KeyPressMsg) tea.Cmd {
	a, k := &m.ask, &m.keys.Ask
	r := a.current()
	switch {
	case a.pathOn && msg.String() == "enter":
		p, seq := strings.TrimSpace(a.path.Value()), r.seq
		if p == "" {
			a.note = "type a file's path first"
			return nil
		}
		return m.o.Tasks.cmd(func() tea.Msg {
			b, err := os.ReadFile(p)
			return askFileMsg{seq: seq, path: p, text: string(b), err: err}
		})
	case a.pathOn && key.Matches(msg, k.Cancel), a.pathOn && key.Matches(msg, k.Load):
		a.pathOn = false
		a.path.Blur()
		return a.reply.Focus()
	case key.Matches(msg, k.Accept):
		text := a.reply.Value()
		if strings.TrimSpace(text) == "" {
			a.note = "type the assistant's reply first (or ctrl+x to decline)"
			return nil
		}
		res := &mcp.CreateMessageResult{Role: "assistant", Model: "mcpwitness-person", StopReason: stopReasons()[a.stop],
			Content: &mcp.TextContent{Text: text}}
		return m.replyAsk(session.Reply{Result: res, Text: "answered with a typed message (" + strconv.Itoa(len(text)) +
			" bytes, " + stopReasons()[a.stop] + ")"}, "a typed message")
	case key.Matches(msg, k.Decline), key.Matches(msg, k.Cancel):
		return m.replyAsk(session.RejectSampling("the user declined in mcpwitness"), "declined")
	case key.Matches(msg, k.Stop):
		a.stop = (a.stop + 1) % len(stopReasons())
		return nil
	case key.Matches(msg, k.Load):
		a.pathOn = true
		a.reply.Blur()
		return a.path.Focus()
	}
	var cmd tea.Cmd
	if a.pathOn {
		a.path, cmd = a.path.Update(msg)
	} else {
		a.reply, cmd = a.reply.Update(msg)
	}
	a.note = ""
	return cmd
}

// toAsk gives the modal's input what is not a key (a paste, a check).
func (m *model) toAsk(msg tea.Msg) tea.Cmd {
	a := &m.ask
	r := a.current()
	if r == nil {
		return nil
	}
	var cmd tea.Cmd
	switch {
	case r.kind == askForm:
		a.form, cmd = a.form.Update(msg)
	case r.kind == askSampling && a.pathOn:
		a.path, cmd = a.path.Update(msg)
	case r.kind == askSampling:
		a.reply, cmd = a.reply.Update(msg)
	}
	return cmd
}

// ShortHelp returns the keys of the request shown, for the help line.
func (a *askModal) ShortHelp() []key.Binding {
	k := a.keys
	r := a.current()
	switch {
	case r == nil:
		return nil
	case r.kind == askForm:
		return []key.Binding{k.Accept, k.Decline, k.Cancel}
	case r.kind == askURL:
		return []key.Binding{k.Open, k.Accept, k.Decline, k.Cancel}
	}
	return []key.Binding{k.Accept, k.Decline, k.Stop, k.Load, k.Scroll.PageDown}
}
