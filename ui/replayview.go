package ui

import (
	"fmt"
	"mcpwitness/ui/panes"
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"mcpwitness/render"
	"mcpwitness/replay"
	"mcpwitness/sanitize"
)

// startReplay makes m a read-only replay of r: the keys that need a live
// server are switched off, so they are absent from the help too.
func (m *model) startReplay(r *replay.Replay) {
	m.replay = r
	m.St = r.State()
	panes.DisableLiveKeys(&m.keys)
	m.scrub = panes.Scrubber{Keys: &m.keys.Scrubber}
	m.detail.SetReplay(r.File().Event)
	m.item.SetReadOnly()
	m.wire.SetReplay(r.File().Event)
}

// replayKey handles the scrubber's keys, and says why the keys of a live
// session do nothing here. ok is false for any other key.
func (m *model) replayKey(msg tea.KeyPressMsg) (cmd tea.Cmd, ok bool) {
	r := m.replay
	if m.scrub.Matches(msg) {
		if !r.Loaded() {
			return m.setStatus("still reading "+r.Name()+"; the scrubber works once it is read", levelInfo), true
		}
		to, _ := m.scrub.Target(msg, r.Target(), r.Len(), r.Moments())
		return m.moveTo(to), true
	}
	// The live keys are switched off here, so key.Matches never matches
	// them: look at their keys.
	k, pressed := &m.keys, func(b key.Binding) bool { return slices.Contains(b.Keys(), msg.String()) }
	what := ""
	switch {
	case pressed(k.Global.Walk):
		what = "walking"
	case pressed(k.Tools.Call) && (m.focus == paneTools || m.focus == paneDetail):
		what = "calling"
	case pressed(k.Detail.Force) && m.mode != modeWire:
		what = "sending"
	case pressed(k.Global.Export):
		return m.setStatus("read-only replay: nothing to export, "+r.Name()+" is the record", levelInfo), true
	default:
		return nil, false
	}
	return m.setStatus("read-only replay: "+what+" needs a live server", levelInfo), true
}

// replayLine1 is the header's first line in a replay: the badge, the file
// and when it was recorded, then the server as known at this point.
func (m *model) replayLine1() string {
	s, r := m.Sty, m.replay
	line := " " + s.Selected.Bold(true).Render(" REPLAY ") + " " + s.Bold.Render(sanitize.Line(r.Name()))
	if t := r.Started(); !t.IsZero() {
		line += s.Muted.Render(" · recorded " + t.In(m.o.Loc).Format("2006-01-02 15:04 MST"))
	}
	if srv := m.St.Server(); srv != nil {
		line += s.Muted.Render(" · ") + m.serverText(srv)
	} else if r.Loaded() {
		line += s.Muted.Render(" · not connected yet at this point")
	}
	return render.Fit(line, m.w)
}

// inFlight names the calls in flight at this point of a replay.
func (m *model) inFlight() string {
	run := m.St.Running()
	if len(run) == 0 {
		return ""
	}
	text := "calling " + sanitize.Line(run[len(run)-1].Tool)
	if len(run) > 1 {
		text += fmt.Sprintf(" +%d", len(run)-1)
	}
	return text
}

// replayStatus is the status line of a replay: where the scrubber is, then
// the status message or what happened at that point.
func (m *model) replayStatus() string {
	s, r := m.Sty, m.replay
	if !r.Loaded() {
		return render.Fit(" "+s.Spinner.Render(m.spin.View())+" "+s.Text.Render(m.readingText()), m.w)
	}
	pos := fmt.Sprintf("event %s/%s", render.Thousands(int64(r.Pos())), render.Thousands(int64(r.Len())))
	head := " " + s.Title.Render("⏵ "+pos)
	switch r.Pos() {
	case 0:
		head += s.Muted.Render(" · start")
	case r.Len():
		head += s.Muted.Render(" · end")
	}
	when := ""
	if at := m.St.At(); !at.IsZero() {
		rel := max(at.Sub(r.Meta().First), 0)
		when = s.Muted.Render(" · ") + s.Text.Render(render.ClockMs(at, m.o.Loc)) + s.Muted.Render(" · +"+render.Dur(rel))
	}
	moving := ""
	if r.Running() && r.Target() != r.Pos() {
		pct := 0
		if from, done := r.Progress(); r.Target() != from {
			pct = min(max((done-from)*100/(r.Target()-from), 0), 99)
		}
		moving = " " + s.Spinner.Render(m.spin.View()) + s.Text.Render(fmt.Sprintf(" → %s %d%%", render.Thousands(int64(r.Target())), pct))
	}
	if m.replayOldList() {
		// As live after a restart: the tools shown are the old
		// connection's until a walk replaces them.
		head += s.Muted.Render(" · ") + s.Warn.Render("tools from before the restart")
	}
	sep := s.Subtle.Render("  │  ")
	if m.status.text != "" {
		tail := sep + m.status.render(s)
		// A message matters more than the time: on a narrow screen the
		// time goes first.
		if ansi.StringWidth(head+when+moving+tail) > m.w {
			when = ""
		}
		return render.Fit(head+when+moving+tail, m.w)
	}
	line := head + when + moving
	if m.replay.What() != "" {
		line += sep + s.Muted.Render(m.replay.What())
	}
	return render.Fit(line, m.w)
}

// replayOldList says whether the tools shown at this point of the replay
// were listed on a connection a restart has since ended, and no walk has
// replaced them.
func (m *model) replayOldList() bool {
	old := m.replay.OldWalk(m.replay.Pos())
	w := m.St.Shown()
	return old > 0 && w != nil && w.ID <= old
}

func (m *model) readingText() string {
	r := m.replay
	pct := 0
	if r.Len() > 0 {
		pct = r.Read() * 100 / r.Len()
	}
	return fmt.Sprintf("reading %s… %d%% · %s of %s", sanitize.Line(r.Name()), pct, render.Thousands(int64(r.Read())), pluralEvents(r.Len()))
}

// loadingBody is the body while the file is read the first time.
func (m *model) loadingBody() string {
	s, r := m.Sty, m.replay
	bar := m.bar
	bar.SetWidth(min(max(m.w-8, 10), 60))
	frac := 0.0
	if r.Len() > 0 {
		frac = float64(r.Read()) / float64(r.Len())
	}
	text := s.Spinner.Render(m.spin.View()) + " " + s.Text.Render(m.readingText()) + "\n\n" + bar.ViewAs(frac)
	if t := r.Started(); !t.IsZero() {
		by := ""
		if r.Meta().Tool != "" {
			by = " by " + sanitize.Line(r.Meta().Tool)
		}
		text += "\n\n" + s.Muted.Render("recorded "+t.In(m.o.Loc).Format("2006-01-02 15:04:05 MST")+by)
	}
	return m.block(text, m.w, m.lay.bodyH)
}

// replayHelp is what the full help says about a replay.
func (m *model) replayHelp() string {
	s, r := m.Sty, m.replay
	return "\n  " + s.Title.Render("Replay") + "\n\n" +
		"  " + s.Muted.Render(fmt.Sprintf("%s, read-only: the screen shows the session as it was after the event", sanitize.Line(r.Name()))) + "\n" +
		"  " + s.Muted.Render("the status line names. Walking, calling and exporting need a live server and are") + "\n" +
		"  " + s.Muted.Render("not offered. A moment is a walk starting or ending, a list request, a page, a call") + "\n" +
		"  " + s.Muted.Render("or another request (a read, a prompt get, a completion, a ping, a subscription, a log") + "\n" +
		"  " + s.Muted.Render("level) starting or ending, a list change, a subscribed resource's update or a restart") + "\n" +
		"  " + s.Muted.Render("of the server (until a walk replaces them, the tools shown are said to be from before it).") + "\n"
}
