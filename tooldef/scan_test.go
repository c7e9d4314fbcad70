package tooldef_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"

	"mcpwitness/tooldef"
)

// TestParseKeepsSlicesOfTheDefinition: the raw members Parse returns are
// slices of the definition it was given, not copies, so that a listed tool
// costs its bytes once.
func TestParseKeepsSlicesOfTheDefinition(t *testing.T) {
	raw := json.RawMessage(`{"name":"a","inputSchema":{"type":"object","properties":{"x":{"type":"string"}}},"outputSchema":{"type":"object"},"_meta":{"k":1}}`)
	d, err := tooldef.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	within := func(member string, b json.RawMessage) {
		start, end := uintptr(unsafe.Pointer(unsafe.SliceData(raw))), uintptr(unsafe.Pointer(unsafe.SliceData(raw)))+uintptr(len(raw))
		if p := uintptr(unsafe.Pointer(unsafe.SliceData(b))); len(b) == 0 || p < start || p+uintptr(len(b)) > end {
			t.Errorf("%s is a copy, not a slice of the definition", member)
		}
	}
	within("inputSchema", d.InputSchema)
	within("outputSchema", d.OutputSchema)
	within("_meta", d.Meta)
	if n := testing.AllocsPerRun(20, func() { tooldef.Parse(raw) }); n > 0 {
		t.Errorf("Parse allocates %.0f times for a plain definition, want none", n)
	}
}

// TestParseReadsAsJSONDoes: what the scan reads equals what decoding the
// definition reads, for names with escapes, duplicate members (the last
// wins), space around members, escaped and invalid UTF-8 strings.
func TestParseReadsAsJSONDoes(t *testing.T) {
	for _, raw := range []string{
		`{"n\u0061me":"escaped name","inputSchema":{}}`,
		`{"name":"first","name":"second"}`,
		` { "name" : "spaced" , "description" : "d\"q\"" , "inputSchema" : [ ] } `,
		"{\"name\":\"bad \xff utf8\",\"title\":\"caf\\u00e9\"}",
		`{"name":"x","annotations":{"title":"T","destructiveHint":true},"execution":{"taskSupport":"optional"}}`,
	} {
		got, gotErr := tooldef.Parse(json.RawMessage(raw))
		want, wantErr := decoded(json.RawMessage(raw))
		if diff := cmp.Diff(want, got); diff != "" || (gotErr == nil) != (wantErr == nil) {
			t.Errorf("%s: Parse (-decoded +scanned):\n%s errors %v, %v", raw, diff, wantErr, gotErr)
		}
	}
}

// TestParseValidReadsAsParseDoes: on valid JSON, ParseValid (which does not
// validate it again) reads what Parse reads, errors included.
func TestParseValidReadsAsParseDoes(t *testing.T) {
	for _, raw := range []string{
		`{"n\u0061me":"escaped name","inputSchema":{}}`,
		`{"name":"first","name":"second"}`,
		` { "name" : "spaced" , "description" : "d\"q\"" , "inputSchema" : [ ] } `,
		"{\"name\":\"bad \xff utf8\",\"title\":\"caf\\u00e9\"}",
		`{"name":"x","annotations":{"title":"T","destructiveHint":true},"execution":{"taskSupport":"optional"}}`,
		`{"name":7,"title":["t"],"description":{}}`,
		`{}`, `[{"name":"x"}]`, `"x"`, `null`, `5`,
	} {
		want, wantErr := tooldef.Parse(json.RawMessage(raw))
		got, gotErr := tooldef.ParseValid(json.RawMessage(raw))
		if diff := cmp.Diff(want, got); diff != "" || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Errorf("%s: ParseValid (-Parse +ParseValid):\n%s errors %v, %v", raw, diff, wantErr, gotErr)
		}
	}
}

// decoded reads raw by decoding it whole, as Parse did before it scanned.
func decoded(raw json.RawMessage) (tooldef.Definition, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return tooldef.Definition{Raw: raw}, err
	}
	d := tooldef.Definition{Raw: raw, InputSchema: m["inputSchema"], OutputSchema: m["outputSchema"],
		Annotations: m["annotations"], Execution: m["execution"], Meta: m["_meta"]}
	json.Unmarshal(m["name"], &d.Name)
	json.Unmarshal(m["title"], &d.Title)
	json.Unmarshal(m["description"], &d.Description)
	var ann struct {
		Title       string `json:"title"`
		ReadOnly    bool   `json:"readOnlyHint"`
		Destructive *bool  `json:"destructiveHint"`
		Idempotent  bool   `json:"idempotentHint"`
		OpenWorld   *bool  `json:"openWorldHint"`
	}
	if json.Unmarshal(d.Annotations, &ann) == nil {
		d.Hints = tooldef.Hints{Title: ann.Title, ReadOnly: ann.ReadOnly, Idempotent: ann.Idempotent,
			Destructive: ann.Destructive != nil && *ann.Destructive, OpenWorld: ann.OpenWorld != nil && *ann.OpenWorld}
	}
	var ex struct {
		TaskSupport string `json:"taskSupport"`
	}
	if json.Unmarshal(d.Execution, &ex) == nil {
		d.TaskSupport = ex.TaskSupport
	}
	return d, nil
}
