package replay

import (
	"fmt"
	"strings"

	"mcpwitness/sanitize"
	"mcpwitness/session"
)

// Describe says in a few words what ev was, for the status line, shown
// safely.
func Describe(ev session.Event) string { return sanitize.Line(describeRaw(ev)) }

func describeRaw(ev session.Event) string {
	switch ev.Kind {
	case session.KindWire:
		return describeWire(ev)
	case session.KindListRequest, session.KindPage, session.KindWalk:
		if s := describeWalk(ev); s != "" {
			return s
		}
	case session.KindCall, session.KindVerdict:
		if s := describeCall(ev); s != "" {
			return s
		}
	case session.KindRequest:
		if s := describeRequest(ev.Request); s != "" {
			return s
		}
	case session.KindNotification, session.KindServerCall:
		return strings.TrimPrefix(ev.Method, "notifications/")
	case session.KindConnect:
		return "connected"
	case session.KindClosed:
		return "session closed"
	case session.KindRestart:
		if ev.Text != "" {
			return ev.Text
		}
		return "restarting the server"
	}
	return string(ev.Kind)
}

// describeWire says a frame: its direction, method and id.
func describeWire(ev session.Event) string {
	dir := "→ "
	if ev.Dir == session.Recv {
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
func describeWalk(ev session.Event) string {
	switch ev.Kind {
	case session.KindListRequest:
		if ev.Page != nil && ev.Walk != nil {
			return fmt.Sprintf("walk #%d asks for page %d of %s", ev.Walk.ID, ev.Page.Number, ev.Method)
		}
	case session.KindPage:
		if ev.Page != nil && ev.Walk != nil {
			items := "items"
			if ev.Page.Count == 1 {
				items = "item"
			}
			return fmt.Sprintf("walk #%d: page %d arrived · %d %s", ev.Walk.ID, ev.Page.Number, ev.Page.Count, items)
		}
	case session.KindWalk:
		if w := ev.Walk; w != nil {
			if w.State == session.PhaseDone {
				return fmt.Sprintf("walk #%d of %s ended", w.ID, w.Method)
			}
			return fmt.Sprintf("walk #%d of %s started", w.ID, w.Method)
		}
	}
	return ""
}

// describeCall says a call's event, or "" when it lacks what it says.
func describeCall(ev session.Event) string {
	switch ev.Kind {
	case session.KindCall:
		if c := ev.Call; c != nil {
			if c.State == session.PhaseDone {
				return fmt.Sprintf("call #%d %s ended", c.ID, c.Tool)
			}
			return fmt.Sprintf("call #%d %s started", c.ID, c.Tool)
		}
	case session.KindVerdict:
		if v := ev.Verdict; v != nil && ev.Call != nil {
			return fmt.Sprintf("call #%d verdict: %s %s", ev.Call.ID, v.Check, v.Status)
		}
	}
	return ""
}

// describeRequest says a request's event: "resources/read demo://readme
// ended", or "" when it lacks what it says.
func describeRequest(r *session.RequestInfo) string {
	if r == nil || r.Method == "" {
		return ""
	}
	what := fmt.Sprintf("%s #%d", r.Method, r.ID)
	if r.About != "" {
		what += " " + r.About
	}
	switch r.State {
	case session.PhaseStart:
		return what + " started"
	case session.PhaseDone:
		return what + " ended"
	case session.PhaseVerdict:
		return what + " verdict"
	}
	return what
}
