package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"mcpwitness/sanitize"
	"mcpwitness/session"
)

// noteAuth keeps the authorization URL of an OAuth flow in progress, so
// that the screen can show it whole until the flow ends.
func (m *model) noteAuth(ev session.Event) tea.Cmd {
	if ev.Kind == session.KindConnect {
		m.restarts.authURL = ""
		return nil
	}
	if ev.Kind != session.KindAuth || ev.Auth == nil || m.replay != nil {
		return nil
	}
	switch ev.Auth.Step {
	case session.AuthOpen:
		m.restarts.authURL = ev.Auth.URL
		if m.st.Server() != nil {
			// A restart: the panes stay; the events pane has the URL.
			return m.setStatus("authorize mcpwitness in the browser; the URL is in the events pane (enter shows it whole, y copies it)", levelWarn)
		}
	case session.AuthToken, session.AuthFailed:
		m.restarts.authURL = ""
	}
	return nil
}

// connectingBody is what the screen shows while the first connection is
// made: a spinner and, while OAuth waits on the browser, the
// authorization URL whole, wrapped to the width.
func (m *model) connectingBody() string {
	s := m.sty
	text := s.Spinner.Render(m.spin.View()) + " " + s.Text.Render(m.connectText())
	if u := m.restarts.authURL; u != "" {
		w := max(m.w-4, 20)
		text += "\n\n" + s.Warn.Render(ansi.Wordwrap("The server asks for authorization. Open this URL in a browser (it was opened with $BROWSER or the system opener if there is one):", w, "")) + "\n\n"
		var lines []string
		for _, l := range hardWrap(sanitize.Line(u), w) {
			lines = append(lines, s.Text.Render(l))
		}
		text += strings.Join(lines, "\n") + "\n\n" + s.Muted.Render(ansi.Wordwrap("mcpwitness listens on 127.0.0.1 for the browser to come back; the events pane keeps the URL (y copies it).", w, ""))
	}
	return m.block(text, m.w, m.lay.bodyH)
}

// hardWrap cuts s into lines of at most w cells, anywhere: a URL has no
// spaces to break at.
func hardWrap(s string, w int) []string {
	var out []string
	for ansi.StringWidth(s) > w {
		cut := ansi.Cut(s, 0, w)
		out = append(out, cut)
		s = s[len(cut):]
	}
	return append(out, s)
}
