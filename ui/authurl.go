package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"mcpwitness/record"
	"mcpwitness/sanitize"
	"mcpwitness/session/oauth"
)

// authOpenedMsg says which command opened the authorization URL, or why
// it could not.
type authOpenedMsg struct {
	cmd string
	err error
}

// noteAuth keeps the authorization URL of an OAuth flow in progress, so
// that the screen can show it whole, with its host, until the flow ends.
// The session does not open it (session.Target.NoAuthBrowser): o does.
func (m *model) noteAuth(ev record.Event) tea.Cmd {
	if ev.Kind == record.KindConnect {
		m.restarts.authURL = ""
		return nil
	}
	if ev.Kind != record.KindAuth || ev.Auth == nil || m.replay != nil {
		return nil
	}
	switch ev.Auth.Step {
	case record.AuthOpen:
		m.restarts.authURL = ev.Auth.URL
		if m.St.Server() != nil {
			// A restart: the panes stay; the events pane has the URL.
			text := "authorize mcpwitness: o opens the authorization URL on " + authHost(ev.Auth.URL) + "; the events pane has it (enter shows it whole, y copies it)"
			if _, err := oauth.CheckOpenURL(ev.Auth.URL, m.o.Loopback); err != nil {
				text = "OAuth: " + err.Error()
			}
			return m.setStatus(text, levelWarn)
		}
	case record.AuthToken, record.AuthFailed:
		m.restarts.authURL = ""
	}
	return nil
}

// authHost is the host of an authorization URL, sanitised.
func authHost(raw string) string {
	u, err := oauth.CheckOpenURL(raw, true)
	if err != nil {
		return "?"
	}
	return sanitize.Line(u.Host)
}

// authScreen reports whether the screen is the first connection's, with
// an OAuth flow waiting on the browser: its y copies the URL.
func (m *model) authScreen() bool {
	return m.restarts.authURL != "" && m.St.Server() == nil && m.o.Dial != nil && m.link != linkFailed && m.mode == modeNormal
}

// authKey opens the authorization URL of the flow waiting on the browser
// on o, if [oauth.CheckOpenURL] allows it; else the status line says
// why not. It takes no other key, and none when no flow waits.
func (m *model) authKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if m.restarts.authURL == "" || !m.mode.free() || m.replay != nil || !key.Matches(msg, m.keys.Global.OpenAuth) {
		return nil, false
	}
	u, ctx, loopback := m.restarts.authURL, m.o.Ctx, m.o.Loopback
	if _, err := oauth.CheckOpenURL(u, loopback); err != nil {
		return m.setStatus("not opened: "+err.Error(), levelError), true
	}
	return tea.Batch(m.setStatus("opening the authorization URL…", levelInfo), m.o.Tasks.cmd(func() tea.Msg {
		cmd, err := oauth.OpenURL(ctx, u, loopback)
		return authOpenedMsg{cmd: cmd, err: err}
	})), true
}

// authOpened says how opening the authorization URL went.
func (m *model) authOpened(msg authOpenedMsg) tea.Cmd {
	if msg.err != nil {
		return m.setStatus("opening the authorization URL failed ("+msg.err.Error()+"); y copies it, open it by hand", levelError)
	}
	return m.setStatus("opened the authorization URL with "+msg.cmd+"; authorize there, and mcpwitness goes on", levelOK)
}

// connectingBody is what the screen shows while the first connection is
// made: a spinner and, while OAuth waits on the browser, the
// authorization URL whole, wrapped to the width, with its host set apart
// (or why it will not be opened).
func (m *model) connectingBody() string {
	s := m.Sty
	text := s.Spinner.Render(m.spin.View()) + " " + s.Text.Render(m.connectText())
	if u := m.restarts.authURL; u != "" {
		w := max(m.w-4, 20)
		text += "\n\n" + s.Warn.Render(ansi.Wordwrap("The server asks for authorization. Press o to open this URL in the browser ($BROWSER or the system opener), or y to copy it:", w, "")) + "\n\n"
		var lines []string
		for _, l := range strings.Split(ansi.Hardwrap(sanitize.Line(u), w, true), "\n") {
			lines = append(lines, s.Text.Render(l))
		}
		text += strings.Join(lines, "\n") + "\n\n"
		if p, err := oauth.CheckOpenURL(u, m.o.Loopback); err != nil {
			text += s.Fail.Render(ansi.Wordwrap("✗ o will not open it: "+err.Error(), w, ""))
		} else {
			text += s.Bold.Render("host: ") + s.Info.Render(sanitize.Line(p.Host))
		}
		text += "\n\n" + s.Muted.Render(ansi.Wordwrap("mcpwitness listens on 127.0.0.1 for the browser to come back; the events pane keeps the URL.", w, ""))
	}
	return m.block(text, m.w, m.lay.bodyH)
}
