package render

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"mcpwitness/checks"
	"mcpwitness/finding"
	"mcpwitness/fold"
	"mcpwitness/sanitize"
	"mcpwitness/themes"
)

// CallDoc builds the document of one call: its outcome, verdicts,
// arguments and what the server answered. Prose wraps to w; JSON keeps
// its lines whole, for a view that scrolls sideways.
//
// readOnly leaves out what needs a live server; missing says what of the
// call could not be read back from the session file.
func CallDoc(c *fold.Call, t *fold.Tool, w int, s *themes.Styles, loc *time.Location, readOnly bool, missing string) []string {
	lines, _ := CallDocSpans(c, t, w, s, loc, readOnly, missing)
	return lines
}

// VerdictSpan is where one verdict stands in a call's document: Index is
// its place in the call's Verdicts, its lines run from From up to To.
type VerdictSpan struct {
	Index    int
	From, To int
}

// CallDocSpans is [CallDoc] that also says where each verdict's lines
// are, in the order the document shows them (failures first).
func CallDocSpans(c *fold.Call, t *fold.Tool, w int, s *themes.Styles, loc *time.Location, readOnly bool, missing string) ([]string, []VerdictSpan) {
	d := NewWideDoc(w, s)
	d.spans = []VerdictSpan{}
	d.Add(s.Bold.Render(sanitize.Line(c.Tool)) + "  " + s.Muted.Render(Clock(c.Start, loc)))
	callOutcome(d, c, s, readOnly)
	callNotes(d, c, s, missing)
	verdictsSection(d, c.Verdicts, c.Forced, s)
	if c.Err != "" {
		d.Heading("Error")
		d.Text(s.Fail, c.Err, 2)
	}
	if len(c.RPCError) > 0 {
		d.Heading("JSON-RPC error")
		d.JSON(c.RPCError, 2)
	}
	if len(c.Args) > 0 {
		d.Heading("Arguments")
		d.JSON(c.Args, 2)
	}
	if len(c.Result) > 0 {
		resultLines(d, c.Result, s)
	}
	return d.Lines(), d.spans
}

// callOutcome says how the call ended, or that it has not.
func callOutcome(d *Doc, c *fold.Call, s *themes.Styles, readOnly bool) {
	o := c.Outcome()
	switch o {
	case fold.OutcomeRunning:
		d.Text(s.Muted, "waiting for the answer…", 0)
	case fold.OutcomeRefused:
		d.Text(s.Warn, "⊘ Refused before sending: nothing was sent to the server (the wire pane shows no tools/call for it).", 0)
		if !readOnly {
			d.Text(s.Muted, "f sends it anyway, deliberately, to see the server's own answer (asks first).", 0)
			if !c.AsTask && refusedAsPlain(c) {
				d.Text(s.Muted, "T runs it as a task, as its taskSupport asks.", 0)
			}
		}
	case fold.OutcomeCancelled:
		d.Text(s.Warn, fmt.Sprintf("⨯ Cancelled after %s: notifications/cancelled was sent to the server.", Ms(c.Ms)), 0)
	default:
		d.Text(outcomeStyle(o, s), CallSummary(c), 0)
	}
}

// refusedAsPlain says c was refused because its tool requires a task.
func refusedAsPlain(c *fold.Call) bool {
	for _, v := range c.Verdicts {
		if v.Check == finding.TaskSupport && v.Status == finding.Refused {
			return true
		}
	}
	return false
}

// callNotes says what else is known of the call: the definition it was
// checked against, whether it was forced, stale or dropped, and what could
// not be read back.
func callNotes(d *Doc, c *fold.Call, s *themes.Styles, missing string) {
	var notes []string
	if c.Generation > 0 {
		notes = append(notes, fmt.Sprintf("checked against the definition from gen %d", c.Generation))
	}
	if !c.Listed && c.Done {
		notes = append(notes, "not listed by any walk: definition checks skipped")
	}
	if c.Forced {
		notes = append(notes, "sent anyway, past a refusal")
	}
	if len(notes) > 0 {
		d.Text(s.Muted, strings.Join(notes, " · "), 0)
	}
	switch {
	case c.Stale:
		d.Text(s.BadgeStale, "stale: a later listing changed this tool's definition during the call", 0)
	case c.ListChanged:
		d.Text(s.BadgeStale, "the server said its tool list changed after the listing checked against, before the answer: the definition may be stale", 0)
	}
	if c.ListedDuring {
		d.Text(s.Warn, "a list request was out while this call was in flight: a typical client would not have held its checks", 0)
	}
	if c.Dropped {
		d.Text(s.Muted, "its arguments and answer are no longer kept in memory (a long session keeps the newest); the session record has them", 0)
	}
	if missing != "" {
		d.Text(s.Warn, "✗ "+missing, 0)
	}
}

// verdictsSection lists the checks' verdicts, a call's or any other
// request's: what failed first, then what passed or was skipped.
func verdictsSection(d *Doc, vs []finding.Verdict, forced bool, s *themes.Styles) {
	if len(vs) == 0 {
		return
	}
	d.Heading("Verdicts")
	width := 0
	for _, v := range vs {
		width = max(width, len(v.Check))
	}
	for _, quiet := range []bool{false, true} {
		for i, v := range vs {
			if (v.Status == finding.Pass || v.Status == finding.Skipped) == quiet {
				from := len(d.lines)
				verdictLines(d, v, forced, width, s)
				if d.spans != nil {
					d.spans = append(d.spans, VerdictSpan{Index: i, From: from, To: len(d.lines)})
				}
			}
		}
	}
}

func outcomeStyle(o fold.Outcome, s *themes.Styles) lipgloss.Style {
	switch o {
	case fold.OutcomePass:
		return s.Pass
	case fold.OutcomeFail, fold.OutcomeError:
		return s.Fail
	case fold.OutcomeIsError, fold.OutcomeUnchecked, fold.OutcomeRefused, fold.OutcomeCancelled:
		return s.Warn
	}
	return s.Text
}

func statusStyle(st finding.Status, s *themes.Styles) lipgloss.Style {
	switch st {
	case finding.Pass:
		return s.Pass
	case finding.Fail:
		return s.Fail
	case finding.Refused, finding.Unchecked:
		return s.Warn
	}
	return s.Muted
}

// verdictLines adds one verdict: its mark, check and message, then each
// schema error with its instance path. In a forced call, a verdict that
// blocked sending is shown overridden.
func verdictLines(d *Doc, v finding.Verdict, forced bool, width int, s *themes.Styles) {
	st := statusStyle(v.Status, s)
	mark, label := VerdictMark(v.Status), string(v.Status)
	v.Message = verdictText(v, forced)
	if forced && checks.Blocks([]finding.Verdict{v}) {
		mark, label = "↷", overridden
	}
	head := []Seg{
		{Text: "  ", Plain: true},
		{Text: mark + " " + label, Style: st},
		{Text: strings.Repeat(" ", max(10-len(label), 1)), Plain: true},
		{Text: v.Check, Style: s.Bold},
	}
	// The message goes on the same line when it fits there whole, else
	// below, indented.
	quiet := v.Status == finding.Pass || v.Status == finding.Skipped
	style := s.Text
	if quiet {
		style = s.Muted
	}
	switch room := d.width - (14 + width + 2); {
	case ansi.StringWidth(v.Message) <= room:
		head = append(head, Seg{Text: strings.Repeat(" ", width-len(v.Check)+2), Plain: true}, Seg{Text: v.Message, Style: style})
		d.Segs(head, 0)
	default:
		// Never cut: a message that does not fit goes below, wrapped.
		d.Segs(head, 0)
		d.Text(style, v.Message, 6)
	}
	pw := 0
	for _, e := range v.Errors {
		pw = max(pw, len(PathOrRoot(e.InstancePath)))
	}
	pw = min(pw, 24)
	for _, e := range v.Errors {
		p := PathOrRoot(e.InstancePath)
		if len(p) < pw {
			p += strings.Repeat(" ", pw-len(p))
		}
		d.Segs([]Seg{
			{Text: "      ", Plain: true},
			{Text: p + "  ", Style: s.Warn},
			{Text: e.Keyword + ": ", Style: s.Muted},
			{Text: e.Message, Style: s.Text},
		}, 8+pw)
	}
}

// resultLines adds what a tools/call result holds.
func resultLines(d *Doc, raw json.RawMessage, s *themes.Styles) {
	var r struct {
		Content    []json.RawMessage `json:"content"`
		Structured json.RawMessage   `json:"structuredContent"`
		IsError    *bool             `json:"isError"`
		Meta       json.RawMessage   `json:"_meta"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		d.Heading("Result")
		d.JSON(raw, 2)
		return
	}
	d.Blank()
	isErr := r.IsError != nil && *r.IsError
	if isErr {
		d.Add(s.Bold.Render("isError ") + s.Warn.Render("true") + s.Muted.Render(" · the tool reports a failure of its own"))
	} else {
		d.Add(s.Bold.Render("isError ") + s.Muted.Render("false"))
	}
	d.Heading(fmt.Sprintf("Content (%d)", len(r.Content)))
	if len(r.Content) == 0 {
		d.Text(s.Muted, "no content blocks", 2)
	}
	for _, c := range r.Content {
		contentLines(d, c, s)
	}
	d.Heading("structuredContent")
	if IsNull(r.Structured) {
		d.Text(s.Muted, "none", 2)
	} else {
		d.JSON(r.Structured, 2)
	}
	if !IsNull(r.Meta) {
		d.Heading("_meta")
		d.JSON(r.Meta, 2)
	}
}

// contentLines adds one content block.
func contentLines(d *Doc, raw json.RawMessage, s *themes.Styles) {
	var b struct {
		Type     string          `json:"type"`
		Text     string          `json:"text"`
		MimeType string          `json:"mimeType"`
		Data     string          `json:"data"`
		URI      string          `json:"uri"`
		Name     string          `json:"name"`
		Resource json.RawMessage `json:"resource"`
	}
	if json.Unmarshal(raw, &b) != nil {
		d.JSON(raw, 2)
		return
	}
	label := s.Info.Render(sanitize.Line(b.Type))
	switch b.Type {
	case "text":
		d.Add("  " + label)
		d.Text(s.Text, b.Text, 4)
	case "image", "audio":
		d.Add("  " + label + "  " + s.Muted.Render(fmt.Sprintf("%s · %s base64", OrDash(sanitize.Line(b.MimeType)), Size(len(b.Data)))))
	case "resource_link":
		d.Add("  " + label + "  " + s.Text.Render(sanitize.Line(b.URI)) + "  " + s.Muted.Render(sanitize.Line(b.Name)))
	default:
		d.Add("  " + label)
		d.JSON(raw, 4)
	}
}

// overridden is the status shown for a verdict that refused a call the
// user then sent anyway.
const overridden = "overridden"

// flagMention is a command-line flag named in a message, e.g. " (--force)":
// the UI names its own keys instead.
var flagMention = regexp.MustCompile(`\s*\(--[a-z][a-z-]*\)`)

// verdictText is a verdict's message as the UI says it. A refusal keeps its
// first sentence (the TypeScript SDK's wording) and says what happened
// next: in a forced call it was sent anyway; otherwise the call's screen
// says which key sends it. No message names a command-line flag.
func verdictText(v finding.Verdict, forced bool) string {
	msg := flagMention.ReplaceAllString(v.Message, "")
	if v.Status == finding.Refused {
		msg = firstSentence(msg)
		if forced {
			msg += " Refused, then sent anyway as asked."
		}
	} else if forced && checks.Blocks([]finding.Verdict{v}) {
		msg += " Sent anyway as asked."
	}
	return msg
}

// firstSentence cuts msg after its first sentence, looking past a quoted
// name (which may hold a full stop).
func firstSentence(msg string) string {
	from := 0
	if i := strings.IndexByte(msg, '"'); i >= 0 {
		if j := strings.IndexByte(msg[i+1:], '"'); j >= 0 {
			from = i + 1 + j + 1
		}
	}
	if k := strings.Index(msg[from:], ". "); k >= 0 {
		return msg[:from+k+1]
	}
	return msg
}

// PathOrRoot names an instance path, "(root)" for the empty one.
func PathOrRoot(p string) string {
	if p == "" {
		return "(root)"
	}
	return p
}
