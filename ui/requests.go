package ui

import (
	"context"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"mcpwitness/fold"
	"mcpwitness/paging"
	"mcpwitness/record"
	"mcpwitness/render"
	"mcpwitness/session"
)

// requestDoneMsg says a request the UI sent (not a list, not a call)
// returned.
type requestDoneMsg struct {
	method, about string
	res           *session.RequestResult
}

// request sends one request through send, unless one is in flight (a
// ping goes on its own: see [model.ping]). what names it in the status
// line.
func (m *model) request(method, about string, send func(ctx context.Context, b Backend) *session.RequestResult) tea.Cmd {
	if cmd, ok := m.unable(method); ok {
		return cmd
	}
	if r := m.ops.request; r != nil {
		return m.setStatus(r.method+" "+r.about+" is in flight; esc cancels it", levelWarn)
	}
	ctx, cancel := context.WithCancel(m.o.Ctx)
	m.ops.request = &requestOp{method: method, about: about, cancel: cancel}
	if m.lay.stacked && m.tab != tabTools && method != record.MethodSubscribe && method != record.MethodUnsubscribe {
		// One pane at a time: show the one the answer goes to.
		m.setFocus(paneDetail)
	}
	b := m.backend
	return m.o.Tasks.cmd(func() tea.Msg {
		defer cancel()
		return requestDoneMsg{method: method, about: about, res: send(ctx, b)}
	})
}

// requestDone ends a request: a ping's round trip shows in the header (the
// fold has it), a subscription or a log level says how it went on the
// status line; a read or a get shows in the item pane.
func (m *model) requestDone(msg requestDoneMsg) tea.Cmd {
	if msg.method == record.MethodPing {
		m.ops.ping = nil
	} else {
		m.ops.request = nil
	}
	r := msg.res
	if r == nil {
		return nil
	}
	failed := r.Err != nil || len(r.RPCError) > 0
	what := strings.TrimSpace(msg.method + " " + msg.about)
	switch {
	case r.Cancelled:
		return m.setStatus(what+": cancelled", levelInfo)
	case r.Refused():
		return m.setStatus(what+": refused before sending; the detail says why", levelWarn)
	case failed && r.Err != nil:
		// The session's errors name the request already.
		text := r.Err.Error()
		if !strings.HasPrefix(text, what) {
			text = what + ": " + text
		}
		return m.setStatus(text, levelError)
	case failed:
		return m.setStatus(what+": "+record.RPCErrorText(r.RPCError), levelError)
	}
	switch msg.method {
	case record.MethodSubscribe:
		return m.setStatus("subscribed to "+msg.about+": updates mark its row", levelOK)
	case record.MethodUnsubscribe:
		return m.setStatus("unsubscribed from "+msg.about, levelOK)
	case record.MethodSetLevel:
		return m.setStatus("the server logs at "+msg.about+" and above", levelOK)
	case record.MethodPing:
		return m.setStatus("ping answered in "+render.Dur(r.Elapsed), levelOK)
	}
	return nil
}

// readResource reads uri.
func (m *model) readResource(uri string) tea.Cmd {
	return m.request(record.MethodRead, uri, func(ctx context.Context, b Backend) *session.RequestResult {
		return b.ReadResource(ctx, uri)
	})
}

// getPrompt gets the prompt it with args; force sends it past a missing
// required argument.
func (m *model) getPrompt(it *fold.Item, args map[string]string, force bool) tea.Cmd {
	name, def := it.Name, it.Raw
	return m.request(record.MethodGetPrompt, name, func(ctx context.Context, b Backend) *session.RequestResult {
		return b.GetPrompt(ctx, name, args, &session.PromptOptions{Definition: def, Force: force})
	})
}

// toggleSubscription subscribes to the selected resource, or unsubscribes
// when it is subscribed to; only when the server declares subscribe.
func (m *model) toggleSubscription() tea.Cmd {
	it := m.items[tabResources.item()].Selected()
	if it == nil || it.URI == "" {
		return nil
	}
	if !m.caps().Subscribe {
		return m.setStatus("the server does not declare resources.subscribe: it sends no updates", levelWarn)
	}
	uri := it.URI
	if m.items[tabResources.item()].Subscribed(uri) {
		return m.request(record.MethodUnsubscribe, uri, func(ctx context.Context, b Backend) *session.RequestResult {
			return b.Unsubscribe(ctx, uri)
		})
	}
	return m.request(record.MethodSubscribe, uri, func(ctx context.Context, b Backend) *session.RequestResult {
		return b.Subscribe(ctx, uri)
	})
}

// ping sends a ping; its round trip shows in the header until the next.
func (m *model) ping() tea.Cmd {
	if cmd, ok := m.unable("ping"); ok {
		return cmd
	}
	if m.ops.ping != nil {
		return nil
	}
	ctx, cancel := context.WithCancel(m.o.Ctx)
	m.ops.ping = cancel
	b := m.backend
	return m.o.Tasks.cmd(func() tea.Msg {
		defer cancel()
		return requestDoneMsg{method: record.MethodPing, res: b.Ping(ctx)}
	})
}

// connected starts what a new connection does: asks the server to log at
// the level the command line gave (its answer, or why nothing was sent,
// on the status line as for the picker) and walks the lists.
func (m *model) connected() tea.Cmd {
	level := m.o.LogLevel
	if level == "" {
		return m.startWalks()
	}
	if i := slices.Index(session.LogLevels(), level); i >= 0 {
		m.level = i
	}
	return tea.Batch(m.setLogLevel(level), m.startWalks())
}

// setLogLevel asks the server to log at level.
func (m *model) setLogLevel(level string) tea.Cmd {
	return m.request(record.MethodSetLevel, level, func(ctx context.Context, b Backend) *session.RequestResult {
		return b.SetLogLevel(ctx, level)
	})
}

// lastPing is the newest ping that ended, or nil.
func (m *model) lastPing() *fold.Request {
	reqs := m.St.Requests()
	for i := len(reqs) - 1; i >= 0; i-- {
		if r := reqs[i]; r.Method == record.MethodPing && r.Done {
			return r
		}
	}
	return nil
}

// pingText is what the header says of the newest ping: "ping 1.2 ms",
// "ping ✗", or "" before any.
func (m *model) pingText() string {
	if m.ops.ping != nil {
		return "ping…"
	}
	r := m.lastPing()
	switch {
	case r == nil:
		return ""
	case r.Err != "" || len(r.RPCError) > 0 || r.Cancelled:
		return "ping ✗"
	}
	return "ping " + render.Ms(r.Ms)
}

// openItem does what Enter does on the selected item of the tab shown:
// read a resource, open the form of a template's variables or of a
// prompt's arguments (a prompt without any is got at once).
func (m *model) openItem() tea.Cmd {
	p := &m.items[m.tab.item()]
	it := p.Selected()
	if it == nil {
		return nil
	}
	switch it.Method {
	case paging.Resources().Name:
		if it.URI == "" {
			return m.setStatus("this resource has no uri to read", levelWarn)
		}
		return m.readResource(it.URI)
	case paging.Prompts().Name:
		if len(it.Arguments) == 0 {
			return m.getPrompt(it, nil, false)
		}
	}
	return m.openForm(it)
}

// requestBusy names the request in flight about the item shown, or "".
func (m *model) requestBusy() string {
	r := m.ops.request
	it := m.item.Item()
	if r == nil || it == nil {
		return ""
	}
	if r.about == it.Key || r.about == it.Name || (it.URITemplate != "" && r.method == record.MethodRead) {
		return r.method
	}
	return ""
}
