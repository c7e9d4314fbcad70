package replay

import (
	"fmt"
	"strings"

	"mcpwitness/record"
	"mcpwitness/sanitize"
)

// Describe says in a few words what ev was, for the status line, shown
// safely.
func Describe(ev record.Event) string { return sanitize.Line(describeRaw(ev)) }

func describeRaw(ev record.Event) string {
	switch ev.Kind {
	case record.KindWire:
		return describeWire(ev)
	case record.KindListRequest, record.KindPage, record.KindWalk:
		if s := describeWalk(ev); s != "" {
			return s
		}
	case record.KindCall, record.KindVerdict:
		if s := describeCall(ev); s != "" {
			return s
		}
	case record.KindRequest:
		if s := describeRequest(ev.Request); s != "" {
			return s
		}
	case record.KindNotification, record.KindServerCall:
		return strings.TrimPrefix(ev.Method, "notifications/")
	case record.KindConnect:
		return "connected"
	case record.KindClosed:
		return "session closed"
	case record.KindRestart:
		if ev.Text != "" {
			return ev.Text
		}
		return "restarting the server"
	}
	return string(ev.Kind)
}

// describeWire says a frame: its direction, method and id.
func describeWire(ev record.Event) string {
	dir := "→ "
	if ev.Dir == record.Recv {
		dir = "← "
	}
	what := ev.Method
	if what == "" {
		what = "answer"
	}
	if ev.ID != "" {
		what += " #" + strings.Trim(ev.ID, `"`)
	}
	return dir + what
}

// describeWalk says a walk's event, or "" when it lacks what it says.
func describeWalk(ev record.Event) string {
	switch ev.Kind {
	case record.KindListRequest:
		if ev.Page != nil && ev.Walk != nil {
			return fmt.Sprintf("walk #%d asks for page %d of %s", ev.Walk.ID, ev.Page.Number, ev.Method)
		}
	case record.KindPage:
		if ev.Page != nil && ev.Walk != nil {
			items := "items"
			if ev.Page.Count == 1 {
				items = "item"
			}
			return fmt.Sprintf("walk #%d: page %d arrived · %d %s", ev.Walk.ID, ev.Page.Number, ev.Page.Count, items)
		}
	case record.KindWalk:
		if w := ev.Walk; w != nil {
			if w.State == record.PhaseDone {
				return fmt.Sprintf("walk #%d of %s ended", w.ID, w.Method)
			}
			return fmt.Sprintf("walk #%d of %s started", w.ID, w.Method)
		}
	}
	return ""
}

// describeCall says a call's event, or "" when it lacks what it says.
func describeCall(ev record.Event) string {
	switch ev.Kind {
	case record.KindCall:
		if c := ev.Call; c != nil {
			if c.State == record.PhaseDone {
				return fmt.Sprintf("call #%d %s ended", c.ID, c.Tool)
			}
			return fmt.Sprintf("call #%d %s started", c.ID, c.Tool)
		}
	case record.KindVerdict:
		if v := ev.Verdict; v != nil && ev.Call != nil {
			return fmt.Sprintf("call #%d verdict: %s %s", ev.Call.ID, v.Check, v.Status)
		}
	}
	return ""
}

// describeRequest says a request's event: "resources/read demo://readme
// ended", or "" when it lacks what it says.
func describeRequest(r *record.RequestInfo) string {
	if r == nil || r.Method == "" {
		return ""
	}
	what := fmt.Sprintf("%s #%d", r.Method, r.ID)
	if r.About != "" {
		what += " " + r.About
	}
	switch r.State {
	case record.PhaseStart:
		return what + " started"
	case record.PhaseDone:
		return what + " ended"
	case record.PhaseVerdict:
		return what + " verdict"
	}
	return what
}
