package render

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"charm.land/lipgloss/v2"

	"mcpwitness/finding"
	"mcpwitness/fold"
	"mcpwitness/sanitize"

	"mcpwitness/record"
	"mcpwitness/themes"
)

// RequestOptions says what a request's document may offer besides what
// happened. The zero value offers nothing (a replay).
type RequestOptions struct {
	// ForceKey names the key that sends a refused request anyway; ""
	// leaves the hint out.
	ForceKey string
}

// RequestDoc builds the document of one request other than a list or a
// tool call (resources/read, prompts/get, completion/complete, ping,
// logging/setLevel, resources/subscribe and unsubscribe): how it ended, its
// verdicts in the style of a call's, what the answer holds — contents,
// messages or completion values — and then what was asked. Prose wraps to
// w; JSON keeps its lines whole, for a view that scrolls sideways. opts
// may be nil.
func RequestDoc(r *fold.Request, w int, s *themes.Styles, loc *time.Location, opts *RequestOptions) []string {
	if opts == nil {
		opts = &RequestOptions{}
	}
	d := NewWideDoc(w, s)
	head := []Seg{{Text: r.Method, Style: s.Bold}}
	if r.About != "" {
		head = append(head, Seg{Text: "  " + r.About, Style: s.Text})
	}
	head = append(head, Seg{Text: "  " + ClockMs(r.Start, loc), Style: s.Muted})
	d.Segs(head, 4)
	requestOutcome(d, r, s, opts)
	var notes []string
	if r.Forced {
		notes = append(notes, "sent anyway, past a refusal")
	}
	if r.RequestID != "" {
		notes = append(notes, "JSON-RPC id "+r.RequestID)
	}
	if len(notes) > 0 {
		d.Text(s.Muted, strings.Join(notes, " · "), 0)
	}
	for _, f := range r.Findings {
		d.Text(s.BadgeStale, f.Message, 0)
	}
	verdictsSection(d, r.Verdicts, r.Forced, s)
	if r.Err != "" && r.Sent {
		d.Heading("Error")
		d.Text(s.Fail, r.Err, 2)
	}
	if len(r.RPCError) > 0 {
		d.Heading("JSON-RPC error")
		d.JSON(r.RPCError, 2)
	}
	// The answer before what was asked: on a small screen a prompt's
	// messages or a resource's contents start above the fold.
	if !IsNull(r.Result) {
		requestResult(d, r, s)
	}
	if !IsNull(r.Params) {
		d.Heading("Asked")
		d.JSON(r.Params, 2)
	}
	return d.Lines()
}

// RequestSummary says in a few words how a request ended: "✓ answered · 3.2 ms",
// "✗ resource-contents · 3.2 ms", "⊘ refused · nothing sent". What came
// from the server in it is shown visibly (see [sanitize.Line]).
func RequestSummary(r *fold.Request) string {
	return sanitize.Line(requestSummary(r))
}

func requestSummary(r *fold.Request) string {
	switch {
	case !r.Done:
		return "waiting"
	case !r.Sent && r.Err != "":
		return "✗ not sent: " + r.Err
	case !r.Sent:
		return "⊘ refused · nothing sent"
	case r.Cancelled:
		return "cancelled after " + Ms(r.Ms)
	case r.Err != "":
		return "✗ " + r.Err
	case len(r.RPCError) > 0:
		return "✗ JSON-RPC error " + rpcErrorText(r.RPCError) + " · " + Ms(r.Ms)
	}
	word := "✓ answered"
	var fails []string
	for _, v := range r.Verdicts {
		if v.Status == finding.Fail || v.Status == finding.Unchecked {
			fails = append(fails, VerdictMark(v.Status)+" "+v.Check)
		}
	}
	if len(fails) > 0 {
		word = strings.Join(fails, " ")
	}
	if r.Forced {
		word = "sent anyway · " + word
	}
	return word + " · " + Ms(r.Ms)
}

// requestOutcome says how the request ended, or that it has not.
func requestOutcome(d *Doc, r *fold.Request, s *themes.Styles, opts *RequestOptions) {
	switch {
	case !r.Done:
		d.Text(s.Muted, "waiting for the answer…", 0)
	case !r.Sent && r.Err == "":
		d.Text(s.Warn, "⊘ Refused before sending: nothing was sent to the server (the wire pane shows no "+r.Method+" for it).", 0)
		if opts.ForceKey != "" {
			d.Text(s.Muted, opts.ForceKey+" sends it anyway, deliberately, to see the server's own answer.", 0)
		}
	case r.Cancelled:
		d.Text(s.Warn, "⨯ Cancelled after "+Ms(r.Ms)+": notifications/cancelled was sent to the server.", 0)
	default:
		d.Text(requestStyle(r, s), RequestSummary(r), 0)
	}
}

// requestStyle is the style of a finished request's summary, by its
// [fold.Request.Level].
func requestStyle(r *fold.Request, s *themes.Styles) lipgloss.Style {
	switch r.Level() {
	case fold.LevelError:
		return s.Fail
	case fold.LevelWarn:
		return s.Warn
	}
	return s.Pass
}

// requestResult adds what the answer holds, by method.
func requestResult(d *Doc, r *fold.Request, s *themes.Styles) {
	switch r.Method {
	case record.MethodRead:
		d.Contents(r.Result)
	case record.MethodGetPrompt:
		d.PromptMessages(r.Result)
	case record.MethodComplete:
		d.Completion(r.Result)
	default:
		d.Heading("Result")
		if strings.TrimSpace(string(r.Result)) == "{}" {
			d.Text(s.Muted, "empty, as the specification asks", 2)
			return
		}
		d.JSON(r.Result, 2)
	}
}

// Completion adds what a completion/complete result holds: its values,
// then total and hasMore.
func (d *Doc) Completion(result json.RawMessage) {
	var r struct {
		Completion *struct {
			Values  []json.RawMessage `json:"values"`
			Total   *int64            `json:"total"`
			HasMore *bool             `json:"hasMore"`
		} `json:"completion"`
	}
	if err := json.Unmarshal(result, &r); err != nil || r.Completion == nil {
		d.Heading("Result")
		why := "no completion object"
		if err != nil {
			why = err.Error()
		}
		d.Text(d.st.Warn, "not a completion/complete result: "+why, 2)
		d.JSON(result, 2)
		return
	}
	c := r.Completion
	d.Heading(fmt.Sprintf("Values (%d)", len(c.Values)))
	if len(c.Values) == 0 {
		d.Text(d.st.Muted, "no values", 2)
	}
	for _, raw := range c.Values {
		var v string
		if json.Unmarshal(raw, &v) != nil {
			d.Segs([]Seg{{Text: "  ", Plain: true}, {Text: string(raw), Style: d.st.Warn}, {Text: "  not a string", Style: d.st.Muted}}, 4)
			continue
		}
		d.Segs([]Seg{{Text: "  ", Plain: true}, {Text: v, Style: d.st.Text}}, 4)
	}
	total, more := "–", "–"
	if c.Total != nil {
		total = strconv.FormatInt(*c.Total, 10)
	}
	if c.HasMore != nil {
		more = strconv.FormatBool(*c.HasMore)
	}
	d.Blank()
	d.Add(d.st.Muted.Render("total ") + d.st.Text.Render(total) + d.st.Muted.Render(" · hasMore ") + d.st.Text.Render(more))
}
