package fold

import (
	"encoding/json"
	"strings"

	"mcpwitness/sanitize"
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
}

// ReadTool reads one raw tool definition as the server sent it; a
// definition that cannot be read gives a Tool that says why in Bad.
func ReadTool(raw json.RawMessage) *Tool {
	var d struct {
		Name        string          `json:"name"`
		Title       string          `json:"title"`
		Description string          `json:"description"`
		Input       json.RawMessage `json:"inputSchema"`
		Output      json.RawMessage `json:"outputSchema"`
		Annotations json.RawMessage `json:"annotations"`
		Execution   json.RawMessage `json:"execution"`
		Meta        json.RawMessage `json:"_meta"`
	}
	t := &Tool{Raw: raw}
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Name, t.Bad = "(unreadable)", err.Error()
		t.Label = t.Name
		return t
	}
	t.Name, t.Title, t.Description = d.Name, d.Title, d.Description
	t.Input, t.Output, t.Annotations, t.Execution, t.Meta = d.Input, d.Output, d.Annotations, d.Execution, d.Meta
	if isNull(t.Output) {
		t.Output = nil
	}
	var ann struct {
		Title       string `json:"title"`
		ReadOnly    bool   `json:"readOnlyHint"`
		Destructive *bool  `json:"destructiveHint"`
		Idempotent  bool   `json:"idempotentHint"`
		OpenWorld   *bool  `json:"openWorldHint"`
	}
	if json.Unmarshal(d.Annotations, &ann) == nil {
		t.ReadOnly, t.Idempotent = ann.ReadOnly, ann.Idempotent
		// The spec's default for destructiveHint is true, but only when
		// the tool is not read-only; a badge says it only when declared.
		t.Destructive = ann.Destructive != nil && *ann.Destructive
		t.OpenWorld = ann.OpenWorld != nil && *ann.OpenWorld
		if t.Title == "" {
			t.Title = ann.Title
		}
	}
	var ex struct {
		TaskSupport string `json:"taskSupport"`
	}
	if json.Unmarshal(d.Execution, &ex) == nil {
		t.TaskSupport = ex.TaskSupport
	}
	if t.Name == "" {
		t.Name, t.Bad = "(no name)", "the definition has no name"
	}
	t.Label = sanitize.Line(t.Name)
	return t
}

func isNull(raw json.RawMessage) bool {
	s := strings.TrimSpace(string(raw))
	return s == "" || s == "null"
}
