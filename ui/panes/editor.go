package panes

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"mcpwitness/checks"
	"mcpwitness/finding"
	"mcpwitness/fold"
	"mcpwitness/render"
	"mcpwitness/sanitize"
	"mcpwitness/tooldef"
)

// ArgsCheckedMsg is the live check of the editor's arguments against the
// tool's input schema, run in a command.
type ArgsCheckedMsg struct {
	Seq     int
	JsonErr string
	// jsonLine and jsonCol are where the JSON stops parsing, from 1; 0
	// when it is not known.
	jsonLine, jsonCol int
	unchecked         string
	Errs              []finding.SchemaError
}

// checkArgsCmd validates args against schema off the UI goroutine. The
// validator is safe for concurrent use.
func checkArgsCmd(seq int, v *checks.Validator, schema, args json.RawMessage) tea.Cmd {
	return func() tea.Msg {
		msg := ArgsCheckedMsg{Seq: seq}
		if !json.Valid(args) {
			var x any
			err := json.Unmarshal(args, &x)
			msg.JsonErr = "not valid JSON"
			var se *json.SyntaxError
			switch {
			case errors.As(err, &se):
				msg.jsonLine, msg.jsonCol = lineCol(args, se.Offset)
				msg.JsonErr += fmt.Sprintf(" at line %d, column %d: %s", msg.jsonLine, msg.jsonCol, se.Error())
			case err != nil:
				// The input ends too soon: the last line.
				msg.jsonLine, msg.jsonCol = lineCol(args, int64(len(args)))
				msg.JsonErr += fmt.Sprintf(" at line %d: %s", msg.jsonLine, err.Error())
			}
			return msg
		}
		if render.IsNull(schema) {
			return msg
		}
		errs, err := v.Validate(schema, args)
		var unchecked *checks.UncheckedError
		switch {
		case errors.As(err, &unchecked):
			msg.unchecked = unchecked.Reason
		case err != nil:
			msg.unchecked = err.Error()
		}
		msg.Errs = errs
		return msg
	}
}

// EditorPane edits the arguments of one call: a form for flat schemas, raw
// JSON otherwise.
type EditorPane struct {
	*Common
	Keys *EditorKeyMap
	v    *checks.Validator
	w, H int

	tool    *fold.Tool
	Fields  []tooldef.Field
	inputs  []textinput.Model // one per field; unused for choices
	choice  []int             // per field: the chosen choice, -1 for none (a multi-select's cursor)
	picks   [][]bool          // per multi-select field: which of its choices are picked
	Focus   int
	canForm bool
	Raw     bool
	Area    textarea.Model

	CheckSeq int
	Checked  *ArgsCheckedMsg // the newest check result
	// Answer says the form answers a server's elicitation: its schema is
	// the requested one, and accepting it is refused while it fails.
	Answer bool
	Note   string // why the last send did not happen

	// hideSchema hides the input schema shown beside (or under) the raw
	// JSON; schemaLines is its first lines drawn for the width, in SetSize.
	hideSchema  bool
	schemaLines []string
	schemaLeft  int // the schema's lines past those drawn
	// nameWidth is the width of the widest field name and its mark.
	nameWidth int
	// noForm says why the schema needs raw JSON, when it does.
	noForm string
}

func NewEditorPane(c *Common, keys *EditorKeyMap, v *checks.Validator) EditorPane {
	return EditorPane{Common: c, Keys: keys, v: v, Area: textarea.New()}
}

// MaxFormFields bounds the fields of a form: a schema with more
// properties is edited as raw JSON (a form of thousands is no help to
// anyone, and a field each would cost a text input each).
const MaxFormFields = 500

// Open starts editing a call of t, prefilled from its input schema.
func (e *EditorPane) Open(t *fold.Tool) tea.Cmd {
	e.tool, e.Note, e.Checked, e.Focus = t, "", nil, 0
	e.Fields, e.canForm = tooldef.FormFields(t.Input)
	e.noForm = "it is not a flat object of simple values shown safely"
	if n := len(e.Fields); n > MaxFormFields {
		e.Fields, e.canForm = nil, false
		e.noForm = fmt.Sprintf("it has %d properties, and a form takes at most %d", n, MaxFormFields)
	}
	e.nameWidth = 0
	for _, f := range e.Fields {
		e.nameWidth = max(e.nameWidth, len(f.Name)+1)
	}
	e.inputs = make([]textinput.Model, len(e.Fields))
	e.choice = make([]int, len(e.Fields))
	e.picks = make([][]bool, len(e.Fields))
	for i, f := range e.Fields {
		in := textinput.New()
		in.Prompt = ""
		in.CharLimit = 4096
		in.Placeholder = string(f.Kind)
		e.choice[i] = -1
		if f.Kind == tooldef.KindMulti {
			e.choice[i], e.picks[i] = 0, pickedOf(f, f.Default)
		} else if f.Kind == tooldef.KindChoice {
			for j, c := range f.Choices {
				if f.Default != nil && bytes.Equal(bytes.TrimSpace(c), bytes.TrimSpace(f.Default)) {
					e.choice[i] = j
				}
			}
			if e.choice[i] < 0 && f.Required {
				e.choice[i] = 0
			}
		} else if f.Default != nil {
			var s string
			if json.Unmarshal(f.Default, &s) != nil {
				s = string(f.Default)
			}
			if sanitize.Line(s) != s {
				// A text field would show it raw: raw JSON escapes it.
				e.canForm = false
			}
			in.SetValue(s)
		}
		e.inputs[i] = in
	}
	e.Area = textarea.New()
	// Numbered, so a syntax error's line can be found and marked.
	e.Area.ShowLineNumbers = true
	e.Area.Prompt = ""
	e.Area.SetValue(render.SafeJSON(string(tooldef.Skeleton(t.Input))))
	e.Raw = !e.canForm
	e.Restyle()
	e.SetSize(e.w, e.H)
	return tea.Batch(e.focusCmd(), e.Recheck())
}

// Tool returns the tool the editor calls.
func (e *EditorPane) Tool() *fold.Tool { return e.tool }

func (e *EditorPane) Restyle() {
	StyleFields(e.inputs, e.Sty)
	s := e.Area.Styles()
	s.Focused.Text, s.Blurred.Text = e.Sty.Text, e.Sty.Text
	s.Focused.CursorLine = e.Sty.Text
	s.Focused.Base, s.Blurred.Base = e.Sty.Text, e.Sty.Text
	s.Cursor.Blink = false
	e.Area.SetStyles(s)
	if e.tool != nil {
		e.SetSize(e.w, e.H) // the schema, drawn in the new styles
	}
}

func (e *EditorPane) SetSize(w, h int) {
	e.w, e.H = w, h
	iw := max(w-e.labelWidth()-6, 8)
	for i := range e.inputs {
		e.inputs[i].SetWidth(iw)
	}
	aw, ah := e.areaSize()
	e.Area.SetWidth(aw)
	e.Area.SetHeight(ah)
	e.schemaLines, e.schemaLeft = nil, 0
	if e.tool != nil && e.Sty != nil {
		sw, _ := e.schemaSize()
		d := render.NewDoc(max(sw-1, 8), e.Sty)
		// The pane shows the schema's first lines only: a server's may
		// run to thousands, which are counted, not drawn.
		d.Limit(max(h, 1))
		if render.IsNull(e.tool.Input) {
			d.Text(e.Sty.Muted, "no input schema", 0)
		} else {
			d.JSON(e.tool.Input, 0)
		}
		e.schemaLines, e.schemaLeft = d.Shown()
	}
}

// reserved is the rows the raw editor leaves for the title and the check.
func (e *EditorPane) reserved() int { return 6 }

func (e *EditorPane) labelWidth() int {
	return min(max(e.nameWidth, 4), max(e.w/3, 6))
}

func (e *EditorPane) focusCmd() tea.Cmd {
	for i := range e.inputs {
		e.inputs[i].Blur()
	}
	e.Area.Blur()
	if e.Raw {
		return e.Area.Focus()
	}
	if e.Focus < len(e.inputs) && !choosing(e.Fields[e.Focus]) {
		return e.inputs[e.Focus].Focus()
	}
	return nil
}

// Args returns the arguments as they stand.
func (e *EditorPane) Args() json.RawMessage {
	if e.Raw {
		return json.RawMessage(strings.TrimSpace(e.Area.Value()))
	}
	var members []tooldef.Member
	for i, f := range e.Fields {
		var v json.RawMessage
		if f.Kind == tooldef.KindMulti {
			if v = e.pickedJSON(i); v == nil {
				continue
			}
		} else if f.Kind == tooldef.KindChoice {
			if e.choice[i] < 0 {
				continue
			}
			v = f.Choices[e.choice[i]]
		} else {
			text := e.inputs[i].Value()
			if text == "" {
				continue
			}
			v, _ = tooldef.Coerce(string(f.Kind), text)
		}
		members = append(members, tooldef.Member{Name: f.Name, Value: v})
	}
	return tooldef.Object(members)
}

// Ready says whether the arguments are JSON that can be sent; when not,
// it says why inline.
func (e *EditorPane) Ready() bool {
	if json.Valid(e.Args()) {
		e.Note = ""
		return true
	}
	e.Note = "fix the JSON before sending: it does not parse"
	return false
}

// lineCol says where byte offset off of text is: line and column, from 1.
func lineCol(text []byte, off int64) (line, col int) {
	off = min(max(off, 0), int64(len(text)))
	before := text[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(off) - (bytes.LastIndexByte(before, '\n') + 1)
	if col == 0 && off > 0 {
		col = 1 // the offset is just past the bad byte
	}
	return line, col
}

func (e *EditorPane) Recheck() tea.Cmd {
	e.CheckSeq++
	return checkArgsCmd(e.CheckSeq, e.v, e.tool.Input, e.Args())
}

// Update handles keys while the editor is open and check results.
func (e EditorPane) Update(msg tea.Msg) (EditorPane, tea.Cmd) {
	switch msg := msg.(type) {
	case ArgsCheckedMsg:
		if msg.Seq == e.CheckSeq {
			e.Checked = &msg
		}
		return e, nil
	case tea.KeyPressMsg:
		before := string(e.Args())
		cmd := e.key(msg)
		if string(e.Args()) != before {
			e.Note = ""
			cmd = tea.Batch(cmd, e.Recheck())
		}
		return e, cmd
	default:
		// A paste or another message for the focused input.
		if e.tool == nil {
			return e, nil
		}
		before := string(e.Args())
		var cmd tea.Cmd
		switch {
		case e.Raw:
			e.Area, cmd = e.Area.Update(msg)
		case e.Focus < len(e.inputs) && !choosing(e.Fields[e.Focus]):
			e.inputs[e.Focus], cmd = e.inputs[e.Focus].Update(msg)
		}
		if string(e.Args()) != before {
			cmd = tea.Batch(cmd, e.Recheck())
		}
		return e, cmd
	}
}

func (e *EditorPane) key(msg tea.KeyPressMsg) tea.Cmd {
	k := e.Keys
	if key.Matches(msg, k.Raw) {
		return e.ToggleRaw()
	}
	if e.Raw && key.Matches(msg, k.Schema) {
		e.hideSchema = !e.hideSchema
		e.SetSize(e.w, e.H)
		return nil
	}
	if e.Raw && key.Matches(msg, k.Skeleton) {
		e.insertSkeleton()
		return nil
	}
	if e.Raw {
		var cmd tea.Cmd
		e.Area, cmd = e.Area.Update(msg)
		return cmd
	}
	switch {
	case len(e.Fields) == 0:
		return nil
	case key.Matches(msg, k.NextField):
		e.Focus = (e.Focus + 1) % len(e.Fields)
		return e.focusCmd()
	case key.Matches(msg, k.PrevField):
		e.Focus = (e.Focus + len(e.Fields) - 1) % len(e.Fields)
		return e.focusCmd()
	}
	if f := e.Fields[e.Focus]; choosing(f) {
		e.choose(f, msg.String())
		return nil
	}
	var cmd tea.Cmd
	e.inputs[e.Focus], cmd = e.inputs[e.Focus].Update(msg)
	return cmd
}

// ToggleRaw switches between the form and raw JSON, carrying the values.
func (e *EditorPane) ToggleRaw() tea.Cmd {
	if !e.Raw {
		pretty, _ := render.PrettyJSON(e.Args())
		e.Area.SetValue(render.SafeJSON(pretty))
		e.Raw = true
		return e.focusCmd()
	}
	if !e.canForm {
		e.Note = "this input schema needs raw JSON: " + e.noForm
		return nil
	}
	if err := e.fillForm(e.Args()); err != nil {
		e.Note = "fix the JSON to go back to the form: " + err.Error()
		return nil
	}
	e.Raw = false
	return e.focusCmd()
}

// fillForm sets the form's fields from a JSON object.
func (e *EditorPane) fillForm(args json.RawMessage) error {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(args, &obj); err != nil {
		return err
	}
	for i, f := range e.Fields {
		v, ok := obj[f.Name]
		if f.Kind == tooldef.KindMulti {
			e.picks[i] = pickedOf(f, v)
			continue
		}
		if f.Kind == tooldef.KindChoice {
			e.choice[i] = -1
			for j, c := range f.Choices {
				if ok && bytes.Equal(bytes.TrimSpace(c), bytes.TrimSpace(v)) {
					e.choice[i] = j
				}
			}
			continue
		}
		var s string
		if ok && json.Unmarshal(v, &s) != nil {
			s = string(v)
		}
		if sanitize.Line(s) != s {
			return fmt.Errorf("the value of %s holds characters a form field would show raw", sanitize.Line(f.Name))
		}
		e.inputs[i].SetValue(s)
	}
	return nil
}

// Fill puts the arguments of an earlier call in the editor.
func (e *EditorPane) Fill(args json.RawMessage) tea.Cmd {
	pretty, ok := render.PrettyJSON(args)
	if !ok {
		return nil
	}
	e.Area.SetValue(render.SafeJSON(pretty))
	if !e.Raw {
		if e.fillForm(args) != nil {
			e.Raw = true
			return tea.Batch(e.focusCmd(), e.Recheck())
		}
	}
	return e.Recheck()
}

// ShortHelp returns the editor's bindings for the help line.
func (e *EditorPane) ShortHelp() []key.Binding {
	k := e.Keys
	if e.Raw && !e.canForm {
		// No form to switch to: ctrl+r would only say so.
		return []key.Binding{k.Send, k.Skeleton, k.Schema, e.Global.Back}
	}
	if e.Raw {
		return []key.Binding{k.Send, k.Skeleton, k.Schema, k.Raw, e.Global.Back}
	}
	return []key.Binding{k.Send, k.NextField, k.Choice, k.Raw, e.Global.Back}
}
