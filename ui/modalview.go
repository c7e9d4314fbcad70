package ui

import (
	"encoding/json"
	"fmt"
	"mcpwitness/ui/panes"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"mcpwitness/render"
	"mcpwitness/sanitize"
	"mcpwitness/session/oauth"
)

// The modal's drawing: a bordered box over the middle of the screen.

// boxSize is the modal's outer size on a w×h screen.
func boxSize(w, h int) (bw, bh int) { return max(min(w-4, 100), 20), max(h-4, 8) }

// innerW is the width inside the modal's border and padding.
func (a *askModal) innerW() int { bw, _ := boxSize(a.w, a.h); return bw - 4 }

// innerH is the height inside the modal's border.
func (a *askModal) innerH() int { _, bh := boxSize(a.w, a.h); return bh - 2 }

// headRows are the rows above a request's own part: its title, who asked,
// a blank.
const headRows = 3

// formHeight is the rows an elicitation's form may take.
func (a *askModal) formHeight() int { return max(a.innerH()-headRows-2, 4) }

// replyRows is the height of a sampling reply's input.
const replyRows = 4

// resize fits the modal to a w×h screen: the form, the reply and the
// request's window.
func (a *askModal) resize(w, h int) {
	a.w, a.h = w, h
	iw := a.innerW()
	r := a.current()
	switch {
	case r == nil:
	case r.kind == askForm:
		a.form.SetSize(iw, a.formHeight())
	case r.kind == askSampling:
		a.reply.SetWidth(iw)
		a.reply.SetHeight(replyRows)
		a.path.SetWidth(max(iw-8, 8))
		// Title, who asked, blank; the reply's label, input, note and keys.
		a.sc.SetSize(iw, max(a.innerH()-headRows-replyRows-3, 2))
		a.sc.SetLines(samplingLines(r.params, iw, a))
	}
}

// view draws the modal's box.
func (m *model) askView() string {
	a, s := &m.ask, m.Sty
	r := a.current()
	if r == nil {
		return ""
	}
	iw, ih := a.innerW(), a.innerH()
	what := map[askKind]string{askSampling: "sampling/createMessage", askForm: "elicitation/create · form",
		askURL: "elicitation/create · URL"}[r.kind]
	lines := []string{s.Title.Render("The server asks · " + what)}
	lines = append(lines, s.Muted.Render(render.Trunc(m.askedBy(r), iw)))
	lines = append(lines, "")
	var body []string
	switch r.kind {
	case askForm:
		body = m.formBody(r, iw, ih-headRows)
	case askURL:
		body = m.urlBody(r, iw)
	default:
		body = m.samplingBody(iw)
	}
	lines = append(lines, body...)
	inner := panes.FitLines(padLines(lines, ih), iw, ih)
	return lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(s.Title.GetForeground()).
		Padding(0, 1).Render(inner)
}

// askedBy says which call asked, and how.
func (m *model) askedBy(r *askReq) string {
	who := "asked outside any call"
	if r.call != 0 {
		who = fmt.Sprintf("asked by call #%d", r.call)
		if c := m.St.Call(r.call); c != nil {
			who += " " + sanitize.Line(c.Tool)
		}
	}
	who += fmt.Sprintf(" · request ask-%d", r.seq)
	if r.token != "" {
		who += " · progress token " + sanitize.Line(r.token)
	}
	if r.roundTrip {
		who += " · an input request in the call's result"
	}
	if n := len(m.ask.queue) - 1; n > 0 {
		who += fmt.Sprintf(" · %d more waiting", n)
	}
	return who
}

// padLines pads lines with blanks to n, or cuts them to it.
func padLines(lines []string, n int) []string {
	for len(lines) < n {
		lines = append(lines, "")
	}
	return lines[:n]
}

// headLines are an elicitation's message and the findings on its request,
// at most most lines.
func (m *model) headLines(r *askReq, w, most int) []string {
	s := m.Sty
	d := render.NewDoc(w, s)
	if r.message != "" {
		d.Text(s.Text, r.message, 0)
	}
	for _, f := range r.findings {
		d.Text(s.Warn, "⚠ "+f, 2)
	}
	lines := d.Lines()
	if len(lines) > most {
		lines = append(lines[:most-1], s.Muted.Render("…"))
	}
	return lines
}

// formBody is an elicitation form: the message, the findings, the form
// with its live check, and the keys.
func (m *model) formBody(r *askReq, w, h int) []string {
	a, s := &m.ask, m.Sty
	out := m.headLines(r, w, max(h/3, 2))
	out = append(out, "")
	check := a.form.CheckLines()
	keys := s.Muted.Render("ctrl+s accept · ctrl+x decline · esc cancel · tab next field · ←/→ choose · ctrl+r raw JSON")
	room := h - len(out) - len(check) - 3
	var fields []string
	if a.form.Raw {
		fields = strings.Split(a.form.Area.View(), "\n")
	} else {
		fields = a.form.FormWindow(room)
	}
	if len(fields) > room {
		fields = fields[:max(room, 1)]
	}
	out = append(out, fields...)
	out = append(out, "")
	out = append(out, check...)
	if a.note != "" {
		out = append(out, s.Fail.Render("✗ "+a.note))
	}
	return append(padLines(out, h-1), keys)
}

// urlBody is a URL elicitation: the message, the URL shown safely, what
// became of it, and the keys.
func (m *model) urlBody(r *askReq, w int) []string {
	a, s := &m.ask, m.Sty
	out := m.headLines(r, w, 6)
	out = append(out, "", s.Bold.Render("URL"))
	d := render.NewDoc(w, s)
	d.Text(s.Info, r.url, 2)
	out = append(out, d.Lines()...)
	out = append(out, "")
	keys := "o open in the browser · enter accept · ctrl+x decline · esc cancel"
	if u, err := oauth.CheckOpenURL(r.url, m.o.Loopback); err != nil {
		d = render.NewDoc(w, s)
		d.Text(s.Fail, "✗ o will not open it: "+err.Error(), 0)
		out = append(out, d.Lines()...)
		keys = "enter accept · ctrl+x decline · esc cancel"
	} else {
		out = append(out, s.Bold.Render("host: ")+s.Info.Render(sanitize.Line(u.Host)))
	}
	if r.complete {
		out = append(out, s.Pass.Render("✓ the server says the interaction is complete (notifications/elicitation/complete)"))
	}
	if a.note != "" {
		out = append(out, s.Muted.Render(a.note))
	}
	out = append(out, "", s.Muted.Render(keys))
	return out
}

// samplingBody is a sampling request (scrollable), the reply and its
// stop reason, and the keys.
func (m *model) samplingBody(w int) []string {
	a, s := &m.ask, m.Sty
	out := strings.Split(a.sc.View(), "\n")
	label := "Reply · stop reason " + stopReasons()[a.stop] + " (ctrl+t) · ctrl+l load from a file"
	if a.sc.More() {
		label = "↓ more of the request (pgdn) · " + label
	}
	out = append(out, s.Bold.Render(render.Trunc(label, w)))
	if a.pathOn {
		out = append(out, a.path.View())
		for range replyRows - 1 {
			out = append(out, "")
		}
	} else {
		out = append(out, strings.Split(a.reply.View(), "\n")...)
	}
	if a.note != "" {
		out = append(out, s.Warn.Render(render.Trunc(a.note, w)))
	} else {
		out = append(out, "")
	}
	return append(out, s.Muted.Render("ctrl+s send · ctrl+x/esc decline · pgup/pgdn scroll the request"))
}

// samplingLines draws a sampling request's params: the messages, the
// system prompt, the model preferences, the token bound, the tools, and
// what the request did wrong.
func samplingLines(params json.RawMessage, w int, a *askModal) []string {
	s := a.Sty
	var p struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		SystemPrompt     string          `json:"systemPrompt"`
		ModelPreferences json.RawMessage `json:"modelPreferences"`
		MaxTokens        *int64          `json:"maxTokens"`
		Temperature      *float64        `json:"temperature"`
		StopSequences    []string        `json:"stopSequences"`
		IncludeContext   string          `json:"includeContext"`
		Tools            []struct {
			Name        string `json:"name"`
			Description string `json:"description"`
		} `json:"tools"`
	}
	_ = json.Unmarshal(params, &p)
	d := render.NewDoc(w, s)
	if r := a.current(); r != nil {
		for _, f := range r.findings {
			d.Text(s.Warn, "⚠ "+f, 2)
		}
	}
	bound := "maxTokens absent"
	if p.MaxTokens != nil {
		bound = fmt.Sprintf("maxTokens %d", *p.MaxTokens)
	}
	if p.Temperature != nil {
		bound += fmt.Sprintf(" · temperature %g", *p.Temperature)
	}
	if p.IncludeContext != "" {
		bound += " · includeContext " + p.IncludeContext
	}
	d.Text(s.Muted, bound, 0)
	if p.SystemPrompt != "" {
		d.Heading("System prompt")
		d.Text(s.Text, p.SystemPrompt, 2)
	}
	d.Heading(fmt.Sprintf("Messages (%d)", len(p.Messages)))
	for _, msg := range p.Messages {
		d.Text(s.Bold, msg.Role, 0)
		d.Text(s.Text, contentText(msg.Content), 2)
	}
	if len(p.ModelPreferences) > 0 && string(p.ModelPreferences) != "null" {
		d.Heading("Model preferences")
		d.JSON(p.ModelPreferences, 2)
	}
	if len(p.StopSequences) > 0 {
		d.Text(s.Muted, "stop sequences: "+strings.Join(p.StopSequences, ", "), 0)
	}
	if len(p.Tools) > 0 {
		d.Heading(fmt.Sprintf("Tools (%d)", len(p.Tools)))
		for _, t := range p.Tools {
			d.Text(s.Bold, t.Name, 0)
			if t.Description != "" {
				d.Text(s.Muted, t.Description, 2)
			}
		}
	}
	return d.Lines()
}

// contentText says what one content block (or an array of them) of a
// sampling message holds: its text, or its type and size.
func contentText(raw json.RawMessage) string {
	var blocks []json.RawMessage
	if json.Unmarshal(raw, &blocks) != nil {
		blocks = []json.RawMessage{raw}
	}
	var parts []string
	for _, b := range blocks {
		var c struct {
			Type     string `json:"type"`
			Text     string `json:"text"`
			MimeType string `json:"mimeType"`
			Data     string `json:"data"`
			Name     string `json:"name"`
		}
		_ = json.Unmarshal(b, &c)
		switch {
		case c.Type == "text":
			parts = append(parts, c.Text)
		case c.Name != "":
			parts = append(parts, fmt.Sprintf("[%s %s]", c.Type, c.Name))
		default:
			parts = append(parts, fmt.Sprintf("[%s %s, %d bytes of base64]", c.Type, c.MimeType, len(c.Data)))
		}
	}
	return strings.Join(parts, "\n")
}

// overlay draws box over base (a w×h screen) in its middle.
func overlay(base, box string, w, h int) string {
	rows := strings.Split(base, "\n")
	boxRows := strings.Split(box, "\n")
	bw := ansi.StringWidth(boxRows[0])
	top, left := max((h-len(boxRows))/2, 0), max((w-bw)/2, 0)
	for i, br := range boxRows {
		y := top + i
		if y >= len(rows) {
			break
		}
		row := rows[y]
		right := ansi.TruncateLeft(row, left+bw, "")
		rows[y] = ansi.Truncate(row, left, "") + strings.Repeat(" ", max(left-ansi.StringWidth(ansi.Truncate(row, left, "")), 0)) + br + right
	}
	return strings.Join(rows, "\n")
}
