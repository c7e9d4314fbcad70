package panes

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"mcpwitness/render"
	"mcpwitness/sanitize"
)

// FormKind says what a form fills in.
type FormKind string

const (
	// FormTemplate fills the variables of a resource template.
	FormTemplate FormKind = "template"
	// FormPrompt fills the arguments of a prompt.
	FormPrompt FormKind = "prompt"
)

// defaultDebounce is how long typing must pause before completions are
// asked for.
const defaultDebounce = 200 * time.Millisecond

// maxSuggestions is the most completion values shown under a field.
const maxSuggestions = 8

// FormField is one field of a form: a template's variable or a prompt's
// argument. Name and Description come from the server.
type FormField struct {
	Name        string
	Description string
	Required    bool
	Value       string // the value it starts with
}

// CompleteFunc asks for completions of field, whose value is value, with
// every field's value in all (a copy the command may keep). The command it
// returns runs off the UI goroutine and answers with a
// [FormCompletionsMsg]; the form stamps that answer with its form and
// sequence numbers, so the command need not know them.
type CompleteFunc func(field, value string, all map[string]string) tea.Cmd

// FormOptions sets a form up.
type FormOptions struct {
	// ID numbers the form; the root gives each form it opens a new one, so
	// answers meant for a form since closed are dropped.
	ID     int
	Kind   FormKind
	Target string // the prompt's name or the template's uriTemplate
	// Description is the prompt's or template's (from the server).
	Description string
	Fields      []FormField
	// Complete asks for completions; nil when the server declares no
	// completions capability.
	Complete CompleteFunc
	// Debounce is how long typing must pause before completions are asked
	// for (0: 200 ms).
	Debounce time.Duration
}

// FormCompletionsMsg is the answer to a completion request: the values
// offered for Field. Form and Seq are set by the form's command; an answer
// whose Seq is not the form's latest request is dropped.
type FormCompletionsMsg struct {
	Form    int
	Seq     int
	Field   string
	Values  []string
	Total   int  // 0 when the server gave none
	HasMore bool // the server has more than it sent
	Err     string
}

// FormSubmitMsg is sent when the user submits the form: Values holds every
// field with a value. Forced says the user sent it past missing required
// fields, named in Missing.
type FormSubmitMsg struct {
	Form    int
	Kind    FormKind
	Target  string
	Values  map[string]string
	Forced  bool
	Missing []string
}

// FormCancelMsg is sent when the user leaves the form without submitting.
type FormCancelMsg struct {
	Form int
	Kind FormKind
}

// FormDebounceMsg says typing in the form paused: completions may be
// asked for if nothing was typed since (seq is still the latest).
type FormDebounceMsg struct {
	form, Seq int
}

// one text field each, completions under the focused field.
// FormPane is the form of a template's variables or a prompt's arguments:
type FormPane struct {
	*Common
	Keys *FormKeyMap
	opts FormOptions
	w, H int

	inputs []textinput.Model
	Focus  int

	Seq      int      // the latest completion request (or typing that will lead to one)
	suggest  []string // the values offered for the focused field
	more     int      // how many more the server has than suggest shows (-1: some)
	suggErr  string
	selected int    // the suggestion picked by ↑/↓, -1 for none
	Note     string // why the last submit did not happen
}

// Suggestions are the values offered for the focused field.
func (f *FormPane) Suggestions() []string { return f.suggest }

// Options are what the form was opened with.
func (f *FormPane) Options() FormOptions { return f.opts }

// NewForm Builds the form opts describes, its first field focused.
// The command it returns asks for the first field's completions.
func NewForm(c *Common, keys *FormKeyMap, opts FormOptions) (FormPane, tea.Cmd) {
	if opts.Debounce <= 0 {
		opts.Debounce = defaultDebounce
	}
	f := FormPane{Common: c, Keys: keys, opts: opts, selected: -1}
	f.inputs = make([]textinput.Model, len(opts.Fields))
	for i, fd := range opts.Fields {
		in := textinput.New()
		in.Prompt = ""
		in.CharLimit = 4096
		if fd.Required {
			in.Placeholder = "required"
		}
		in.SetValue(fd.Value)
		f.inputs[i] = in
	}
	f.Restyle()
	return f, f.refocus()
}

// Restyle draws the fields in the current theme.
func (f *FormPane) Restyle() {
	if len(f.inputs) > 0 { // a form never opened has neither fields nor styles
		StyleFields(f.inputs, f.Sty)
	}
}

// SetSize sets the form's size.
func (f *FormPane) SetSize(w, h int) {
	f.w, f.H = w, h
	for i := range f.inputs {
		f.inputs[i].SetWidth(max(w-6, 8))
	}
}

// ID returns the form's number.
func (f *FormPane) ID() int { return f.opts.ID }

// Values returns every field with a value.
func (f *FormPane) Values() map[string]string {
	out := map[string]string{}
	for i, fd := range f.opts.Fields {
		if v := f.inputs[i].Value(); v != "" {
			out[fd.Name] = v
		}
	}
	return out
}

// Missing returns the required fields with no value, in form order.
func (f *FormPane) Missing() []string {
	var out []string
	for i, fd := range f.opts.Fields {
		if fd.Required && f.inputs[i].Value() == "" {
			out = append(out, fd.Name)
		}
	}
	return out
}

// Update handles keys and the answers to its completion requests.
func (f FormPane) Update(msg tea.Msg) (FormPane, tea.Cmd) {
	switch msg := msg.(type) {
	case FormDebounceMsg:
		if msg.form != f.opts.ID || msg.Seq != f.Seq {
			return f, nil // typed since: a later pause will ask
		}
		return f, f.completeCmd()
	case FormCompletionsMsg:
		if msg.Form != f.opts.ID || msg.Seq != f.Seq || f.Focus >= len(f.inputs) || msg.Field != f.opts.Fields[f.Focus].Name {
			return f, nil // stale: asked before the latest change
		}
		f.suggest, f.suggErr, f.selected = msg.Values[:min(len(msg.Values), maxSuggestions)], msg.Err, -1
		f.more = max(msg.Total, len(msg.Values)) - len(f.suggest)
		if msg.HasMore && f.more == 0 {
			f.more = -1
		}
		return f, nil
	case tea.KeyPressMsg:
		return f.key(msg)
	}
	return f, nil
}

// key handles one key press.
func (f FormPane) key(msg tea.KeyPressMsg) (FormPane, tea.Cmd) {
	k := f.Keys
	switch {
	case key.Matches(msg, k.Cancel):
		return f, formMsgCmd(FormCancelMsg{Form: f.opts.ID, Kind: f.opts.Kind})
	case key.Matches(msg, k.Force):
		return f, f.submit(true)
	case key.Matches(msg, k.Submit):
		if f.selected >= 0 && f.selected < len(f.suggest) {
			return f.pick()
		}
		return f, f.submit(false)
	case key.Matches(msg, k.NextField):
		return f.Move(1)
	case key.Matches(msg, k.PrevField):
		return f.Move(-1)
	case key.Matches(msg, k.NextSuggst):
		if len(f.suggest) > 0 {
			f.selected = min(f.selected+1, len(f.suggest)-1)
		}
		return f, nil
	case key.Matches(msg, k.PrevSuggst):
		f.selected = max(f.selected-1, -1)
		return f, nil
	}
	if f.Focus >= len(f.inputs) {
		return f, nil
	}
	before := f.inputs[f.Focus].Value()
	var cmd tea.Cmd
	f.inputs[f.Focus], cmd = f.inputs[f.Focus].Update(msg)
	if f.inputs[f.Focus].Value() == before {
		return f, cmd
	}
	f.Note = ""
	return f, tea.Batch(cmd, f.changed())
}

// Move focuses the field d away, wrapping around.
func (f FormPane) Move(d int) (FormPane, tea.Cmd) {
	if len(f.inputs) == 0 {
		return f, nil
	}
	f.Focus = (f.Focus + d + len(f.inputs)) % len(f.inputs)
	return f, f.refocus()
}

// refocus focuses the field f.Focus, forgets the other field's
// suggestions and asks for this one's.
func (f *FormPane) refocus() tea.Cmd {
	for i := range f.inputs {
		f.inputs[i].Blur()
	}
	if f.Focus >= len(f.inputs) {
		return nil
	}
	return tea.Batch(f.inputs[f.Focus].Focus(), f.changed())
}

// pick puts the selected suggestion in the focused field. A value a text
// field would show raw (a control character, an escape) is refused.
func (f FormPane) pick() (FormPane, tea.Cmd) {
	v := f.suggest[f.selected]
	if sanitize.Line(v) != v {
		f.Note = "that suggestion holds control or invisible characters (shown as escapes): type the value instead"
		return f, nil
	}
	f.inputs[f.Focus].SetValue(v)
	f.inputs[f.Focus].CursorEnd()
	f.Note = ""
	return f, f.changed()
}

// changed notes that the focused field's value or the focus changed: what
// was suggested no longer holds, and completions are asked for once typing
// pauses.
func (f *FormPane) changed() tea.Cmd {
	f.Seq++
	f.suggest, f.suggErr, f.more, f.selected = nil, "", 0, -1
	if f.opts.Complete == nil {
		return nil
	}
	msg := FormDebounceMsg{form: f.opts.ID, Seq: f.Seq}
	return tea.Tick(f.opts.Debounce, func(time.Time) tea.Msg { return msg })
}

// completeCmd asks for the focused field's completions, stamping the
// answer with the form's numbers. It copies what the command needs.
func (f *FormPane) completeCmd() tea.Cmd {
	if f.opts.Complete == nil || f.Focus >= len(f.inputs) {
		return nil
	}
	field := f.opts.Fields[f.Focus].Name
	all := f.Values()
	cmd := f.opts.Complete(field, f.inputs[f.Focus].Value(), maps.Clone(all))
	if cmd == nil {
		return nil
	}
	form, seq := f.opts.ID, f.Seq
	return func() tea.Msg {
		msg := cmd()
		c, ok := msg.(FormCompletionsMsg)
		if !ok {
			return msg
		}
		c.Form, c.Seq, c.Field = form, seq, field
		return c
	}
}

// submit sends the form, or says which required fields are missing.
func (f *FormPane) submit(force bool) tea.Cmd {
	missing := f.Missing()
	if len(missing) > 0 && !force {
		f.Note = "required: " + strings.Join(quoted(missing), ", ") + " · " + f.Keys.Force.Help().Key + " sends it anyway"
		return nil
	}
	f.Note = ""
	return formMsgCmd(FormSubmitMsg{Form: f.opts.ID, Kind: f.opts.Kind, Target: f.opts.Target, Values: f.Values(),
		Forced: force && len(missing) > 0, Missing: slices.Clip(missing)})
}

func formMsgCmd(msg tea.Msg) tea.Cmd { return func() tea.Msg { return msg } }

// quoted quotes each name, shown visibly.
func quoted(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = strconv.Quote(sanitize.Line(n))
	}
	return out
}

// View renders the form in exactly h rows, scrolled so the focused field
// shows.
func (f *FormPane) View() string {
	s := f.Sty
	verb := map[FormKind]string{FormPrompt: "prompts/get ", FormTemplate: "resources/read "}[f.opts.Kind]
	head := []string{render.Fit(s.Title.Render(verb)+s.Bold.Render(sanitize.Line(f.opts.Target)), f.w)}
	if f.opts.Description != "" {
		head = append(head, render.Fit(" "+s.Muted.Render(render.OneLine(f.opts.Description)), f.w))
	}
	head = append(head, "")
	var body []string
	top := 0
	if len(f.inputs) == 0 {
		body = append(body, " "+s.Muted.Render("Nothing to fill in: "+f.Keys.Submit.Help().Key+" sends it."))
	}
	for i := range f.inputs {
		if i == f.Focus {
			top = len(body)
		}
		body = append(body, f.fieldLines(i)...)
	}
	var foot []string
	if f.Note != "" {
		foot = append(foot, "", " "+s.Warn.Render(sanitize.Line(f.Note)))
	}
	room := max(f.H-len(head)-len(foot), 1)
	if len(body) > room {
		start := min(top, len(body)-room)
		body = body[start : start+room]
	}
	lines := append(head, body...)
	for len(lines) < f.H-len(foot) {
		lines = append(lines, "")
	}
	lines = append(lines, foot...)
	return FitLines(lines, f.w, f.H)
}

// fieldLines draws field i: its label (required marked), its description,
// its input, and under the focused one the suggestions.
func (f *FormPane) fieldLines(i int) []string {
	s := f.Sty
	fd := f.opts.Fields[i]
	focused := i == f.Focus
	label, mark := s.Label, "  "
	if focused {
		label, mark = s.LabelFocused, "› "
	}
	l := mark + label.Render(sanitize.Line(fd.Name))
	if fd.Required {
		l += s.Warn.Render(" *")
	}
	out := []string{l}
	if fd.Description != "" {
		out = append(out, "    "+s.Muted.Render(render.Trunc(render.OneLine(fd.Description), max(f.w-4, 1))))
	}
	out = append(out, "    "+f.inputs[i].View())
	if focused {
		out = append(out, f.suggestionLines()...)
	}
	return append(out, "")
}

// suggestionLines draws the focused field's suggestions.
func (f *FormPane) suggestionLines() []string {
	s := f.Sty
	var out []string
	if f.suggErr != "" {
		out = append(out, "      "+s.Muted.Render("completions: "+render.Trunc(render.OneLine(f.suggErr), max(f.w-20, 1))))
	}
	for j, v := range f.suggest {
		text := render.Trunc(sanitize.Line(v), max(f.w-8, 1))
		if j == f.selected {
			out = append(out, "    "+s.Selected.Render("▸ "+text))
		} else {
			out = append(out, "      "+s.Choice.Render(text))
		}
	}
	switch {
	case f.more > 0:
		out = append(out, "      "+s.Muted.Render("… "+strconv.Itoa(f.more)+" more"))
	case f.more < 0:
		out = append(out, "      "+s.Muted.Render("… more"))
	}
	return out
}
