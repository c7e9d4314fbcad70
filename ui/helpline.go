package ui

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"mcpwitness/fold"
	"mcpwitness/render"

	"mcpwitness/ui/panes"
)

// hiddenMeaning is what the hidden badge says of an item.
const hiddenMeaning = "its name, description or schema text holds invisible or unsafe characters (tags, zero-width, bidi, controls): the detail says which field holds what"

// bindings returns the help line's keys for what has the keys now.
func (m *model) bindings() []key.Binding {
	short := m.callBindings(m.modeBindings())
	if m.offersRestart() && (m.mode == modeNormal || m.mode == modeWire) {
		// The server is gone: restarting it is what there is to do.
		short = append([]key.Binding{m.keys.Global.Restart}, short...)
	}
	if r := m.replay; r != nil && r.Loaded() && (m.mode == modeNormal || m.mode == modeWire || m.mode == modeConfirm) {
		short = append(m.scrub.ShortHelp(), short...)
	}
	return short
}

// callBindings adds the keys of the call shown to short, the mode's: while
// the detail pane asks before a refused call is sent anyway, its keys
// replace them; once a call is done, and the detail pane has not the
// focus, f sends a refused one anyway and T runs it again as a task.
// Where keys type, or another tab is shown, short stays as it is.
func (m *model) callBindings(short []key.Binding) []key.Binding {
	switch c := m.detail.Call(); {
	case m.mode == modeEditor || m.mode == modeHelp || m.mode == modeForm || m.mode == modeLevel || m.tab != tabTools,
		m.mode == modeAsk || m.mode == modeRoots:
	case m.mode == modeConfirm:
		short = m.detail.ShortHelp()
	case c != nil && c.Done && m.focus != paneDetail:
		if c.Outcome() == fold.OutcomeRefused {
			short = append([]key.Binding{m.keys.Detail.Force}, short...)
		}
		if m.taskTool() != nil {
			short = append([]key.Binding{m.keys.Detail.Task}, short...)
		}
	}
	return short
}

// modeBindings returns the help line's keys of the mode, or of the
// focused pane.
func (m *model) modeBindings() []key.Binding {
	if short, ok := m.ownBindings(); ok {
		return short
	}
	return m.paneBindings()
}

// ownBindings returns the keys of a screen or a mode that has keys of its
// own, whatever pane has the focus: help, a replay loading, no server yet,
// the editor, a form, a server's request, the roots editor, the log level
// picker. ok is false in the modes that browse the panes.
func (m *model) ownBindings() (short []key.Binding, ok bool) {
	g := &m.keys.Global
	switch {
	case m.mode == modeHelp:
		return append(m.helpView.ShortHelp(), g.Quit), true
	case m.replay != nil && !m.replay.Loaded():
		return []key.Binding{g.Theme, g.Help, g.Quit}, true
	case m.authScreen():
		open, cp := g.OpenAuth, g.Copy
		open.SetHelp("o", "open URL")
		cp.SetHelp("y", "copy URL")
		return []key.Binding{open, cp, g.Wire, g.Export, g.Help, g.Quit}, true
	case m.St.Server() == nil && m.replay == nil:
		return []key.Binding{g.Wire, g.Export, g.Help, g.Quit}, true
	case m.mode == modeEditor:
		return m.editor.ShortHelp(), true
	case m.mode == modeForm:
		return m.keys.Form.ShortHelp(), true
	case m.mode == modeAsk:
		return m.ask.ShortHelp(), true
	case m.mode == modeRoots:
		k := &m.keys.Roots
		return []key.Binding{k.Add, k.Remove, k.Up, k.Down, k.Close}, true
	case m.mode == modeLevel:
		k := &m.keys.Level
		return []key.Binding{k.Pick, k.Prev, k.Next, g.Back}, true
	}
	return nil, false
}

// paneBindings returns the keys of the focused pane (or of the list being
// filtered): the event opened whole, a tab's items or the item shown, the
// tools or the tool shown, the events, or else the wire.
func (m *model) paneBindings() []key.Binding {
	switch {
	case m.mode == modeNormal && m.focus == paneDetail && m.whole.Shown():
		return m.whole.ShortHelp()
	case (m.mode == modeFilter || m.focus == paneTools) && m.tab != tabTools:
		return m.items[m.tab.item()].ShortHelp()
	case m.focus == paneDetail && m.tab != tabTools:
		return m.item.ShortHelp()
	case m.mode == modeFilter, m.focus == paneTools:
		return m.tools.ShortHelp()
	case m.focus == paneDetail:
		return m.detail.ShortHelp()
	case m.focus == paneEvents:
		return m.events.ShortHelp()
	}
	return m.wire.ShortHelp()
}

func (m *model) helpLine() string {
	short := m.bindings()
	var key strings.Builder
	fmt.Fprintf(&key, "%d %p", m.w, m.Sty)
	for _, b := range short {
		key.WriteString("|" + b.Help().Key + b.Help().Desc)
	}
	return m.memo.get("help", key.String(), func() string {
		full := m.help // fitHelp chose what fits: draw it uncut
		full.SetWidth(0)
		return render.Fit(" "+full.ShortHelpView(m.fitHelp(short)), m.w)
	})
}

// fitHelp keeps as many of short as fit on the help line. The first (what
// the pane is for), help, quit and the way back (esc) stay while they can;
// others go from the end, so the line is never cut in the middle of a key.
// When that is not enough the descriptions shrink to their first word, then
// only help and quit are sure to stay.
func (m *model) fitHelp(short []key.Binding) []key.Binding {
	k := &m.keys.Global
	isHelpOrQuit := func(b key.Binding) bool {
		h := b.Help()
		return h == k.Help.Help() || h == k.Quit.Help() || strings.HasPrefix(h.Key, "?")
	}
	keep := func(b key.Binding) bool { return isHelpOrQuit(b) || strings.HasPrefix(b.Help().Key, "esc") }
	out := slices.Clone(short)
	if !m.mode.typing() && m.mode != modeHelp {
		// Help and quit are always offered where q and ? are keys.
		for _, b := range []key.Binding{k.Help, k.Quit} {
			if !slices.ContainsFunc(out, func(o key.Binding) bool { return o.Help() == b.Help() }) {
				out = append(out, b)
			}
		}
	}
	full := m.help // measured uncut
	full.SetWidth(0)
	fits := func() bool { return ansi.StringWidth(full.ShortHelpView(out))+1 <= m.w }
	dropWhere := func(first int, may func(key.Binding) bool) {
		for !fits() {
			drop := -1
			for i := len(out) - 1; i >= first; i-- {
				if may(out[i]) {
					drop = i
					break
				}
			}
			if drop < 0 {
				return
			}
			out = slices.Delete(out, drop, drop+1)
		}
	}
	dropWhere(1, func(b key.Binding) bool { return !keep(b) })
	if !fits() {
		for i, b := range out {
			h := b.Help()
			if cut := strings.IndexAny(h.Desc, " /"); cut > 0 {
				b.SetHelp(h.Key, h.Desc[:cut])
				out[i] = b
			}
		}
	}
	dropWhere(0, func(b key.Binding) bool { return !isHelpOrQuit(b) })
	return out
}

// keyGroups gathers the keys of every part for the full help: moving,
// acting, showing, and the editor's (or in a replay, where the editor's
// keys are off, the scrubber's).
func (m *model) keyGroups() [][]key.Binding {
	k, g := &m.keys, &m.keys.Global
	t, d, e := &k.Tools, &k.Detail, &k.Editor
	it := &k.Items
	groups := [][]key.Binding{
		append(t.Bindings(), g.NextPane, g.PrevPane, g.Tabs),
		{t.Call, e.Send, g.Back, t.Filter, g.Walk, g.Restart, d.PrevCall, d.NextCall, d.Force, d.NextVerdict, d.OpenVerdict, d.Right},
		{it.Open, it.Subscribe, g.Ping, g.LogLevel, g.Roots, g.OpenAuth, k.Events.Level, g.Wire, g.Copy, k.Wire.CopyRaw, k.Events.Open, k.Tools.Held, g.Export, g.Theme, g.Help, g.Quit},
		{e.NextField, e.PrevField, e.Choice, e.Raw, d.Confirm, k.Form.Force, k.Ask.Accept, k.Ask.Decline, k.Ask.Open, k.Ask.Stop, k.Ask.Load},
	}
	if m.several != nil {
		// One server of several: the root's picker and every server's events.
		groups[2] = append([]key.Binding{m.several.Pick, m.several.All}, groups[2]...)
	}
	if m.replay != nil {
		groups[3] = m.scrub.FullHelp()[0]
	}
	return groups
}

// fullHelp lists every key, grouped, with what the badges mean. It is
// built only while help is open.
func (m *model) fullHelp() string {
	s := m.Sty
	return m.memo.get("fullhelp", fmt.Sprintf("%d %p %v", m.w, m.Sty, m.replay != nil), func() string {
		groups := m.keyGroups()
		var keys string
		switch {
		case m.w >= 110:
			keys = m.help.FullHelpView(groups)
		case m.w >= 60:
			// Two columns at a time on a narrower screen.
			keys = m.help.FullHelpView(groups[:2]) + "\n\n" + m.help.FullHelpView(groups[2:])
		default:
			// One at a time on a narrow one.
			var parts []string
			for _, g := range groups {
				parts = append(parts, m.help.FullHelpView([][]key.Binding{g}))
			}
			keys = strings.Join(parts, "\n\n")
		}
		var b strings.Builder
		b.WriteString("\n  " + s.Title.Render("Keys") + "\n\n")
		for _, l := range strings.Split(keys, "\n") {
			b.WriteString("  " + l + "\n")
		}
		b.WriteString("\n  " + s.Title.Render("Badges") + "\n\n")
		for _, row := range [][2]string{
			{s.Warn.Render("hidden"), hiddenMeaning},
			{s.BadgeTask.Render("task"), "execution.taskSupport is \"required\": plain calls are refused"},
			{s.BadgeOut.Render("out"), "declares an output schema: answers are checked against it"},
			{s.BadgeRO.Render("ro") + "/" + s.BadgeDestr.Render("destr"), "annotations: read-only / destructive"},
			{s.Subtle.Render("held"), panes.HeldMeaning + " (H hides the column)"},
			{s.Subtle.Render("own"), panes.OwnMeaning},
			{s.Pass.Render("✓") + " " + s.Fail.Render("✗") + " " + s.Warn.Render("⊘ ? !"), "a tool's newest call: passed, failed, refused or cancelled, unchecked, isError; then how many calls"},
			{s.BadgeStale.Render("stale"), "the server said its list changed after this walk"},
			{s.BadgeHeld.Render("sub"), "a resource subscribed to (s): the server says when it changes"},
			{s.BadgeStale.Render("upd"), "the server said the resource changed since it was last read (enter reads it)"},
		} {
			b.WriteString("  " + render.Fit(row[0], 10) + " " + s.Muted.Render(row[1]) + "\n")
		}
		if m.replay != nil {
			b.WriteString(m.replayHelp())
		}
		b.WriteString("\n  " + s.Muted.Render("The moving keys move the focused list or document; in a form or the editor keys type (home/end move in the field)."))
		b.WriteString("\n  " + s.Muted.Render("↑/↓ g/G scroll · ? or esc closes this help"))
		return b.String()
	})
}
