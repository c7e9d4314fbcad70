package render

import (
	"fmt"
	"strings"

	"mcpwitness/fold"
	"mcpwitness/paging"
	"mcpwitness/sanitize"
)

// RowText says a row of the events pane in its two columns, kind and text;
// server text shown safely, on one line.
func RowText(r *fold.Row) (kind, text string) {
	switch r.Kind {
	case fold.RowConnect:
		srv := r.Server
		protocol := OrDash(srv.ProtocolVersion)
		if srv.AskedProtocol != "" {
			protocol += " (asked for " + srv.AskedProtocol + ")"
		}
		return "session", rowLine(fmt.Sprintf("connected to %s %s · protocol %s · %s",
			OrDash(srv.Name), srv.Version, protocol, OrDash(srv.Transport)), false)
	case fold.RowInstructions:
		return "session", rowLine("instructions: "+r.Text, r.Cut)
	case fold.RowStderr:
		return "stderr", rowLine(r.Text, r.Cut)
	case fold.RowLog:
		return sanitize.Line("log " + ShortLevel(r.LogLevel)), rowLine(r.Text, r.Cut)
	case fold.RowToolsChanged:
		text = "tools/list_changed"
		if r.Walk != nil {
			text += fmt.Sprintf(" → walk #%d", r.Walk.ID)
		}
		return "change", text
	case fold.RowChanged:
		return "change", rowLine(strings.TrimPrefix(r.Method, "notifications/"), false)
	case fold.RowNotify:
		return "notify", notifyRowText(r)
	case fold.RowWalk:
		return "walk", walkRowText(r.Walk)
	case fold.RowFinding:
		return "walk", rowLine(fmt.Sprintf("walk #%d %s: %s", r.Walk.ID, r.Finding.Check, r.Finding.Message), false)
	case fold.RowCall:
		return "call", rowLine(fmt.Sprintf("call #%d %s: %s", r.Call.ID, r.Call.Tool, CallSummary(r.Call)), false)
	case fold.RowServerCall:
		return "server", rowLine(r.Method+": "+r.Text, r.Cut)
	case fold.RowError:
		return "error", errorRowText(r)
	case fold.RowClosed:
		return "session", rowLine(OrDash(r.Text), r.Cut)
	case fold.RowFile:
		return "file", rowLine(r.Text, r.Cut)
	}
	return sanitize.Line(r.Method), rowLine(r.Text, r.Cut)
}

// notifyRowText says a notification: its method, then its text or data.
func notifyRowText(r *fold.Row) string {
	text := strings.TrimPrefix(r.Method, "notifications/")
	if r.Text != "" {
		text += ": " + r.Text
	} else if len(r.Data) > 0 && string(r.Data) != "{}" {
		text += " " + string(r.Data)
	}
	return rowLine(text, r.Cut)
}

// errorRowText says an error, after the method it came from.
func errorRowText(r *fold.Row) string {
	what := r.Text
	if r.Method != "" && !strings.HasPrefix(what, r.Method) {
		what = r.Method + ": " + what
	}
	return rowLine(what, r.Cut)
}

// walkRowText says how a walk ended.
func walkRowText(w *fold.WalkRow) string {
	text := fmt.Sprintf("walk #%d %s: %s · %d %s · %s", w.ID, w.Method, WalkEnd(w.Pages, w.Incomplete), w.Items, Plural(w.Items, "item", "items"), Ms(w.Ms))
	if w.AfterChange {
		text += " (after list_changed)"
	}
	if w.Incomplete != paging.Complete && w.Err != "" {
		text += " · " + w.Err
	}
	return rowLine(text, false)
}

// rowLine is text on one line, shown safely, at most [fold.MaxRowText]
// bytes; cut says the fold already cut it.
func rowLine(text string, cut bool) string {
	text = OneLine(text)
	if len(text) > fold.MaxRowText {
		return strings.ToValidUTF8(text[:fold.MaxRowText], "") + " …"
	}
	if cut && !strings.HasSuffix(text, " …") {
		text += " …"
	}
	return text
}
