package render

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"mcpwitness/checks"
	"mcpwitness/finding"
	"mcpwitness/fold"
	"mcpwitness/sanitize"
	"mcpwitness/themes"
)

// Whole is what an event opened whole shows besides the row itself.
type Whole struct {
	// Call is the call of a call row as the state keeps it (with its
	// arguments and answer), or nil for the row's own copy.
	Call *fold.Call
	// Tool is the definition the call was checked against, or nil.
	Tool *fold.Tool
	// Frames are the wire frames the event relates to, oldest first.
	Frames []*fold.Frame
	// Server names the server the event came from.
	Server string
	// Verdict, when not nil, is the one verdict of the row's call opened
	// whole (see [VerdictDoc]) instead of the call.
	Verdict *finding.Verdict
}

// maxWholeFrame is the most bytes of a related frame shown in full; a
// bigger one is shown as its row (the wire pane has it whole).
const maxWholeFrame = 16 << 10

// RowDoc builds the document of one event row opened whole: when and
// where it came from (server, request id), what it says in full (pretty
// JSON where it is JSON, wrapped text otherwise; a call with its verdicts
// and answer) and the wire frames it relates to. JSON keeps its lines
// whole: the view scrolls sideways.
func RowDoc(r *fold.Row, x Whole, w int, s *themes.Styles, loc *time.Location) []string {
	d := NewWideDoc(w, s)
	kind, _ := RowText(r)
	if x.Verdict != nil {
		kind = "verdict"
	}
	d.Add(s.Bold.Render(sanitize.Line(kind)) + "  " + s.Muted.Render(ClockMs(r.T, loc)))
	src := []string{"server " + OrDash(sanitize.Line(x.Server))}
	if r.Method != "" {
		src = append(src, "method "+sanitize.Line(r.Method))
	}
	if c := r.Call; c != nil && c.RequestID != "" {
		src = append(src, "request id "+sanitize.Line(strings.Trim(c.RequestID, `"`)))
	}
	if r.LogLevel != "" {
		src = append(src, "level "+sanitize.Line(r.LogLevel))
	}
	d.Text(s.Muted, strings.Join(src, " · "), 0)
	if r.Cut {
		d.Text(s.Warn, fmt.Sprintf("the event was cut to %s in memory; the session record keeps it whole", Size(fold.MaxRowText)), 0)
	}
	if x.Verdict != nil && r.Call != nil {
		verdictBody(d, r.Call, *x.Verdict, s)
	} else {
		rowBody(d, r, x, s, loc)
	}
	if len(x.Frames) > 0 {
		d.Heading(fmt.Sprintf("Wire frames (%d)", len(x.Frames)))
		for _, f := range x.Frames {
			dir := "→"
			if f.Dir == "recv" {
				dir = "←"
			}
			d.Add(s.Muted.Render(dir + " " + FrameRow(f, w, loc)))
			switch {
			case len(f.Frame) > 0 && len(f.Frame) <= maxWholeFrame:
				d.JSON(f.Frame, 2)
			case f.Text != "" && len(f.Text) <= maxWholeFrame:
				d.Text(s.Text, f.Text, 2)
			default:
				d.Text(s.Muted, "shown whole in the wire pane (w)", 2)
			}
		}
	}
	return d.Lines()
}

// rowBody adds what the row says, in full.
func rowBody(d *Doc, r *fold.Row, x Whole, s *themes.Styles, loc *time.Location) {
	switch {
	case r.Kind == fold.RowCall && r.Call != nil:
		c := r.Call
		if x.Call != nil {
			c = x.Call
		}
		d.Blank()
		for _, l := range CallDoc(c, x.Tool, d.width, s, loc, true, "") {
			d.Add(l)
		}
		return
	case r.Kind == fold.RowConnect && r.Server != nil:
		d.Heading("Server")
		if b, err := json.Marshal(r.Server); err == nil {
			d.JSON(b, 2)
		}
		return
	case r.Kind == fold.RowWalk && r.Walk != nil:
		d.Heading("Walk")
		d.Text(s.Text, walkRowText(r.Walk), 2)
		return
	case r.Kind == fold.RowFinding && r.Finding != nil:
		d.Heading("Finding")
		d.Text(s.Text, fmt.Sprintf("walk #%d %s: %s", r.Walk.ID, r.Finding.Check, r.Finding.Message), 2)
		return
	}
	if r.Text != "" {
		d.Heading("Text")
		if json.Valid([]byte(r.Text)) && strings.ContainsAny(r.Text, "{[") {
			d.JSON([]byte(r.Text), 2)
		} else {
			d.Text(s.Text, r.Text, 2)
		}
	}
	if len(r.Data) > 0 {
		d.Heading("Params")
		d.JSON(r.Data, 2)
	}
	if r.Text == "" && len(r.Data) == 0 {
		_, text := RowText(r)
		d.Blank()
		d.Text(s.Text, text, 2)
	}
}

// verdictBody adds one verdict of call c in full: its check and status,
// its message whole (wrapped), every schema error with its instance path
// and keyword, and the call it judged.
func verdictBody(d *Doc, c *fold.Call, v finding.Verdict, s *themes.Styles) {
	d.Heading("Verdict")
	st := statusStyle(v.Status, s)
	mark, label := VerdictMark(v.Status), string(v.Status)
	if c.Forced && checks.Blocks([]finding.Verdict{v}) {
		mark, label = "↷", overridden
	}
	d.Segs([]Seg{{Text: "  ", Plain: true}, {Text: mark + " " + label, Style: st}, {Text: "  ", Plain: true},
		{Text: v.Check, Style: s.Bold}}, 4)
	d.Text(s.Text, verdictText(v, c.Forced), 2)
	if len(v.Errors) > 0 {
		d.Heading(fmt.Sprintf("Paths (%d)", len(v.Errors)))
		for _, e := range v.Errors {
			d.Segs([]Seg{{Text: "  ", Plain: true}, {Text: PathOrRoot(e.InstancePath), Style: s.Warn}}, 4)
			d.Segs([]Seg{{Text: "    ", Plain: true}, {Text: e.Keyword + ": ", Style: s.Muted}, {Text: e.Message, Style: s.Text}}, 6)
		}
	}
	d.Heading("Call")
	d.Text(s.Text, fmt.Sprintf("#%d %s: %s", c.ID, c.Tool, CallSummary(c)), 2)
	if c.Generation > 0 {
		d.Text(s.Muted, fmt.Sprintf("checked against the definition from gen %d", c.Generation), 2)
	}
}
