package checks

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
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

// AnySchemaOutput is the first protocol revision whose outputSchema may be
// any JSON Schema 2020-12, not only one that describes an object.
const AnySchemaOutput = "2026-07-28"

// LintTool is [Validator.LintToolAt] for a revision before
// [AnySchemaOutput]: the strictest reading.
func (v *Validator) LintTool(def json.RawMessage) []finding.Finding {
	return v.LintToolAt(def, "")
}

// LintToolAt checks a listed tool definition as protocol revision protocol
// (the negotiated one; "" for one before [AnySchemaOutput]) asks: its name,
// that its input schema describes an object, that its output schema does
// when the revision asks it to, that both compile (no unresolved $ref),
// that no required property has a default, and whether plain calls to it
// will be refused.
func (v *Validator) LintToolAt(def json.RawMessage, protocol string) []finding.Finding {
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
		add(finding.InputSchema, finding.SeverityError, "Tool %s has no inputSchema; the specification requires one (use {\"type\":\"object\"} for none)", t.Name)
	} else {
		v.lintSchema(add, finding.InputSchema, t.Name, "inputSchema", t.InputSchema, true)
		for _, ptr := range requiredDefaults(t.InputSchema, "/inputSchema") {
			add(RequiredDefault, finding.SeverityWarning, "Tool %s: %s is required and has a default; the schema contradicts itself: a client refuses a call without it, which the default says may leave it out", t.Name, ptr)
		}
	}
	if !tooldef.Absent(t.OutputSchema) {
		v.lintSchema(add, finding.OutputSchema, t.Name, "outputSchema", t.OutputSchema, protocol < AnySchemaOutput)
	}
	if !tooldef.Absent(t.Execution) {
		switch ts := taskSupport(t.Name, t.Execution); {
		case ts.Status == finding.Refused:
			add(finding.TaskSupport, finding.SeverityInfo, "Tool %s requires task-based execution: clients refuse a plain tools/call", t.Name)
		case strings.Contains(ts.Message, "unknown"):
			add(finding.TaskSupport, finding.SeverityWarning, "Tool %s: %s", t.Name, ts.Message)
		}
	}
	return out
}

// lintSchema checks that schema is a JSON object that compiles and, when
// object is set, that it describes an object.
func (v *Validator) lintSchema(add func(check string, sev finding.Severity, format string, args ...any), check, tool, field string, schema json.RawMessage, object bool) {
	var s struct {
		Type json.RawMessage `json:"type"`
	}
	if json.Unmarshal(schema, &s) != nil {
		add(check, finding.SeverityError, "Tool %s: %s is not a JSON object", tool, field)
		return
	}
	if object && string(s.Type) != `"object"` {
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

// RequiredDefault is the lint of a required property that has a default.
const RequiredDefault = "required-default"

// requiredDefaults returns the JSON pointers (under at) of the properties
// schema requires that also declare a default, in nested object schemas too,
// in the order the schema names them.
func requiredDefaults(schema json.RawMessage, at string) []string {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return nil
	}
	var out []string
	for _, name := range s.Required {
		prop, ok := s.Properties[name]
		if !ok {
			continue
		}
		var p map[string]json.RawMessage
		if json.Unmarshal(prop, &p) != nil {
			continue
		}
		if _, ok := p["default"]; ok {
			out = append(out, at+"/properties/"+pointerToken(name))
		}
	}
	names := make([]string, 0, len(s.Properties))
	for name := range s.Properties {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		out = append(out, requiredDefaults(s.Properties[name], at+"/properties/"+pointerToken(name))...)
	}
	return out
}

// pointerToken escapes name as one JSON Pointer token (RFC 6901).
func pointerToken(name string) string {
	return strings.ReplaceAll(strings.ReplaceAll(name, "~", "~0"), "/", "~1")
}
