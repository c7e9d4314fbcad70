package checks

import (
	"encoding/json"
	"fmt"
	"mcpwitness/finding"
	"slices"
)

// The check names of the server's own requests.
const (
	// ElicitSchema checks an elicitation/create's requestedSchema: a flat
	// object of primitive properties, as the specification requires.
	ElicitSchema = "elicitation-schema"
	// SamplingMaxTokens checks that a sampling/createMessage bounds its
	// answer with maxTokens, which the specification requires.
	SamplingMaxTokens = "sampling-max-tokens"
)

// primitive reports whether t is a property type the specification allows
// in an elicitation's requestedSchema.
func primitive(t string) bool {
	switch t {
	case "string", "number", "integer", "boolean":
		return true
	}
	return false
}

// orAbsent shows a raw JSON value, or says it is absent.
func orAbsent(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "absent"
	}
	return string(raw)
}

// ElicitProperties reads a requestedSchema's properties by name and says,
// in Errors, each way it is not a flat object of primitive properties
// (multi-select enums, arrays of enum strings, are allowed).
func ElicitProperties(schema json.RawMessage) (map[string]map[string]json.RawMessage, finding.Verdict) {
	v := finding.Verdict{Check: ElicitSchema, Status: finding.Pass, Message: "a flat object of primitive properties"}
	fail := func(path, keyword, msg string) {
		v.Status = finding.Fail
		v.Errors = append(v.Errors, finding.SchemaError{InstancePath: path, Keyword: keyword, Message: msg})
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(schema, &top); err != nil || top == nil {
		fail("", "type", "it is not a JSON object")
		v.Message = "requestedSchema is not a flat object of primitive properties"
		return nil, v
	}
	var typ string
	if json.Unmarshal(top["type"], &typ) != nil || typ != "object" {
		fail("/type", "type", fmt.Sprintf("its type is %s, not \"object\"", orAbsent(top["type"])))
	}
	var raw map[string]json.RawMessage
	_ = json.Unmarshal(top["properties"], &raw)
	props := map[string]map[string]json.RawMessage{}
	names := make([]string, 0, len(raw))
	for name := range raw {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		at := "/properties/" + name
		var prop map[string]json.RawMessage
		if json.Unmarshal(raw[name], &prop) != nil || prop == nil {
			fail(at, "type", fmt.Sprintf("property %q is not a schema object", name))
			continue
		}
		props[name] = prop
		var pt string
		switch {
		case prop["type"] == nil:
			fail(at, "type", fmt.Sprintf("property %q has no type", name))
		case json.Unmarshal(prop["type"], &pt) == nil && primitive(pt):
		case pt == "array" && prop["items"] != nil:
			// Multi-select enums (an array of enum strings) are allowed.
		default:
			fail(at+"/type", "type", fmt.Sprintf("property %q has type %s, not a primitive", name, orAbsent(prop["type"])))
		}
	}
	if v.Status == finding.Fail {
		v.Message = "requestedSchema is not a flat object of primitive properties"
	}
	return props, v
}

// SamplingRequest checks a sampling/createMessage's params: maxTokens is
// present and positive. The Go SDK reads a missing maxTokens as 0, and 0
// is no bound either.
func SamplingRequest(params json.RawMessage) finding.Verdict {
	var f struct {
		MaxTokens *int64 `json:"maxTokens"`
	}
	_ = json.Unmarshal(params, &f)
	if f.MaxTokens == nil || *f.MaxTokens <= 0 {
		return finding.Verdict{Check: SamplingMaxTokens, Status: finding.Fail,
			Message: "sampling/createMessage has no maxTokens (required by the specification)",
			Errors:  []finding.SchemaError{{InstancePath: "/maxTokens", Keyword: "required", Message: "maxTokens is absent or not positive"}}}
	}
	return finding.Verdict{Check: SamplingMaxTokens, Status: finding.Pass, Message: fmt.Sprintf("maxTokens %d", *f.MaxTokens)}
}
