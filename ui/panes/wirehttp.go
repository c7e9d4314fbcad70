package panes

import (
	"mime"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"mcpwitness/record"
	"mcpwitness/render"
	"mcpwitness/sanitize"
	"mcpwitness/session"
	"mcpwitness/themes"
)

// minHTTPCols is the narrowest wire list that still shows a frame's HTTP
// exchange beside it.
const minHTTPCols = 80

// bodyKind names what an HTTP response carried: JSON, SSE (an event
// stream), or the media type itself; "" when there was no body type.
func bodyKind(contentType string) string {
	mt, _, err := mime.ParseMediaType(contentType)
	switch {
	case contentType == "":
		return ""
	case err != nil:
		return sanitize.Line(contentType)
	case mt == "application/json":
		return "JSON"
	case mt == "text/event-stream":
		return "SSE"
	}
	return sanitize.Line(mt)
}

// httpCols says a frame's exchange in a few cells: status · ms · JSON or
// SSE · the session id short; "" without one.
func httpCols(h *record.HTTPInfo) string {
	if h == nil {
		return ""
	}
	parts := make([]string, 0, 4)
	if h.Status != 0 {
		parts = append(parts, strconv.Itoa(h.Status))
	} else {
		parts = append(parts, "failed")
	}
	parts = append(parts, render.Ms(h.Ms))
	if k := bodyKind(h.ContentType); k != "" {
		parts = append(parts, render.Trunc(k, 16))
	}
	if h.SessionID != "" {
		parts = append(parts, sanitize.Line(session.ShortSessionID(h.SessionID)))
	}
	return strings.Join(parts, " · ")
}

// withHTTP is a wire list row's text for width cells with the frame's
// exchange at its end, when there is one and room for it.
func withHTTP(h *record.HTTPInfo, width int, row func(width int) string) string {
	cols := httpCols(h)
	if cols == "" || width < minHTTPCols {
		return row(width)
	}
	cw := ansi.StringWidth(cols)
	text := row(width - cw - 2)
	// The row is drawn after its direction mark: 3 cells.
	if pad := width - 3 - cw - 2 - ansi.StringWidth(text); pad > 0 {
		text += strings.Repeat(" ", pad)
	}
	return text + "  " + cols
}

// httpLines are the head of a frame's document: every part of its HTTP
// exchange, as the server sent it (shown safely), with the target's
// secrets already replaced by the session.
func httpLines(h *record.HTTPInfo, w int, s *themes.Styles) []string {
	if h == nil {
		return nil
	}
	head := "HTTP " + h.Method + " " + sanitize.Line(h.URL)
	if h.Status != 0 {
		head += " → " + strconv.Itoa(h.Status)
	}
	head += " in " + render.Ms(h.Ms)
	lines := []string{render.Fit(s.Muted.Render(head), w)}
	field := func(name, value string) {
		if value != "" {
			lines = append(lines, render.Fit("  "+s.Subtle.Render(name+": ")+s.Text.Render(sanitize.Line(value)), w))
		}
	}
	ct := h.ContentType
	if k := bodyKind(ct); k == "JSON" || k == "SSE" {
		ct += " (" + k + ")"
	}
	field("Mcp-Session-Id", h.SessionID)
	field("Content-Type", ct)
	field("Retry-After", h.RetryAfter)
	field("WWW-Authenticate", h.WWWAuthenticate)
	field("Error", h.Error)
	return append(lines, "")
}
