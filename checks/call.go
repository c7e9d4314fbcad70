package checks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"mcpwitness/finding"
	"mcpwitness/tooldef"
)

// Before returns the verdicts that decide whether a tools/call may be sent,
// in order: [finding.TaskSupport], then [finding.InputSchema].
//
// def is the raw tool definition as the server listed it (a JSON object with
// name, inputSchema, outputSchema, execution, ...), or nil when the tool was
// not listed: then both verdicts are [finding.Skipped]. args is the raw JSON
// arguments object; nil means {}. Pass the result to [Blocks] to decide.
func (v *Validator) Before(name string, def, args json.RawMessage) []finding.Verdict {
	if tooldef.Absent(def) {
		return []finding.Verdict{notListed(finding.TaskSupport, name), notListed(finding.InputSchema, name)}
	}
	d, err := parseDef(def)
	if err != nil {
		return []finding.Verdict{unreadable(finding.TaskSupport, err), unreadable(finding.InputSchema, err)}
	}
	return []finding.Verdict{taskSupport(name, d.Execution), v.inputSchema(d.InputSchema, args)}
}

// After returns the verdicts on a tools/call answer, in order:
// [finding.StructuredContent], then [finding.OutputSchema]. result is the raw CallToolResult
// (the JSON-RPC "result" object); def is as for [Validator.Before], and nil
// makes both verdicts [finding.Skipped].
func (v *Validator) After(name string, def, result json.RawMessage) []finding.Verdict {
	if tooldef.Absent(def) {
		return []finding.Verdict{notListed(finding.StructuredContent, name), notListed(finding.OutputSchema, name)}
	}
	d, err := parseDef(def)
	if err != nil {
		return []finding.Verdict{unreadable(finding.StructuredContent, err), unreadable(finding.OutputSchema, err)}
	}
	var res map[string]json.RawMessage
	if err := json.Unmarshal(result, &res); err != nil || res == nil {
		err = errors.New("the result is not a JSON object")
		return []finding.Verdict{unreadable(finding.StructuredContent, err), unreadable(finding.OutputSchema, err)}
	}

	var isError bool
	_ = json.Unmarshal(res["isError"], &isError) // anything but true is not an error
	if isError {
		return []finding.Verdict{
			{Check: finding.StructuredContent, Status: finding.Skipped, Message: "result is an error (isError); structured content not required"},
			{Check: finding.OutputSchema, Status: finding.Skipped, Message: "result is an error (isError); output schema not checked"},
		}
	}
	if tooldef.Absent(d.OutputSchema) {
		return []finding.Verdict{
			{Check: finding.StructuredContent, Status: finding.Skipped, Message: "no output schema; structured content not required"},
			{Check: finding.OutputSchema, Status: finding.Skipped, Message: "no output schema"},
		}
	}
	sc := res["structuredContent"]
	if tooldef.Absent(sc) {
		return []finding.Verdict{
			{Check: finding.StructuredContent, Status: finding.Fail, Message: "Tool " + name + " has an output schema but did not return structured content"},
			{Check: finding.OutputSchema, Status: finding.Skipped, Message: "no structured content to check"},
		}
	}
	return []finding.Verdict{
		{Check: finding.StructuredContent, Status: finding.Pass, Message: "structured content present"},
		v.outputSchema(d.OutputSchema, sc),
	}
}

// Blocks reports whether verdicts stop a call from being sent: any
// [finding.Refused], or an [finding.InputSchema] [finding.Fail]. The user may override them and
// send the call anyway.
func Blocks(vs []finding.Verdict) bool {
	for _, v := range vs {
		if v.Status == finding.Refused || (v.Check == finding.InputSchema && v.Status == finding.Fail) {
			return true
		}
	}
	return false
}

// taskSupport judges execution.taskSupport: "required" refuses a plain call.
func taskSupport(name string, execution json.RawMessage) finding.Verdict {
	v := finding.Verdict{Check: finding.TaskSupport, Status: finding.Pass}
	var exec map[string]json.RawMessage
	if !tooldef.Absent(execution) {
		if err := json.Unmarshal(execution, &exec); err != nil {
			v.Message = "execution is not an object, so taskSupport is unknown; plain calls are allowed"
			return v
		}
	}
	raw := exec["taskSupport"]
	if tooldef.Absent(raw) {
		v.Message = "no execution.taskSupport; plain calls are allowed"
		return v
	}
	var ts string
	if err := json.Unmarshal(raw, &ts); err != nil {
		v.Message = fmt.Sprintf("taskSupport is %s, an unknown value; plain calls are allowed", compact(raw))
		return v
	}
	switch ts {
	case "required":
		v.Status = finding.Refused
		// The first sentence is the TypeScript SDK's own wording.
		v.Message = `Tool "` + name + `" requires task-based execution.` +
			" Clients refuse a plain tools/call of it."
	case "optional", "forbidden":
		v.Message = fmt.Sprintf("taskSupport is %q; plain calls are allowed", ts)
	default:
		v.Message = fmt.Sprintf("taskSupport is %q, an unknown value; plain calls are allowed", ts)
	}
	return v
}

// inputSchema checks the arguments against the tool's inputSchema.
func (v *Validator) inputSchema(schema, args json.RawMessage) finding.Verdict {
	if tooldef.Absent(schema) {
		return finding.Verdict{Check: finding.InputSchema, Status: finding.Skipped, Message: "no input schema"}
	}
	if len(bytes.TrimSpace(args)) == 0 {
		args = json.RawMessage(`{}`)
	}
	return v.verdict(finding.InputSchema, schema, args,
		"arguments match the input schema",
		"Arguments do not match the tool's input schema: ",
		"input schema unchecked: ")
}

// outputSchema checks structured content against the tool's outputSchema.
func (v *Validator) outputSchema(schema, structured json.RawMessage) finding.Verdict {
	return v.verdict(finding.OutputSchema, schema, structured,
		"structured content matches the output schema",
		// The TypeScript SDK's wording.
		"Structured content does not match the tool's output schema: ",
		"output schema unchecked: ")
}

// verdict validates instance against schema and words the outcome.
func (v *Validator) verdict(check string, schema, instance json.RawMessage, pass, fail, unchecked string) finding.Verdict {
	errs, err := v.Validate(schema, instance)
	if err != nil {
		reason := err.Error()
		if u, ok := errors.AsType[*UncheckedError](err); ok {
			reason = u.Reason
		}
		return finding.Verdict{Check: check, Status: finding.Unchecked, Message: unchecked + reason}
	}
	if len(errs) > 0 {
		return finding.Verdict{Check: check, Status: finding.Fail, Message: fail + summary(errs), Errors: errs}
	}
	return finding.Verdict{Check: check, Status: finding.Pass, Message: pass}
}

// summary words the first error and counts the rest:
// "/items/2/price: -1 should be at least 0 (and 2 more)".
func summary(errs []finding.SchemaError) string {
	e := errs[0]
	path := e.InstancePath
	if path == "" {
		path = "(root)"
	}
	s := path + ": " + e.Message
	if n := len(errs) - 1; n > 0 {
		s += fmt.Sprintf(" (and %d more)", n)
	}
	return s
}

// parseDef reads the parts of a tool definition the checks use. Only a
// definition that is not an object stops them: a name of the wrong type is
// [Validator.LintTool]'s finding, not a reason to leave a call unchecked.
func parseDef(def json.RawMessage) (tooldef.Definition, error) {
	d, err := tooldef.Parse(def)
	if errors.Is(err, tooldef.ErrNotObject) {
		return d, err
	}
	return d, nil
}

func notListed(check, name string) finding.Verdict {
	return finding.Verdict{Check: check, Status: finding.Skipped,
		Message: fmt.Sprintf("tool %q was not listed; there is no definition to check against", name)}
}

func unreadable(check string, err error) finding.Verdict {
	return finding.Verdict{Check: check, Status: finding.Unchecked, Message: err.Error()}
}

// compact returns raw JSON without insignificant space, for messages.
func compact(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	return b.String()
}
