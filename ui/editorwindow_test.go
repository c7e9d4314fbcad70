package ui

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"mcpwitness/fold"
)

// A form taller than its pane shows the focused field wherever it is, with
// a line saying how many fields are left out above and below: cut from the
// top only, server-everything's elicitation of 13 fields in a 24-row
// terminal hid the field being typed into.
func TestALongFormShowsTheFocusedField(t *testing.T) {
	h, _ := demoHarness(t)
	props := map[string]any{}
	for i := range 12 {
		props[fmt.Sprintf("f%02d", i)] = map[string]any{"type": "string", "description": fmt.Sprintf("field number %d", i)}
	}
	schema, _ := json.Marshal(map[string]any{"type": "object", "properties": props})
	e := &h.m.editor
	e.Open(&fold.Tool{Name: "many", Label: "many", Input: schema})
	e.SetSize(60, 12)
	for _, tc := range []struct {
		focus int
		want  []string
		not   []string
	}{
		{0, []string{"▸ f00", "field number 0", "more fields below"}, []string{"above"}},
		{9, []string{"▸ f09", "field number 9", "more fields above", "more fields below"}, []string{"f00"}},
		{11, []string{"▸ f11", "field number 11", "more fields above"}, []string{"below"}},
	} {
		e.Focus = tc.focus
		view := ansi.Strip(e.View())
		if n := strings.Count(view, "\n") + 1; n > 12 {
			t.Errorf("focus %d: %d lines in a pane of 12", tc.focus, n)
		}
		for _, w := range tc.want {
			if !strings.Contains(view, w) {
				t.Errorf("focus %d: the form does not show %q:\n%s", tc.focus, w, view)
			}
		}
		for _, w := range tc.not {
			if strings.Contains(view, w) {
				t.Errorf("focus %d: the form shows %q:\n%s", tc.focus, w, view)
			}
		}
	}
}

// The raw editor's key line offers ctrl+r only when there is a form to go
// back to: for server-memory's create_entities (an array of objects) it
// only said that the schema needs raw JSON.
func TestRawEditorOffersTheFormOnlyWhenThereIsOne(t *testing.T) {
	h, _ := demoHarness(t)
	e := &h.m.editor
	offers := func() bool {
		for _, b := range e.ShortHelp() {
			if b.Help().Desc == e.Keys.Raw.Help().Desc {
				return true
			}
		}
		return false
	}
	e.Open(&fold.Tool{Name: "flat", Label: "flat", Input: json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"}}}`)})
	e.ToggleRaw()
	if !e.Raw || !offers() {
		t.Errorf("a flat schema in raw JSON (raw %v): ctrl+r not offered", e.Raw)
	}
	e.Open(&fold.Tool{Name: "nested", Label: "nested", Input: json.RawMessage(`{"type":"object","properties":{"entities":{"type":"array","items":{"type":"object"}}}}`)})
	if !e.Raw || offers() {
		t.Errorf("a schema with no form (raw %v): ctrl+r offered", e.Raw)
	}
}
