package checks

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"mcpwitness/finding"
	"mcpwitness/tooldef"
)

// The check names of prompts/get.
const (
	// PromptArguments checks the arguments of a prompts/get against the
	// prompt's listed arguments before it is sent.
	PromptArguments = "prompt-arguments"
	// PromptMessages checks the messages of a GetPromptResult: each has a
	// role of "user" or "assistant" and one content block of a known type.
	PromptMessages = "prompt-messages"
)

// PromptArgument is one argument a prompt declares in prompts/list.
type PromptArgument struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}

// PromptArgumentsOf reads the arguments a raw prompt definition (one item
// of prompts/list) declares. A definition that is not an object, or whose
// arguments are not an array of objects, is an error naming what is wrong.
func PromptArgumentsOf(def json.RawMessage) ([]PromptArgument, error) {
	var d struct {
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := json.Unmarshal(def, &d); err != nil {
		return nil, fmt.Errorf("the prompt's definition is not a JSON object: %v", err)
	}
	if tooldef.Absent(d.Arguments) {
		return nil, nil
	}
	var args []PromptArgument
	if err := json.Unmarshal(d.Arguments, &args); err != nil {
		return nil, fmt.Errorf("the prompt's arguments are not an array of {name, required} objects: %v", err)
	}
	return args, nil
}

// BeforePrompt judges the arguments of a prompts/get of prompt name, whose
// definition def is the item prompts/list gave (nil when no walk listed
// it: the verdict is then [finding.Skipped]). A required argument that is missing
// refuses the request ([finding.Refused], which [Blocks]); the user may send it
// anyway. Arguments the prompt does not declare are allowed and named.
func BeforePrompt(name string, def json.RawMessage, args map[string]string) finding.Verdict {
	if tooldef.Absent(def) {
		return finding.Verdict{Check: PromptArguments, Status: finding.Skipped,
			Message: fmt.Sprintf("prompt %q was not listed; there are no arguments to check against", name)}
	}
	declared, err := PromptArgumentsOf(def)
	if err != nil {
		return finding.Verdict{Check: PromptArguments, Status: finding.Unchecked, Message: err.Error()}
	}
	var missing, known []string
	for _, a := range declared {
		known = append(known, a.Name)
		if _, ok := args[a.Name]; a.Required && !ok {
			missing = append(missing, a.Name)
		}
	}
	if len(missing) > 0 {
		var errs []finding.SchemaError
		for _, m := range missing {
			errs = append(errs, finding.SchemaError{InstancePath: "/" + m, Keyword: "required",
				Message: fmt.Sprintf("Missing required argument %q", m)})
		}
		return finding.Verdict{Check: PromptArguments, Status: finding.Refused, Errors: errs,
			Message: fmt.Sprintf("Prompt %q requires %s %s, which %s missing. Clients refuse a prompts/get without it.",
				name, plural(len(missing), "argument"), quoteAll(missing), isAre(len(missing)))}
	}
	var unknown []string
	for k := range args {
		if !slices.Contains(known, k) {
			unknown = append(unknown, k)
		}
	}
	slices.Sort(unknown)
	if len(unknown) > 0 {
		return finding.Verdict{Check: PromptArguments, Status: finding.Pass,
			Message: fmt.Sprintf("every required argument is given; %s %s not declared by the prompt",
				quoteAll(unknown), isAre(len(unknown)))}
	}
	return finding.Verdict{Check: PromptArguments, Status: finding.Pass, Message: "every required argument is given"}
}

// The roles and content types a prompt message may have (specification,
// server/prompts: PromptMessage).
var (
	promptRoles  = []string{"user", "assistant"}
	contentTypes = []string{"text", "image", "audio", "resource", "resource_link"}
)

// AfterPrompt judges a GetPromptResult (the raw JSON-RPC result): it must
// hold messages, each with a role of "user" or "assistant" and a content
// block of a known type carrying that type's required fields.
func AfterPrompt(result json.RawMessage) finding.Verdict {
	var res struct {
		Messages json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(result, &res); err != nil {
		return finding.Verdict{Check: PromptMessages, Status: finding.Fail, Message: "the result is not a JSON object"}
	}
	var msgs []json.RawMessage
	if tooldef.Absent(res.Messages) || json.Unmarshal(res.Messages, &msgs) != nil {
		return finding.Verdict{Check: PromptMessages, Status: finding.Fail, Message: "GetPromptResult must have messages, an array",
			Errors: []finding.SchemaError{{InstancePath: "/messages", Keyword: "required", Message: "messages is missing or not an array"}}}
	}
	var errs []finding.SchemaError
	for i, raw := range msgs {
		errs = append(errs, messageErrors(fmt.Sprintf("/messages/%d", i), raw)...)
	}
	if len(errs) > 0 {
		return finding.Verdict{Check: PromptMessages, Status: finding.Fail, Errors: errs,
			Message: "Prompt messages do not follow the specification: " + summary(errs)}
	}
	return finding.Verdict{Check: PromptMessages, Status: finding.Pass,
		Message: fmt.Sprintf("%s, each with a valid role and content", plural(len(msgs), "message"))}
}

// messageErrors checks one PromptMessage at path.
func messageErrors(path string, raw json.RawMessage) []finding.SchemaError {
	var m struct {
		Role    json.RawMessage `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return []finding.SchemaError{{InstancePath: path, Keyword: "type", Message: "a message must be an object"}}
	}
	var errs []finding.SchemaError
	var role string
	if json.Unmarshal(m.Role, &role) != nil || !slices.Contains(promptRoles, role) {
		errs = append(errs, finding.SchemaError{InstancePath: path + "/role", Keyword: "enum",
			Message: fmt.Sprintf("role is %s; it must be \"user\" or \"assistant\"", shown(m.Role))})
	}
	return append(errs, contentErrors(path+"/content", m.Content)...)
}

// contentErrors checks one content block at path: a known type and the
// fields that type requires.
func contentErrors(path string, raw json.RawMessage) []finding.SchemaError {
	var c map[string]json.RawMessage
	if tooldef.Absent(raw) || json.Unmarshal(raw, &c) != nil || c == nil {
		return []finding.SchemaError{{InstancePath: path, Keyword: "required", Message: "content must be an object"}}
	}
	var typ string
	if json.Unmarshal(c["type"], &typ) != nil || !slices.Contains(contentTypes, typ) {
		return []finding.SchemaError{{InstancePath: path + "/type", Keyword: "enum",
			Message: fmt.Sprintf("content type is %s; it must be one of %s", shown(c["type"]), strings.Join(contentTypes, ", "))}}
	}
	need := map[string][]string{
		"text": {"text"}, "image": {"data", "mimeType"}, "audio": {"data", "mimeType"},
		"resource": {"resource"}, "resource_link": {"uri", "name"},
	}[typ]
	var errs []finding.SchemaError
	for _, f := range need {
		if tooldef.Absent(c[f]) {
			errs = append(errs, finding.SchemaError{InstancePath: path + "/" + f, Keyword: "required",
				Message: fmt.Sprintf("%s content must have %s", typ, f)})
		}
	}
	if (typ == "image" || typ == "audio") && !tooldef.Absent(c["data"]) {
		if msg := base64Problem(c["data"]); msg != "" {
			errs = append(errs, finding.SchemaError{InstancePath: path + "/data", Keyword: "contentEncoding", Message: msg})
		}
	}
	return errs
}

// shown renders a raw value for a message: "missing" when absent.
func shown(raw json.RawMessage) string {
	if tooldef.Absent(raw) {
		return "missing"
	}
	return compact(raw)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// quoteAll quotes each name and joins them with commas.
func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}
