package checks

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"mcpwitness/finding"
)

const (
	addInput = `{"type":"object","required":["a","b"],"properties":{"a":{"type":"number"},"b":{"type":"number"}}}`
	sumOut   = `{"type":"object","required":["sum"],"properties":{"sum":{"type":"number"},"parts":{"type":"array","items":{"type":"number"}}}}`
)

func TestBefore(t *testing.T) {
	tests := []struct {
		name  string
		def   string // "" for a tool that was not listed
		args  string
		want  []finding.Verdict
		block bool
	}{
		{
			name: "not listed",
			args: `{"a":1}`,
			want: []finding.Verdict{
				{Check: finding.TaskSupport, Status: finding.Skipped, Message: `tool "add" was not listed; there is no definition to check against`},
				{Check: finding.InputSchema, Status: finding.Skipped, Message: `tool "add" was not listed; there is no definition to check against`},
			},
		},
		{
			name: "task support required is refused",
			def:  `{"name":"add","inputSchema":` + addInput + `,"execution":{"taskSupport":"required"}}`,
			args: `{"a":1,"b":2}`,
			want: []finding.Verdict{
				{Check: finding.TaskSupport, Status: finding.Refused, Message: `Tool "add" requires task-based execution. Clients refuse a plain tools/call of it.`},
				{Check: finding.InputSchema, Status: finding.Pass, Message: "arguments match the input schema"},
			},
			block: true,
		},
		{
			name: "task support optional",
			def:  `{"name":"add","inputSchema":` + addInput + `,"execution":{"taskSupport":"optional"}}`,
			args: `{"a":1,"b":2}`,
			want: []finding.Verdict{
				{Check: finding.TaskSupport, Status: finding.Pass, Message: `taskSupport is "optional"; plain calls are allowed`},
				{Check: finding.InputSchema, Status: finding.Pass, Message: "arguments match the input schema"},
			},
		},
		{
			name: "task support forbidden",
			def:  `{"name":"add","inputSchema":` + addInput + `,"execution":{"taskSupport":"forbidden"}}`,
			args: `{"a":1,"b":2}`,
			want: []finding.Verdict{
				{Check: finding.TaskSupport, Status: finding.Pass, Message: `taskSupport is "forbidden"; plain calls are allowed`},
				{Check: finding.InputSchema, Status: finding.Pass, Message: "arguments match the input schema"},
			},
		},
		{
			name: "task support unknown value",
			def:  `{"name":"add","execution":{"taskSupport":"sometimes"}}`,
			want: []finding.Verdict{
				{Check: finding.TaskSupport, Status: finding.Pass, Message: `taskSupport is "sometimes", an unknown value; plain calls are allowed`},
				{Check: finding.InputSchema, Status: finding.Skipped, Message: "no input schema"},
			},
		},
		{
			name: "task support not a string",
			def:  `{"name":"add","execution":{"taskSupport": [ true ]}}`,
			want: []finding.Verdict{
				{Check: finding.TaskSupport, Status: finding.Pass, Message: `taskSupport is [true], an unknown value; plain calls are allowed`},
				{Check: finding.InputSchema, Status: finding.Skipped, Message: "no input schema"},
			},
		},
		{
			name: "execution without taskSupport",
			def:  `{"name":"add","execution":{},"inputSchema":null}`,
			want: []finding.Verdict{
				{Check: finding.TaskSupport, Status: finding.Pass, Message: "no execution.taskSupport; plain calls are allowed"},
				{Check: finding.InputSchema, Status: finding.Skipped, Message: "no input schema"},
			},
		},
		{
			name: "execution not an object",
			def:  `{"name":"add","execution":"required"}`,
			want: []finding.Verdict{
				{Check: finding.TaskSupport, Status: finding.Pass, Message: "execution is not an object, so taskSupport is unknown; plain calls are allowed"},
				{Check: finding.InputSchema, Status: finding.Skipped, Message: "no input schema"},
			},
		},
		{
			name: "input schema fails with every error",
			def:  `{"name":"add","inputSchema":` + addInput + `}`,
			args: `{"a":"one","c":3}`,
			want: []finding.Verdict{
				{Check: finding.TaskSupport, Status: finding.Pass, Message: "no execution.taskSupport; plain calls are allowed"},
				{Check: finding.InputSchema, Status: finding.Fail,
					Message: "Arguments do not match the tool's input schema: (root): Required property 'b' is missing (and 1 more)",
					Errors: []finding.SchemaError{
						{InstancePath: "", Keyword: "required", Message: "Required property 'b' is missing"},
						{InstancePath: "/a", Keyword: "type", Message: "Value is string but should be number"},
					}},
			},
			block: true,
		},
		{
			name: "nil arguments mean {}",
			def:  `{"name":"add","inputSchema":{"type":"object","required":["a"]}}`,
			want: []finding.Verdict{
				{Check: finding.TaskSupport, Status: finding.Pass, Message: "no execution.taskSupport; plain calls are allowed"},
				{Check: finding.InputSchema, Status: finding.Fail,
					Message: "Arguments do not match the tool's input schema: (root): Required property 'a' is missing",
					Errors:  []finding.SchemaError{{Keyword: "required", Message: "Required property 'a' is missing"}}},
			},
			block: true,
		},
		{
			name: "input schema does not compile",
			def:  `{"name":"add","inputSchema":{"type":"object","properties":{"a":{"pattern":"(("}}}}`,
			args: `{"a":"x"}`,
			want: []finding.Verdict{
				{Check: finding.TaskSupport, Status: finding.Pass, Message: "no execution.taskSupport; plain calls are allowed"},
				{Check: finding.InputSchema, Status: finding.Unchecked, Message: "input schema unchecked: the schema does not compile: " +
					"regex validation failed; regex pattern error (keyword=pattern, location=#/properties/a/pattern, pattern=\"((\"): " +
					"error parsing regexp: missing closing ): `((`"},
			},
		},
		{
			name: "input schema with an unresolved $ref",
			def:  `{"name":"add","inputSchema":{"type":"object","properties":{"a":{"$ref":"#/$defs/num"}}}}`,
			args: `{"a":"x"}`,
			want: []finding.Verdict{
				{Check: finding.TaskSupport, Status: finding.Pass, Message: "no execution.taskSupport; plain calls are allowed"},
				{Check: finding.InputSchema, Status: finding.Unchecked, Message: `input schema unchecked: $ref "#/$defs/num" does not resolve (references outside the schema are never fetched)`},
			},
		},
		{
			name: "definition not an object",
			def:  `["add"]`,
			want: []finding.Verdict{
				{Check: finding.TaskSupport, Status: finding.Unchecked, Message: "the tool definition is not a JSON object"},
				{Check: finding.InputSchema, Status: finding.Unchecked, Message: "the tool definition is not a JSON object"},
			},
		},
		{
			// The odd title is LintTool's finding; the call is still checked.
			name: "a title that is not a string",
			def:  `{"name":"add","title":7,"inputSchema":{"type":"object","required":["a"]},"execution":{"taskSupport":"required"}}`,
			args: `{"a":1}`,
			want: []finding.Verdict{
				{Check: finding.TaskSupport, Status: finding.Refused, Message: `Tool "add" requires task-based execution. Clients refuse a plain tools/call of it.`},
				{Check: finding.InputSchema, Status: finding.Pass, Message: "arguments match the input schema"},
			},
			block: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := NewValidator().Before("add", raw(tt.def), raw(tt.args))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Before (-want +got):\n%s", diff)
			}
			if b := Blocks(got); b != tt.block {
				t.Errorf("Blocks = %v, want %v", b, tt.block)
			}
		})
	}
}

func TestAfter(t *testing.T) {
	withOut := `{"name":"sum","outputSchema":` + sumOut + `}`
	tests := []struct {
		name   string
		def    string
		result string
		want   []finding.Verdict
	}{
		{
			name:   "not listed",
			result: `{"content":[],"structuredContent":{"sum":1}}`,
			want: []finding.Verdict{
				{Check: finding.StructuredContent, Status: finding.Skipped, Message: `tool "sum" was not listed; there is no definition to check against`},
				{Check: finding.OutputSchema, Status: finding.Skipped, Message: `tool "sum" was not listed; there is no definition to check against`},
			},
		},
		{
			name:   "error result",
			def:    withOut,
			result: `{"content":[{"type":"text","text":"boom"}],"isError":true}`,
			want: []finding.Verdict{
				{Check: finding.StructuredContent, Status: finding.Skipped, Message: "result is an error (isError); structured content not required"},
				{Check: finding.OutputSchema, Status: finding.Skipped, Message: "result is an error (isError); output schema not checked"},
			},
		},
		{
			name:   "no output schema",
			def:    `{"name":"sum"}`,
			result: `{"content":[]}`,
			want: []finding.Verdict{
				{Check: finding.StructuredContent, Status: finding.Skipped, Message: "no output schema; structured content not required"},
				{Check: finding.OutputSchema, Status: finding.Skipped, Message: "no output schema"},
			},
		},
		{
			name:   "missing structured content",
			def:    withOut,
			result: `{"content":[{"type":"text","text":"3"}],"isError":false}`,
			want: []finding.Verdict{
				{Check: finding.StructuredContent, Status: finding.Fail, Message: "Tool sum has an output schema but did not return structured content"},
				{Check: finding.OutputSchema, Status: finding.Skipped, Message: "no structured content to check"},
			},
		},
		{
			name:   "null structured content",
			def:    withOut,
			result: `{"content":[],"structuredContent":null}`,
			want: []finding.Verdict{
				{Check: finding.StructuredContent, Status: finding.Fail, Message: "Tool sum has an output schema but did not return structured content"},
				{Check: finding.OutputSchema, Status: finding.Skipped, Message: "no structured content to check"},
			},
		},
		{
			name:   "valid",
			def:    withOut,
			result: `{"content":[],"structuredContent":{"sum":3,"parts":[1,2]}}`,
			want: []finding.Verdict{
				{Check: finding.StructuredContent, Status: finding.Pass, Message: "structured content present"},
				{Check: finding.OutputSchema, Status: finding.Pass, Message: "structured content matches the output schema"},
			},
		},
		{
			name:   "invalid",
			def:    withOut,
			result: `{"content":[],"structuredContent":{"sum":"3","parts":[1,"2",3,"4"]}}`,
			want: []finding.Verdict{
				{Check: finding.StructuredContent, Status: finding.Pass, Message: "structured content present"},
				{Check: finding.OutputSchema, Status: finding.Fail,
					Message: "Structured content does not match the tool's output schema: /parts/1: Value is string but should be number (and 2 more)",
					Errors: []finding.SchemaError{
						{InstancePath: "/parts/1", Keyword: "type", Message: "Value is string but should be number"},
						{InstancePath: "/parts/3", Keyword: "type", Message: "Value is string but should be number"},
						{InstancePath: "/sum", Keyword: "type", Message: "Value is string but should be number"},
					}},
			},
		},
		{
			name:   "output schema with an unresolved $ref",
			def:    `{"name":"sum","outputSchema":{"$ref":"https://schemas.example.com/sum.json"}}`,
			result: `{"content":[],"structuredContent":{"sum":3}}`,
			want: []finding.Verdict{
				{Check: finding.StructuredContent, Status: finding.Pass, Message: "structured content present"},
				{Check: finding.OutputSchema, Status: finding.Unchecked, Message: `output schema unchecked: $ref "https://schemas.example.com/sum.json" does not resolve (references outside the schema are never fetched)`},
			},
		},
		{
			name:   "output schema is not a schema",
			def:    `{"name":"sum","outputSchema":"object"}`,
			result: `{"content":[],"structuredContent":{"sum":3}}`,
			want: []finding.Verdict{
				{Check: finding.StructuredContent, Status: finding.Pass, Message: "structured content present"},
				{Check: finding.OutputSchema, Status: finding.Unchecked, Message: "output schema unchecked: the schema is a JSON string, not an object or a boolean"},
			},
		},
		{
			name:   "result not an object",
			def:    withOut,
			result: `"3"`,
			want: []finding.Verdict{
				{Check: finding.StructuredContent, Status: finding.Unchecked, Message: "the result is not a JSON object"},
				{Check: finding.OutputSchema, Status: finding.Unchecked, Message: "the result is not a JSON object"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := NewValidator().After("sum", raw(tt.def), raw(tt.result))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("After (-want +got):\n%s", diff)
			}
			if Blocks(got) {
				t.Errorf("Blocks(After(...)) = true; answers never block")
			}
		})
	}
}

func TestBlocks(t *testing.T) {
	tests := []struct {
		name string
		vs   []finding.Verdict
		want bool
	}{
		{"none", nil, false},
		{"all pass", []finding.Verdict{{Check: finding.TaskSupport, Status: finding.Pass}, {Check: finding.InputSchema, Status: finding.Pass}}, false},
		{"refused", []finding.Verdict{{Check: finding.TaskSupport, Status: finding.Refused}, {Check: finding.InputSchema, Status: finding.Pass}}, true},
		{"input fail", []finding.Verdict{{Check: finding.TaskSupport, Status: finding.Pass}, {Check: finding.InputSchema, Status: finding.Fail}}, true},
		{"input unchecked", []finding.Verdict{{Check: finding.TaskSupport, Status: finding.Pass}, {Check: finding.InputSchema, Status: finding.Unchecked}}, false},
		{"input skipped", []finding.Verdict{{Check: finding.TaskSupport, Status: finding.Skipped}, {Check: finding.InputSchema, Status: finding.Skipped}}, false},
		{"output fail does not block", []finding.Verdict{{Check: finding.OutputSchema, Status: finding.Fail}}, false},
	}
	for _, tt := range tests {
		if got := Blocks(tt.vs); got != tt.want {
			t.Errorf("%s: Blocks = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// One Validator serves Before and After for many tools at once.
func TestBeforeAfterShareCache(t *testing.T) {
	v := NewValidator()
	def := raw(`{"name":"sum","inputSchema":` + addInput + `,"outputSchema":` + sumOut + `}`)
	for range 3 {
		if Blocks(v.Before("sum", def, raw(`{"a":1,"b":2}`))) {
			t.Fatal("Before blocked valid arguments")
		}
		after := v.After("sum", def, raw(`{"content":[],"structuredContent":{"sum":3}}`))
		if after[1].Status != finding.Pass {
			t.Fatalf("After = %+v, want output-schema pass", after)
		}
	}
	if n := len(v.schemas); n != 2 {
		t.Errorf("cache holds %d schemas, want 2 (input and output, each compiled once)", n)
	}
}

// raw turns "" into nil, as for a tool that was not listed or no arguments.
func raw(s string) json.RawMessage {
	if s == "" {
		return nil
	}
	return json.RawMessage(s)
}
