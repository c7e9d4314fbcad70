package fold

import (
	"encoding/json"

	"mcpwitness/checks"
	"mcpwitness/finding"
	"mcpwitness/sanitize"
	"mcpwitness/tooldef"
)

// Tool is one listed tool, read from the raw definition the server sent:
// the one record of a tool. Tools never change once made.
type Tool struct {
	Name, Title, Description string
	// Label is the name as shown: controls and escapes made visible.
	Label                 string
	Raw                   json.RawMessage
	Input, Output         json.RawMessage
	Execution, Meta       json.RawMessage
	Annotations           json.RawMessage
	TaskSupport           string
	ReadOnly, Destructive bool
	Idempotent, OpenWorld bool
	// Walk, Page and Gen say where the definition came from: the walk, the
	// page's number in it, and the generation of that page's answer.
	Walk int64
	Page int
	Gen  int64
	// Bad says why the definition could not be read.
	Bad string
	// Unsafe says which fields of the definition hold hidden or unsafe
	// characters, and what: the messages of [checks.LintText].
	Unsafe []string
}

// ReadTool reads one raw tool definition as the server sent it (with
// [tooldef.Parse]); a definition that cannot be read gives a Tool that says
// why in Bad.
func ReadTool(raw json.RawMessage) *Tool { return readTool(raw, false) }

// readTool is [ReadTool] for raw known to be valid JSON when valid (see
// [tooldef.ParseValid]).
func readTool(raw json.RawMessage, valid bool) *Tool {
	t := &Tool{Raw: raw}
	parse := tooldef.Parse
	if valid {
		parse = tooldef.ParseValid
	}
	d, err := parse(raw)
	if err != nil {
		t.Name, t.Bad = "(unreadable)", err.Error()
		t.Label = t.Name
		return t
	}
	t.Name, t.Title, t.Description = d.Name, d.Title, d.Description
	t.Input, t.Annotations, t.Execution, t.Meta = d.InputSchema, d.Annotations, d.Execution, d.Meta
	if d.HasOutputSchema() {
		t.Output = d.OutputSchema
	}
	t.ReadOnly, t.Destructive, t.Idempotent, t.OpenWorld = d.Hints.ReadOnly, d.Hints.Destructive, d.Hints.Idempotent, d.Hints.OpenWorld
	if t.Title == "" {
		t.Title = d.Hints.Title
	}
	t.TaskSupport = d.TaskSupport
	if t.Name == "" {
		t.Name, t.Bad = "(no name)", "the definition has no name"
	}
	t.Label = sanitize.Line(t.Name)
	t.Unsafe = messages(checks.LintText("tool", raw))
	return t
}

// messages are the messages of fs (nil for none).
func messages(fs []finding.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Message)
	}
	return out
}
