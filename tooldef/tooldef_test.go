package tooldef_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"mcpwitness/tooldef"
)

func TestParseReadsEveryMember(t *testing.T) {
	raw := json.RawMessage(`{"name":"render","title":"Render","description":"Renders.",
		"inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{}},
		"annotations":{"title":"Render it","readOnlyHint":true,"destructiveHint":false,"idempotentHint":true,"openWorldHint":true},
		"execution":{"taskSupport":"required"},"_meta":{"k":1}}`)
	d, err := tooldef.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	want := tooldef.Definition{
		Raw: raw, Name: "render", Title: "Render", Description: "Renders.",
		InputSchema:  json.RawMessage(`{"type":"object"}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{}}`),
		Annotations:  json.RawMessage(`{"title":"Render it","readOnlyHint":true,"destructiveHint":false,"idempotentHint":true,"openWorldHint":true}`),
		Execution:    json.RawMessage(`{"taskSupport":"required"}`),
		Meta:         json.RawMessage(`{"k":1}`),
		TaskSupport:  "required",
		Hints:        tooldef.Hints{Title: "Render it", ReadOnly: true, Idempotent: true, OpenWorld: true},
	}
	if diff := cmp.Diff(want, d); diff != "" {
		t.Errorf("Parse (-want +got):\n%s", diff)
	}
	if !d.HasOutputSchema() {
		t.Error("HasOutputSchema = false for a declared outputSchema")
	}
}

func TestParseSaysWhatIsWrong(t *testing.T) {
	for _, tt := range []struct {
		raw     string
		wantErr string
		notObj  bool
		name    string
		input   string
	}{
		{raw: `[1,2]`, wantErr: "the tool definition is not a JSON object", notObj: true},
		{raw: `"tool"`, wantErr: "the tool definition is not a JSON object", notObj: true},
		{raw: `null`, wantErr: "the tool definition is not a JSON object", notObj: true},
		{raw: `{"name":5,"inputSchema":{"type":"object"}}`, wantErr: "the tool definition's name is a number, not a string", input: `{"type":"object"}`},
		{raw: `{"name":"x","description":["a"]}`, wantErr: "the tool definition's description is an array, not a string", name: "x"},
		{raw: `{"name":"x","title":true}`, wantErr: "the tool definition's title is a boolean, not a string", name: "x"},
		{raw: `{"name":null}`},
		// Members are matched exactly, as the specification and clients do.
		{raw: `{"Name":"x","InputSchema":{}}`},
	} {
		d, err := tooldef.Parse(json.RawMessage(tt.raw))
		gotErr := ""
		if err != nil {
			gotErr = err.Error()
		}
		if gotErr != tt.wantErr || errors.Is(err, tooldef.ErrNotObject) != tt.notObj {
			t.Errorf("Parse(%s) error = %q (not object: %v), want %q (%v)", tt.raw, gotErr, errors.Is(err, tooldef.ErrNotObject), tt.wantErr, tt.notObj)
		}
		if d.Name != tt.name || string(d.InputSchema) != tt.input {
			t.Errorf("Parse(%s) = name %q, inputSchema %s; want %q, %s", tt.raw, d.Name, d.InputSchema, tt.name, tt.input)
		}
	}
}

func TestHasOutputSchema(t *testing.T) {
	for raw, want := range map[string]bool{
		`{"name":"a"}`:                          false,
		`{"name":"a","outputSchema":null}`:      false,
		`{"name":"a","outputSchema":{}}`:        true,
		`{"name":"a","outputSchema":"strange"}`: true,
	} {
		d, _ := tooldef.Parse(json.RawMessage(raw))
		if d.HasOutputSchema() != want {
			t.Errorf("Parse(%s).HasOutputSchema() = %v, want %v", raw, !want, want)
		}
	}
}
