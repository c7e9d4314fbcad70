package session

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mcpwitness/checks"
)

// ElicitAction is how the client answers elicitation/create without a
// person (--elicit).
type ElicitAction string

// The answers --elicit can give.
const (
	// ElicitDecline declines every request.
	ElicitDecline ElicitAction = "decline"
	// ElicitCancel cancels every request (dismissed without a choice).
	ElicitCancel ElicitAction = "cancel"
	// ElicitAcceptDefaults accepts with each requested property's default;
	// properties without one are left out.
	ElicitAcceptDefaults ElicitAction = "accept-defaults"
	// ElicitAcceptFile accepts with the content read from a file, checked
	// against the requested schema first.
	ElicitAcceptFile ElicitAction = "accept-file"
)

// ElicitAnswer is the client's headless answer to elicitation/create. A
// non-nil one in [Options] makes the client declare elicitation (form and
// URL mode: a URL request is declined or cancelled as the action says, and
// accepted by the accepting ones).
type ElicitAnswer struct {
	Action ElicitAction
	// Content is what [ElicitAcceptFile] accepts with; File names where it
	// came from.
	Content map[string]any
	File    string
}

// defaultDeclined is what the decline of an elicitation no --elicit
// answers says (see [Session.AnswerInputs]).
const defaultDeclined = "declined the server's elicitation (no --elicit given)"

// ParseElicit reads --elicit's value: decline, cancel, accept-defaults or
// @FILE, a JSON object to accept with.
func ParseElicit(v string) (*ElicitAnswer, error) {
	switch a := ElicitAction(v); a {
	case ElicitDecline, ElicitCancel, ElicitAcceptDefaults:
		return &ElicitAnswer{Action: a}, nil
	}
	file, ok := strings.CutPrefix(v, "@")
	if !ok || file == "" {
		return nil, fmt.Errorf("--elicit wants decline, cancel, accept-defaults or @FILE, not %q", v)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("--elicit @%s: %w", file, err)
	}
	var content map[string]any
	if err := json.Unmarshal(b, &content); err != nil || content == nil {
		if err == nil {
			err = fmt.Errorf("null")
		}
		return nil, fmt.Errorf("--elicit @%s is not a JSON object: %v", file, err)
	}
	return &ElicitAnswer{Action: ElicitAcceptFile, Content: content, File: file}, nil
}

// elicitAnswered is how the session answered one elicitation/create: the
// result, and what to say of it.
type elicitAnswered struct {
	res  *mcp.ElicitResult
	text string
}

// answerElicit answers p as a says (what the request did wrong is found
// by [Session.answerAsk]).
func (s *Session) answerElicit(a *ElicitAnswer, p *mcp.ElicitParams) elicitAnswered {
	if p == nil {
		p = &mcp.ElicitParams{}
	}
	if p.Mode == "url" {
		switch a.Action {
		case ElicitDecline, ElicitCancel:
			return elicitAnswered{res: &mcp.ElicitResult{Action: string(a.Action)}, text: string(a.Action) + " (URL mode)"}
		}
		// Accepting consents to visit the URL: headless, the person who
		// gave --elicit visits it; mcpwitness shows it and never opens it.
		return elicitAnswered{res: &mcp.ElicitResult{Action: "accept"}, text: "accept (URL mode): the URL is yours to open; mcpwitness does not open it headless"}
	}
	schema, _ := json.Marshal(p.RequestedSchema)
	var out elicitAnswered
	props, _ := checks.ElicitProperties(schema)
	switch a.Action {
	case ElicitDecline, ElicitCancel:
		out.res = &mcp.ElicitResult{Action: string(a.Action)}
		out.text = string(a.Action)
	case ElicitAcceptDefaults:
		content := map[string]any{}
		for name, prop := range props {
			if d, ok := prop["default"]; ok {
				var v any
				if json.Unmarshal(d, &v) == nil {
					content[name] = v
				}
			}
		}
		out.res = &mcp.ElicitResult{Action: "accept", Content: content}
		out.text = "accept with the defaults of " + FieldList(content)
	case ElicitAcceptFile:
		instance, _ := json.Marshal(a.Content)
		errs, err := s.validator.Validate(schema, instance)
		switch {
		case err != nil:
			out.res = &mcp.ElicitResult{Action: "decline"}
			out.text = fmt.Sprintf("decline: the requested schema could not be checked (%v), so %s was not sent", err, a.File)
		case len(errs) > 0:
			out.res = &mcp.ElicitResult{Action: "decline"}
			e := errs[0]
			at := e.InstancePath
			if at == "" {
				at = "(root)"
			}
			out.text = fmt.Sprintf("decline: %s does not match the requested schema: %s: %s", a.File, at, e.Message)
			if len(errs) > 1 {
				out.text += fmt.Sprintf(" (and %d more)", len(errs)-1)
			}
		default:
			out.res = &mcp.ElicitResult{Action: "accept", Content: a.Content}
			out.text = "accept with " + a.File + ": " + FieldList(a.Content)
		}
	}
	return out
}

// fieldList names content's fields in order, or says there are none.
func FieldList(content map[string]any) string {
	if len(content) == 0 {
		return "no fields"
	}
	names := make([]string, 0, len(content))
	for n := range content {
		names = append(names, n)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// LevelFinding is the Level of a [record.KindServerCall] event that says what a
// server's request did wrong.
const LevelFinding = "finding"
