package ui

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"mcpwitness/ui/panes"
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

// argsCheckedMsg is the live check of the editor's arguments against the
// tool's input schema, run in a command.
type argsCheckedMsg struct {
	seq     int
	jsonErr string
	// jsonLine and jsonCol are where the JSON stops parsing, from 1; 0
	// when it is not known.
	jsonLine, jsonCol int
	unchecked         string
	errs              []finding.SchemaError
}

// checkArgsCmd validates args against schema off the UI goroutine. The
// validator is safe for concurrent use.
func checkArgsCmd(seq int, v *checks.Validator, schema, args json.RawMessage) tea.Cmd {
	return func() tea.Msg {
		msg := argsCheckedMsg{seq: seq}
		if !json.Valid(args) {
			var x any
			err := json.Unmarshal(args, &x)
			msg.jsonErr = "not valid JSON"
			var se *json.SyntaxError
			switch {
			case errors.As(err, &se):
				msg.jsonLine, msg.jsonCol = lineCol(args, se.Offset)
				msg.jsonErr += fmt.Sprintf(" at line %d, column %d: %s", msg.jsonLine, msg.jsonCol, se.Error())
			case err != nil:
				// The input ends too soon: the last line.
				msg.jsonLine, msg.jsonCol = lineCol(args, int64(len(args)))
				msg.jsonErr += fmt.Sprintf(" at line %d: %s", msg.jsonLine, err.Error())
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
		msg.errs = errs
		return msg
	}
}

// editorPane edits the arguments of one call: a form for flat schemas, raw
// JSON otherwise.
type editorPane struct {
	*panes.Common
	keys *panes.EditorKeyMap
	v    *checks.Validator
	w, h int

	tool    *fold.Tool
	fields  []tooldef.Field
	inputs  []textinput.Model // one per field; unused for choices
	choice  []int             // per field: the chosen choice, -1 for none (a multi-select's cursor)
	picks   [][]bool          // per multi-select field: which of its choices are picked
	focus   int
	canForm bool
	raw     bool
	area    textarea.Model

	checkSeq int
	checked  *argsCheckedMsg // the newest check result
	// answer says the form answers a server's elicitation: its schema is
	// the requested one, and accepting it is refused while it fails.
	answer bool
	note   string // why the last send did not happen

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

func newEditorPane(c *panes.Common, keys *panes.EditorKeyMap, v *checks.Validator) editorPane {
	return editorPane{Common: c, keys: keys, v: v, area: textarea.New()}
}

// maxFormFields bounds the fields of a form: a schema with more
// properties is edited as raw JSON (a form of thousands is no help to
// anyone, and a field each would cost a text input each).
const maxFormFields = 500

// Open starts editing a call of t, prefilled from its input schema.
func (e *editorPane) Open(t *fold.Tool) tea.Cmd {
	e.tool, e.note, e.checked, e.focus = t, "", nil, 0
	e.fields, e.canForm = tooldef.FormFields(t.Input)
	e.noForm = "it is not a flat object of simple values shown safely"
	if n := len(e.fields); n > maxFormFields {
		e.fields, e.canForm = nil, false
		e.noForm = fmt.Sprintf("it has %d properties, and a form takes at most %d", n, maxFormFields)
	}
	e.nameWidth = 0
	for _, f := range e.fields {
		e.nameWidth = max(e.nameWidth, len(f.Name)+1)
	}
	e.inputs = make([]textinput.Model, len(e.fields))
	e.choice = make([]int, len(e.fields))
	e.picks = make([][]bool, len(e.fields))
	for i, f := range e.fields {
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
	e.area = textarea.New()
	// Numbered, so a syntax error's line can be found and marked.
	e.area.ShowLineNumbers = true
	e.area.Prompt = ""
	e.area.SetValue(render.SafeJSON(string(tooldef.Skeleton(t.Input))))
	e.raw = !e.canForm
	e.restyle()
	e.SetSize(e.w, e.h)
	return tea.Batch(e.focusCmd(), e.recheck())
}

// Tool returns the tool the editor calls.
func (e *editorPane) Tool() *fold.Tool { return e.tool }

func (e *editorPane) restyle() {
	panes.StyleFields(e.inputs, e.Sty)
	s := e.area.Styles()
	s.Focused.Text, s.Blurred.Text = e.Sty.Text, e.Sty.Text
	s.Focused.CursorLine = e.Sty.Text
	s.Focused.Base, s.Blurred.Base = e.Sty.Text, e.Sty.Text
	s.Cursor.Blink = false
	e.area.SetStyles(s)
	if e.tool != nil {
		e.SetSize(e.w, e.h) // the schema, drawn in the new styles
	}
}

func (e *editorPane) SetSize(w, h int) {
	e.w, e.h = w, h
	iw := max(w-e.labelWidth()-6, 8)
	for i := range e.inputs {
		e.inputs[i].SetWidth(iw)
	}
	aw, ah := e.areaSize()
	e.area.SetWidth(aw)
	e.area.SetHeight(ah)
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
func (e *editorPane) reserved() int { return 6 }

func (e *editorPane) labelWidth() int {
	return min(max(e.nameWidth, 4), max(e.w/3, 6))
}

func (e *editorPane) focusCmd() tea.Cmd {
	for i := range e.inputs {
		e.inputs[i].Blur()
	}
	e.area.Blur()
	if e.raw {
		return e.area.Focus()
	}
	if e.focus < len(e.inputs) && !choosing(e.fields[e.focus]) {
		return e.inputs[e.focus].Focus()
	}
	return nil
}

// Args returns the arguments as they stand.
func (e *editorPane) Args() json.RawMessage {
	if e.raw {
		return json.RawMessage(strings.TrimSpace(e.area.Value()))
	}
	var members []tooldef.Member
	for i, f := range e.fields {
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
func (e *editorPane) Ready() bool {
	if json.Valid(e.Args()) {
		e.note = ""
		return true
	}
	e.note = "fix the JSON before sending: it does not parse"
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

func (e *editorPane) recheck() tea.Cmd {
	e.checkSeq++
	return checkArgsCmd(e.checkSeq, e.v, e.tool.Input, e.Args())
}

// Update handles keys while the editor is open and check results.
func (e editorPane) Update(msg tea.Msg) (editorPane, tea.Cmd) {
	switch msg := msg.(type) {
	case argsCheckedMsg:
		if msg.seq == e.checkSeq {
			e.checked = &msg
		}
		return e, nil
	case tea.KeyPressMsg:
		before := string(e.Args())
		cmd := e.key(msg)
		if string(e.Args()) != before {
			e.note = ""
			cmd = tea.Batch(cmd, e.recheck())
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
		case e.raw:
			e.area, cmd = e.area.Update(msg)
		case e.focus < len(e.inputs) && !choosing(e.fields[e.focus]):
			e.inputs[e.focus], cmd = e.inputs[e.focus].Update(msg)
		}
		if string(e.Args()) != before {
			cmd = tea.Batch(cmd, e.recheck())
		}
		return e, cmd
	}
}

func (e *editorPane) key(msg tea.KeyPressMsg) tea.Cmd {
	k := e.keys
	if key.Matches(msg, k.Raw) {
		return e.toggleRaw()
	}
	if e.raw && key.Matches(msg, k.Schema) {
		e.hideSchema = !e.hideSchema
		e.SetSize(e.w, e.h)
		return nil
	}
	if e.raw && key.Matches(msg, k.Skeleton) {
		e.insertSkeleton()
		return nil
	}
	if e.raw {
		var cmd tea.Cmd
		e.area, cmd = e.area.Update(msg)
		return cmd
	}
	switch {
	case len(e.fields) == 0:
		return nil
	case key.Matches(msg, k.NextField):
		e.focus = (e.focus + 1) % len(e.fields)
		return e.focusCmd()
	case key.Matches(msg, k.PrevField):
		e.focus = (e.focus + len(e.fields) - 1) % len(e.fields)
		return e.focusCmd()
	}
	if f := e.fields[e.focus]; choosing(f) {
		e.choose(f, msg.String())
		return nil
	}
	var cmd tea.Cmd
	e.inputs[e.focus], cmd = e.inputs[e.focus].Update(msg)
	return cmd
}

// toggleRaw switches between the form and raw JSON, carrying the values.
func (e *editorPane) toggleRaw() tea.Cmd {
	if !e.raw {
		pretty, _ := render.PrettyJSON(e.Args())
		e.area.SetValue(render.SafeJSON(pretty))
		e.raw = true
		return e.focusCmd()
	}
	if !e.canForm {
		e.note = "this input schema needs raw JSON: " + e.noForm
		return nil
	}
	if err := e.fillForm(e.Args()); err != nil {
		e.note = "fix the JSON to go back to the form: " + err.Error()
		return nil
	}
	e.raw = false
	return e.focusCmd()
}

// fillForm sets the form's fields from a JSON object.
func (e *editorPane) fillForm(args json.RawMessage) error {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(args, &obj); err != nil {
		return err
	}
	for i, f := range e.fields {
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
func (e *editorPane) Fill(args json.RawMessage) tea.Cmd {
	pretty, ok := render.PrettyJSON(args)
	if !ok {
		return nil
	}
	e.area.SetValue(render.SafeJSON(pretty))
	if !e.raw {
		if e.fillForm(args) != nil {
			e.raw = true
			return tea.Batch(e.focusCmd(), e.recheck())
		}
	}
	return e.recheck()
}

// ShortHelp returns the editor's bindings for the help line.
func (e *editorPane) ShortHelp() []key.Binding {
	k := e.keys
	if e.raw && !e.canForm {
		// No form to switch to: ctrl+r would only say so.
		return []key.Binding{k.Send, k.Skeleton, k.Schema, e.Global.Back}
	}
	if e.raw {
		return []key.Binding{k.Send, k.Skeleton, k.Schema, k.Raw, e.Global.Back}
	}
	return []key.Binding{k.Send, k.NextField, k.Choice, k.Raw, e.Global.Back}
}
