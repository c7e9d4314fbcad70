package ui

import (
	"fmt"
	"mcpwitness/render"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"mcpwitness/sanitize"
	"mcpwitness/session"
)

// startReplay makes m a read-only replay of r: the keys that need a live
// server are switched off, so they are absent from the help too.
func (m *model) startReplay(r *replay) {
	m.replay = r
	m.show(r.base, 0, "")
	disableLiveKeys(&m.keys)
	m.scrub = scrubber{keys: &m.keys.Scrubber}
	m.detail.SetReplay(r.file.Event)
	m.wire.SetReplay(r.file.Event)
}

// replayKey handles the scrubber's keys, and says why the keys of a live
// session do nothing here. ok is false for any other key.
func (m *model) replayKey(msg tea.KeyPressMsg) (cmd tea.Cmd, ok bool) {
	r := m.replay
	if m.scrub.Matches(msg) {
		if !r.loaded {
			return m.setStatus("still reading "+r.name+"; the scrubber works once it is read", levelInfo), true
		}
		to, _ := m.scrub.Target(msg, r.target, r.n, r.moments)
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
		return m.setStatus("read-only replay: nothing to export, "+r.name+" is the record", levelInfo), true
	default:
		return nil, false
	}
	return m.setStatus("read-only replay: "+what+" needs a live server", levelInfo), true
}

// replayLine1 is the header's first line in a replay: the badge, the file
// and when it was recorded, then the server as known at this point.
func (m *model) replayLine1() string {
	s, r := m.sty, m.replay
	line := " " + s.Selected.Bold(true).Render(" REPLAY ") + " " + s.Bold.Render(sanitize.Line(r.name))
	if t := r.started(); !t.IsZero() {
		line += s.Muted.Render(" · recorded " + t.In(m.o.Loc).Format("2006-01-02 15:04 MST"))
	}
	if srv := m.st.Server(); srv != nil {
		line += s.Muted.Render(" · ") + m.serverText(srv)
	} else if r.loaded {
		line += s.Muted.Render(" · not connected yet at this point")
	}
	return render.Fit(line, m.w)
}

// started is when the recording started, or its first event.
func (r *replay) started() time.Time {
	if !r.meta.Started.IsZero() {
		return r.meta.Started
	}
	return r.meta.First
}

// inFlight names the calls in flight at this point of a replay.
func (m *model) inFlight() string {
	run := m.st.Running()
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
	s, r := m.sty, m.replay
	if !r.loaded {
		return render.Fit(" "+s.Spinner.Render(m.spin.View())+" "+s.Text.Render(m.readingText()), m.w)
	}
	pos := fmt.Sprintf("event %s/%s", thousands(int64(r.pos)), thousands(int64(r.n)))
	head := " " + s.Title.Render("⏵ "+pos)
	switch r.pos {
	case 0:
		head += s.Muted.Render(" · start")
	case r.n:
		head += s.Muted.Render(" · end")
	}
	when := ""
	if at := m.st.At(); !at.IsZero() {
		rel := max(at.Sub(r.meta.First), 0)
		when = s.Muted.Render(" · ") + s.Text.Render(render.ClockMs(at, m.o.Loc)) + s.Muted.Render(" · +"+render.Dur(rel))
	}
	moving := ""
	if r.running && r.target != r.pos {
		pct := 0
		if span := r.target - r.from; span != 0 {
			pct = min(max((r.done-r.from)*100/span, 0), 99)
		}
		moving = " " + s.Spinner.Render(m.spin.View()) + s.Text.Render(fmt.Sprintf(" → %s %d%%", thousands(int64(r.target)), pct))
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
	if m.replay.what != "" {
		line += sep + s.Muted.Render(m.replay.what)
	}
	return render.Fit(line, m.w)
}

func (m *model) readingText() string {
	r := m.replay
	pct := 0
	if r.n > 0 {
		pct = r.read * 100 / r.n
	}
	return fmt.Sprintf("reading %s… %d%% · %s of %s", sanitize.Line(r.name), pct, thousands(int64(r.read)), pluralEvents(r.n))
}

// loadingBody is the body while the file is read the first time.
func (m *model) loadingBody() string {
	s, r := m.sty, m.replay
	bar := m.bar
	bar.SetWidth(min(max(m.w-8, 10), 60))
	frac := 0.0
	if r.n > 0 {
		frac = float64(r.read) / float64(r.n)
	}
	text := s.Spinner.Render(m.spin.View()) + " " + s.Text.Render(m.readingText()) + "\n\n" + bar.ViewAs(frac)
	if t := r.started(); !t.IsZero() {
		by := ""
		if r.meta.Tool != "" {
			by = " by " + sanitize.Line(r.meta.Tool)
		}
		text += "\n\n" + s.Muted.Render("recorded "+t.In(m.o.Loc).Format("2006-01-02 15:04:05 MST")+by)
	}
	return m.block(text, m.w, m.lay.bodyH)
}

// replayHelp is what the full help says about a replay.
func (m *model) replayHelp() string {
	s, r := m.sty, m.replay
	return "\n  " + s.Title.Render("Replay") + "\n\n" +
		"  " + s.Muted.Render(fmt.Sprintf("%s, read-only: the screen shows the session as it was after the event", sanitize.Line(r.name))) + "\n" +
		"  " + s.Muted.Render("the status line names. Walking, calling and exporting need a live server and are") + "\n" +
		"  " + s.Muted.Render("not offered. A moment is a walk starting or ending, a list request, a page, a call") + "\n" +
		"  " + s.Muted.Render("starting or ending, or a list change.") + "\n"
}

// describe says in a few words what ev was, for the status line, shown
// safely.
func describe(ev session.Event) string { return sanitize.Line(describeRaw(ev)) }

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
	case session.KindNotification, session.KindServerCall:
		return strings.TrimPrefix(ev.Method, "notifications/")
	case session.KindConnect:
		return "connected"
	case session.KindClosed:
		return "session closed"
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
			return fmt.Sprintf("walk #%d: page %d arrived · %d items", ev.Walk.ID, ev.Page.Number, ev.Page.Count)
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
