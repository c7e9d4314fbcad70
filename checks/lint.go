package checks

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"mcpwitness/finding"
	"mcpwitness/tooldef"
)

// wellFormedToolName reports whether name has the shape the specification
// asks tool names to have: 1–128 characters of A–Z, a–z, 0–9, _, - and .
// (A loop rather than a regexp: compiling one at start cost every process
// 118 KB in 1,693 allocations.)
func wellFormedToolName(name string) bool {
	if len(name) == 0 || len(name) > 128 {
		return false
	}
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '_', c == '.', c == '-':
		default:
			return false
		}
	}
	return true
}

// LintTool checks a listed tool definition: its name, that its input and
// output schemas describe objects and compile (no unresolved $ref), and
// whether plain calls to it will be refused.
func (v *Validator) LintTool(def json.RawMessage) []finding.Finding {
	t, err := tooldef.Parse(def)
	if err != nil {
		return []finding.Finding{{Check: "definition", Severity: finding.SeverityError, Message: err.Error(), Item: t.Name}}
	}
	var out []finding.Finding
	add := func(check string, sev finding.Severity, format string, args ...any) {
		out = append(out, finding.Finding{Check: check, Severity: sev, Message: fmt.Sprintf(format, args...), Item: t.Name})
	}
	switch {
	case t.Name == "":
		add("tool-name", finding.SeverityError, "a tool has no name")
	case !wellFormedToolName(t.Name):
		add("tool-name", finding.SeverityWarning, "Tool name %q should be 1–128 characters of A–Z, a–z, 0–9, _, - and .", t.Name)
	}
	if tooldef.Absent(t.InputSchema) {
		add(InputSchema, finding.SeverityError, "Tool %s has no inputSchema; the specification requires one (use {\"type\":\"object\"} for none)", t.Name)
	} else {
		v.lintSchema(add, InputSchema, t.Name, "inputSchema", t.InputSchema)
	}
	if !tooldef.Absent(t.OutputSchema) {
		v.lintSchema(add, OutputSchema, t.Name, "outputSchema", t.OutputSchema)
	}
	if !tooldef.Absent(t.Execution) {
		switch ts := taskSupport(t.Name, t.Execution); {
		case ts.Status == Refused:
			add(TaskSupport, finding.SeverityInfo, "Tool %s requires task-based execution: clients refuse a plain tools/call", t.Name)
		case strings.Contains(ts.Message, "unknown"):
			add(TaskSupport, finding.SeverityWarning, "Tool %s: %s", t.Name, ts.Message)
		}
	}
	return out
}

func (v *Validator) lintSchema(add func(check string, sev finding.Severity, format string, args ...any), check, tool, field string, schema json.RawMessage) {
	var s struct {
		Type json.RawMessage `json:"type"`
	}
	if json.Unmarshal(schema, &s) != nil {
		add(check, finding.SeverityError, "Tool %s: %s is not a JSON object", tool, field)
		return
	}
	if string(s.Type) != `"object"` {
		add(check, finding.SeverityWarning, "Tool %s: %s has type %s; it must describe an object", tool, field, typeText(s.Type))
	}
	_, err := v.Validate(schema, json.RawMessage(`{}`))
	var u *UncheckedError
	if errors.As(err, &u) {
		add(check, finding.SeverityError, "Tool %s: %s cannot be checked: %s", tool, field, u.Reason)
	}
}

func typeText(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "(none)"
	}
	return string(raw)
}
