package ui

import (
	"context"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"mcpwitness/fold"
	"mcpwitness/record"
	"mcpwitness/sanitize"
	"mcpwitness/session"
)

// restarter is a backend whose server can be restarted: a new process on
// stdio, a new HTTP session ([session.Session.Restart]).
type restarter interface {
	Restart(ctx context.Context) (*session.Session, error)
}

// restartDoneMsg says a restart returned: the session that continues the
// record, or why there is none.
type restartDoneMsg struct {
	backend Backend
	err     error
	// redial says it was the first connection, made again after it
	// failed.
	redial bool
}

// restartState is what the model knows of its server's connection beyond
// the fold: a restart in flight, and the HTTP session the server lost.
type restartState struct {
	running bool
	// connects counts the connect events folded in; a restart's walks
	// start once its own (number want) is, so none is refused as walking
	// a closed session.
	connects, want int
	walk           bool
	// lost is the Mcp-Session-Id the server answered 404 to, until a
	// restart replaces the session.
	lost string
	// authURL is the authorization URL of an OAuth flow waiting on the
	// browser ("" when none is).
	authURL string
	// oldWalk is the newest walk of the connection a restart ended: a
	// tools list shown from it or an older one is from that connection.
	oldWalk int64
}

// lostText is the status line while the server's HTTP session is lost.
func lostText(id string) string {
	return "the server lost HTTP session " + session.ShortSessionID(id) + "; press R to start a new one"
}

// restartKey restarts the server on R, in the modes that browse.
func (m *model) restartKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if m.mode != modeNormal && m.mode != modeWire || !key.Matches(msg, m.keys.Global.Restart) {
		return nil, false
	}
	return m.restart(), true
}

// restart ends the connection to the server and makes a new one, in the
// same record: whatever is in flight is cancelled; once connected again,
// every list is walked again, and what was listed before stays shown
// until its walk replaces it.
func (m *model) restart() tea.Cmd {
	switch {
	case m.replay != nil:
		return m.setStatus("a replay has no server to restart", levelInfo)
	case m.restarts.running:
		return m.setStatus("already restarting the server…", levelInfo)
	case m.backend == nil && m.link == linkDialing:
		return m.setStatus("still connecting; restart once the server answers or the attempt fails", levelInfo)
	case m.backend == nil && m.link == linkFailed && m.o.Dial != nil:
		return m.redial()
	case m.backend == nil:
		return m.setStatus("no server to restart", levelError)
	}
	r, ok := m.backend.(restarter)
	if !ok {
		return m.setStatus("this server cannot be restarted", levelWarn)
	}
	m.ops.cancelAll()
	for _, w := range m.ops.walks {
		w.again = false
	}
	m.queued = nil
	m.restarts.running = true
	m.restarts.want = m.restarts.connects + 1
	m.restarts.oldWalk = newestWalk(m.St.Walks())
	ctx := m.o.Ctx
	return tea.Batch(m.setStatus("restarting the server…", levelInfo), m.o.Tasks.cmd(func() tea.Msg {
		n, err := r.Restart(ctx)
		if err != nil {
			return restartDoneMsg{err: err}
		}
		return restartDoneMsg{backend: n}
	}))
}

// redial makes the first connection again, after it failed.
func (m *model) redial() tea.Cmd {
	m.link, m.dialErr = linkDialing, nil
	m.restarts.running = true
	m.restarts.want = m.restarts.connects + 1
	d, ctx := m.o.Dial, m.o.Ctx
	return tea.Batch(m.setStatus("connecting again…", levelInfo), m.ensureSpin(), m.o.Tasks.cmd(func() tea.Msg {
		b, err := d(ctx)
		return restartDoneMsg{backend: b, err: err, redial: true}
	}))
}

// restartDone takes the new session and walks every list again, or says
// why the restart failed.
func (m *model) restartDone(msg restartDoneMsg) tea.Cmd {
	m.restarts.running = false
	if msg.err != nil && msg.redial {
		m.dialErr, m.link = msg.err, linkFailed
		return m.setStatus("could not connect again; press R to try once more", levelError)
	}
	if msg.err != nil {
		return m.setStatus("restart failed: "+msg.err.Error()+"; press R to try again", levelError)
	}
	m.backend, m.link = msg.backend, linkUp
	m.restarts.lost = ""
	status := m.setStatus("restarted: every list is walked again on the new connection; until its walk ends a list is the old connection's", levelOK)
	if msg.redial {
		status = m.setStatus("connected", levelOK)
	}
	if m.restarts.connects < m.restarts.want {
		m.restarts.walk = true // once the new connect event is folded
		return status
	}
	return tea.Batch(status, m.connected())
}

// noteConnection reacts to an event about the connection itself: a lost
// HTTP session or the end of the connection offers R.
func (m *model) noteConnection(ev record.Event) tea.Cmd {
	if cmd := m.noteAuth(ev); cmd != nil {
		return cmd
	}
	if ev.Kind == record.KindConnect {
		m.restarts.connects++
		if m.restarts.walk && m.restarts.connects >= m.restarts.want {
			m.restarts.walk = false
			return m.connected()
		}
	}
	if m.replay != nil || m.backend == nil || m.restarts.running {
		return nil
	}
	switch {
	case ev.Kind == record.KindHTTP && ev.HTTP != nil && ev.HTTP.Step == record.HTTPLost:
		m.restarts.lost = ev.HTTP.SessionID
		return m.setStatus(lostText(ev.HTTP.SessionID), levelWarn)
	case ev.Kind == record.KindClosed && ev.Text != "session closed":
		return m.setStatus(m.closedOffer(ev.Text), levelWarn)
	}
	return nil
}

// closedOffer is the status line once the server's connection ended
// (why): what can still be done, R first. A long why (a server's stderr,
// a failed restart's cause) is cut to leave the offer on the line; the
// events pane has it whole.
func (m *model) closedOffer(why string) string {
	offer := " · the session is closed · R restarts the server"
	const more = "; q quit, e export, w wire"
	// The line's margin and the status mark ("⚠ ") come before it; the
	// other keys go first when the line is too narrow for them.
	room := m.w - 3 - ansi.StringWidth(offer)
	if room-len(more) >= 16 {
		offer += more
		room -= len(more)
	}
	return ansi.Truncate(sanitize.Line(why), max(room, 8), "…") + offer
}

// keepLost says again, when the status line is free, that the server's
// connection ended or its HTTP session is lost, and that R restarts it.
func (m *model) keepLost() tea.Cmd {
	switch {
	case m.replay != nil || m.backend == nil || m.restarts.running || m.status.text != "":
	case m.St.Closed() && m.St.ClosedWhy() != "session closed":
		return m.setStatus(m.closedOffer(m.St.ClosedWhy()), levelWarn)
	case m.restarts.lost != "":
		return m.setStatus(lostText(m.restarts.lost), levelWarn)
	case m.oldList() && !m.ops.walking():
		return m.setStatus("the tools shown are from the connection before the restart; r walks them again", levelWarn)
	}
	return nil
}

// oldList says whether the tools shown were listed on a connection a
// restart has since ended, and no walk has replaced them.
func (m *model) oldList() bool {
	w := m.St.Shown()
	return m.restarts.oldWalk > 0 && w != nil && w.ID <= m.restarts.oldWalk
}

// newestWalk is the highest walk number among walks (0 for none).
func newestWalk(walks []*fold.Walk) int64 {
	var n int64
	for _, w := range walks {
		n = max(n, w.ID)
	}
	return n
}

// offersRestart says whether R is what there is to do: the server is gone
// (its connection ended, its HTTP session lost) or the first connection
// failed.
func (m *model) offersRestart() bool {
	switch {
	case m.replay != nil || m.restarts.running:
		return false
	case m.backend != nil:
		return m.St.Closed() || m.restarts.lost != ""
	}
	return m.link == linkFailed && m.o.Dial != nil
}
