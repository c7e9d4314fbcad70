package render

import (
	"encoding/json"
	"fmt"
	"strings"

	"mcpwitness/finding"
	"mcpwitness/fold"
)

// What is copied, as the status line names it.
const (
	CopyTool       = "tool definition"
	CopyInput      = "input schema"
	CopyOutput     = "output schema"
	CopyVerdicts   = "verdicts"
	CopyArgs       = "arguments"
	CopyResult     = "result"
	CopyStructured = "structuredContent"
	CopyError      = "error"
	CopyEvent      = "event"
	CopyURL        = "URL"
)

// Copy is a piece of what is on screen, as the clipboard gets it: plain
// text (pretty JSON where it is JSON), and what it is in a few words.
type Copy struct {
	What string
	Text string
}

// Pretty is raw indented when it is JSON, else as it is.
func Pretty(raw []byte) string { return pretty(raw) }

func pretty(raw []byte) string {
	if p, ok := PrettyJSON(raw); ok {
		return p
	}
	return string(raw)
}

// VerdictsText says verdicts in plain text, one per line, each schema
// error below its verdict with its instance path and keyword.
func VerdictsText(vs []finding.Verdict) string {
	var b strings.Builder
	for _, v := range vs {
		fmt.Fprintf(&b, "%s %s %s: %s\n", VerdictMark(v.Status), v.Status, v.Check, v.Message)
		for _, e := range v.Errors {
			fmt.Fprintf(&b, "    %s  %s: %s\n", PathOrRoot(e.InstancePath), e.Keyword, e.Message)
		}
	}
	return b.String()
}

// CopyVerdict is one verdict copied with its paths.
const CopyVerdict = "verdict"

// VerdictCopy is what y copies of one verdict of call c opened whole:
// the call in one line, then the verdict with each schema error's
// instance path and keyword.
func VerdictCopy(c *fold.Call, v finding.Verdict) Copy {
	return Copy{CopyVerdict, fmt.Sprintf("call #%d %s: %s\n", c.ID, c.Tool, CallSummary(c)) + VerdictsText([]finding.Verdict{v})}
}

// ToolCopy is what of tool t is copied with the section of its document
// in view (a heading of [ToolDoc], "" for its top): a schema, or the
// whole definition.
func ToolCopy(t *fold.Tool, section string) Copy {
	switch {
	case section == "Input schema" && !IsNull(t.Input):
		return Copy{CopyInput, pretty(t.Input)}
	case section == "Output schema" && !IsNull(t.Output):
		return Copy{CopyOutput, pretty(t.Output)}
	}
	return Copy{CopyTool, pretty(t.Raw)}
}

// CallCopy is what of call c is copied with the section of its document
// in view (a heading of [CallDoc], "" for its top): the verdicts, the
// arguments, the whole result, its structuredContent, or the error.
func CallCopy(c *fold.Call, section string) Copy {
	switch {
	case section == "Arguments" && len(c.Args) > 0:
		return Copy{CopyArgs, pretty(c.Args)}
	case section == "structuredContent":
		var r struct {
			Structured json.RawMessage `json:"structuredContent"`
		}
		if json.Unmarshal(c.Result, &r) == nil && !IsNull(r.Structured) {
			return Copy{CopyStructured, pretty(r.Structured)}
		}
	case (section == "Error" || section == "JSON-RPC error") && (c.Err != "" || len(c.RPCError) > 0):
		if c.Err != "" {
			return Copy{CopyError, c.Err}
		}
		return Copy{CopyError, pretty(c.RPCError)}
	case strings.HasPrefix(section, "Content") || section == "Result" || section == "_meta":
		if len(c.Result) > 0 {
			return Copy{CopyResult, pretty(c.Result)}
		}
	}
	if len(c.Verdicts) > 0 {
		return Copy{CopyVerdicts, fmt.Sprintf("call #%d %s: %s\n", c.ID, c.Tool, CallSummary(c)) + VerdictsText(c.Verdicts)}
	}
	if len(c.Result) > 0 {
		return Copy{CopyResult, pretty(c.Result)}
	}
	return Copy{CopyEvent, fmt.Sprintf("call #%d %s: %s", c.ID, c.Tool, CallSummary(c))}
}

// RowCopy is what of an event row is copied: the URL of an OAuth
// authorization step, a call's verdicts, else the event whole (its time
// is the caller's to add), its data pretty-printed.
func RowCopy(r *fold.Row) Copy {
	if u := urlIn(r.Text); u != "" && r.Kind == fold.RowOther {
		return Copy{CopyURL, u}
	}
	if r.Kind == fold.RowCall && r.Call != nil {
		return CallCopy(r.Call, "Verdicts")
	}
	kind, text := RowText(r)
	out := kind + " " + text
	if r.Kind == fold.RowNotify || r.Kind == fold.RowLog || r.Kind == fold.RowError || r.Kind == fold.RowServerCall || r.Kind == fold.RowOther {
		// The text whole, not on one line.
		out = kind + " " + r.Method
		if r.Text != "" {
			out += "\n" + pretty([]byte(r.Text))
		}
	}
	if len(r.Data) > 0 {
		out += "\n" + pretty(r.Data)
	}
	return Copy{CopyEvent, strings.TrimSpace(out)}
}

// urlIn returns the first http or https URL in text, or "".
func urlIn(text string) string {
	for _, scheme := range []string{"https://", "http://"} {
		if i := strings.Index(text, scheme); i >= 0 {
			u := text[i:]
			if j := strings.IndexAny(u, " \t\n\"'<>"); j >= 0 {
				u = u[:j]
			}
			return u
		}
	}
	return ""
}
