package ui

import (
	"encoding/json"

	tea "charm.land/bubbletea/v2"

	"mcpwitness/fold"
	"mcpwitness/paging"
	"mcpwitness/record"
	"mcpwitness/session"

	"mcpwitness/ui/panes"
)

// openForm opens the form of a template's variables or a prompt's
// arguments, with completions when the server declares them.
func (m *model) openForm(it *fold.Item) tea.Cmd {
	if cmd, ok := m.unable("fill " + it.Key); ok {
		return cmd
	}
	m.formID++
	opts := panes.FormOptions{ID: m.formID, Target: it.Key, Description: it.Description}
	last := m.lastValues(it)
	var ref session.CompleteRef
	switch it.Method {
	case paging.ResourceTemplates().Name:
		t, err := fold.ReadTemplate(it.URITemplate)
		if err != nil {
			return m.setStatus(err.Error(), levelError)
		}
		opts.Kind, ref = panes.FormTemplate, session.CompleteRef{Template: it.URITemplate}
		for _, v := range t.Vars() {
			opts.Fields = append(opts.Fields, panes.FormField{Name: v, Value: last[v]})
		}
	default:
		opts.Kind, ref = panes.FormPrompt, session.CompleteRef{Prompt: it.Name}
		for _, a := range it.Arguments {
			opts.Fields = append(opts.Fields, panes.FormField{Name: a.Name, Description: a.Description, Required: a.Required, Value: last[a.Name]})
		}
	}
	if m.caps().Completions {
		opts.Complete = m.completer(ref)
	}
	var cmd tea.Cmd
	m.form, cmd = panes.NewForm(m.Common, &m.keys.Form, opts)
	m.form.SetSize(m.lay.rightW, m.lay.bodyH)
	m.formItem = it
	m.mode = modeForm
	return cmd
}

// lastValues returns what the newest read or get about it was sent with,
// to start its form from: a template's variables as the uri read gives
// them, a prompt's arguments.
func (m *model) lastValues(it *fold.Item) map[string]string {
	if m.item.Item() != it {
		return nil
	}
	r := m.item.Latest()
	if r == nil {
		return nil
	}
	if it.URITemplate != "" {
		if t, err := fold.ReadTemplate(it.URITemplate); err == nil {
			return t.Values(r.About)
		}
		return nil
	}
	var p struct {
		Arguments map[string]string `json:"arguments"`
	}
	_ = json.Unmarshal(r.Params, &p)
	return p.Arguments
}

// completer returns the form's way to ask for completions of ref's
// arguments: completion/complete through the backend, in a command.
func (m *model) completer(ref session.CompleteRef) panes.CompleteFunc {
	b, tasks, ctx := m.backend, m.o.Tasks, m.o.Ctx
	return func(field, value string, all map[string]string) tea.Cmd {
		delete(all, field)
		return tasks.cmd(func() tea.Msg {
			r := b.Complete(ctx, ref, field, value, all)
			return completionsOf(r)
		})
	}
}

// completionsOf reads a completion/complete answer into what the form
// shows.
func completionsOf(r *session.RequestResult) panes.FormCompletionsMsg {
	var msg panes.FormCompletionsMsg
	switch {
	case r.Err != nil:
		msg.Err = r.Err.Error()
	case len(r.RPCError) > 0:
		msg.Err = record.RPCErrorText(r.RPCError)
	default:
		var res struct {
			Completion struct {
				Values  []string `json:"values"`
				Total   int      `json:"total"`
				HasMore bool     `json:"hasMore"`
			} `json:"completion"`
		}
		if err := json.Unmarshal(r.Result, &res); err != nil {
			msg.Err = "not a completion/complete answer: " + err.Error()
		}
		msg.Values, msg.Total, msg.HasMore = res.Completion.Values, res.Completion.Total, res.Completion.HasMore
	}
	return msg
}

// formDone takes what the form sent: a submit reads the expanded uri or
// gets the prompt; a cancel closes the form.
func (m *model) formDone(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case panes.FormCancelMsg:
		if msg.Form == m.formID && m.mode == modeForm {
			m.mode = modeNormal
		}
	case panes.FormSubmitMsg:
		if msg.Form != m.formID || m.mode != modeForm {
			return nil
		}
		m.mode = modeNormal
		it := m.formItem
		if msg.Kind == panes.FormPrompt {
			return m.getPrompt(it, msg.Values, msg.Forced)
		}
		t, err := fold.ReadTemplate(it.URITemplate)
		if err != nil {
			return m.setStatus(err.Error(), levelError)
		}
		uri, err := t.Expand(msg.Values)
		if err != nil {
			return m.setStatus("cannot expand "+it.URITemplate+": "+err.Error(), levelError)
		}
		return m.readResource(uri)
	}
	return nil
}

// keyForm gives a key to the form.
func (m *model) keyForm(msg tea.KeyPressMsg) tea.Cmd {
	var cmd tea.Cmd
	m.form, cmd = m.form.Update(msg)
	return cmd
}
