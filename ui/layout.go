package ui

import (
	"fmt"
	"mcpwitness/ui/panes"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"mcpwitness/render"
	"mcpwitness/sanitize"

	"mcpwitness/record"
	"mcpwitness/themes"
)

// layout is where each part of the screen goes, worked out on resize
// from the model's size.
type layout struct {
	bodyTop, bodyH     int
	leftW, rightW      int
	eventsTop, eventsH int
	// stacked shows one of the tools and detail panes at a time, the
	// focused one, across the whole width: the screen is too narrow for
	// both side by side.
	stacked bool
	// short has no events pane below the body: the screen is too low.
	// The events show in the body while they have the focus.
	short bool
}

const (
	headerRows = 3  // two lines and a rule
	footerRows = 2  // status and help
	stackBelow = 72 // narrower screens show one pane at a time
	shortBelow = 20 // lower screens show the events only when focused
)

func (m *model) resize(w, h int) {
	m.w, m.h = w, h
	l := layout{stacked: w < stackBelow, short: h < shortBelow}
	l.bodyTop = headerRows
	if l.short {
		l.bodyH = max(h-headerRows-footerRows, 1)
		l.eventsTop = -1
	} else {
		l.eventsH = min(max(h/5, 4), 12)
		l.bodyH = max(h-headerRows-l.eventsH-1-footerRows, 3)
		l.eventsTop = l.bodyTop + l.bodyH + 1
	}
	if l.stacked {
		l.leftW, l.rightW = w, w
	} else {
		l.leftW = min(max(w*2/5, 34), 56)
		l.rightW = max(w-l.leftW-3, 10)
	}
	m.lay = l
	m.sizeLists()
	m.detail.SetSize(l.rightW, l.bodyH)
	m.item.SetSize(l.rightW, l.bodyH)
	m.editor.SetSize(l.rightW, l.bodyH)
	m.form.SetSize(l.rightW, l.bodyH)
	m.wire.SetSize(w, l.bodyH)
	if l.short {
		m.events.SetSize(w, l.bodyH)
	} else {
		m.events.SetSize(w, l.eventsH)
	}
	m.whole.SetSize(l.rightW, l.bodyH)
	m.help.SetWidth(w - 2)
}

// drawn are the parts of the screen drawn after each message, for View to
// put together: drawing them is cached, and a cache is written in Update.
type drawn struct{ header, rule, vrule, help, tabs string }

// predraw draws the cached parts of the screen, and fills the full help
// while it is open.
func (m *model) predraw() {
	if m.w <= 0 || m.h <= 0 {
		return
	}
	l := m.lay
	m.drawn.rule = m.memo.get("rule", fmt.Sprintf("%d %p", m.w, m.Sty), func() string { return m.Sty.Rule.Render(strings.Repeat("─", m.w)) })
	m.drawn.vrule = m.memo.get("vrule", fmt.Sprintf("%p", m.Sty), func() string { return " " + m.Sty.Rule.Render("│") + " " })
	if m.hp.sty != m.Sty {
		m.hp = newHeaderPaints(m.Sty)
	}
	m.drawn.header = m.header()
	m.drawn.help = m.helpLine()
	if m.showsTabs() {
		m.drawn.tabs = m.tabStripDrawn()
	}
	if m.tab == tabTools {
		m.tools.Predraw()
	} else {
		m.items[m.tab.item()].Predraw()
	}
	m.detail.Predraw()
	for _, sc := range []*panes.Scroller{&m.item.Sc, &m.wire.Frame, &m.whole.sc} {
		sc.Predraw()
	}
	m.events.Predraw()
	if m.mode == modeHelp {
		// Help takes the events pane's rows too.
		m.helpView.SetContent(m.fullHelp())
		hh := l.bodyH
		if !l.short {
			hh += 1 + l.eventsH
		}
		m.helpView.SetSize(m.w, hh)
	}
}

// render draws the whole screen: header, body, events, status, help. It
// changes nothing.
func (m *model) render() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	rule := m.drawn.rule
	lines := []string{m.drawn.header, rule}
	switch {
	case m.mode == modeHelp:
		lines = append(lines, m.helpView.View())
	case m.lay.short:
		lines = append(lines, m.body())
	default:
		lines = append(lines, m.body(), rule, m.events.View())
	}
	return strings.Join(append(lines, m.statusLine(), m.drawn.help), "\n")
}

// header is two lines: who the server is, then the walk's indicators. It
// is drawn again only when one of them changed.
func (m *model) header() string {
	walk := m.tabWalk()
	var ws string
	if walk != nil {
		ws = fmt.Sprint(walk.ID, walk.Done, len(walk.Pages), walk.Incomplete)
	}
	spin := ""
	if m.replay == nil && (m.St.Out() > 0 || m.ops.call != nil) {
		spin = m.spin.View()
	}
	key := fmt.Sprintf("%d %p %p %d %d %d %s %d %s %v %s %v %d %d %s", m.w, m.Sty, m.St.Server(), m.St.ShownRev(), m.St.Gen(), m.St.Out(), ws,
		m.St.LastAnswer().UnixNano(), m.ops.calling(), m.St.Closed(), spin, m.link, m.tab, m.tabCount(m.tab), m.pingText())
	if r := m.replay; r != nil {
		key += fmt.Sprintf(" replay %v %s", r.Loaded(), m.inFlight())
	}
	return m.memo.get("header", key, m.drawHeader)
}

func (m *model) drawHeader() string {
	s, w := m.Sty, m.w
	var line1 string
	if m.replay != nil {
		line1 = m.replayLine1()
		line1 = render.Fit(line1, w)
	} else if srv := m.St.Server(); srv != nil {
		// Who the server is changes once a session: drawn once, not on
		// every page of a walk.
		line1 = m.memo.get("server", fmt.Sprintf("%d %p %p", w, s, srv), func() string { return render.Fit(" "+m.serverText(srv), w) })
	} else {
		line1 = render.Fit(" "+s.Server.Render("mcpwitness")+" "+s.Muted.Render(m.connectText()), w)
	}

	hp := m.headerPaints()
	spin := "  "
	switch {
	case m.St.Out() > 0 && m.replay != nil:
		// A replay stands still: no spinner for what was out then.
		spin = " " + hp.spinner.On("⋯")
	case m.St.Out() > 0:
		spin = " " + hp.spinner.On(m.spin.View())
	}
	gen := hp.key.On("gen ") + hp.bold.On(strconv.FormatInt(m.St.Gen(), 10)) +
		hp.key.On(" · out ") + hp.bold.On(strconv.Itoa(m.St.Out())) + spin
	line2 := " " + gen + hp.subtle.On(" │  ") + m.walkText(hp)
	line2 += hp.subtle.On("  │  ") + hp.key.On("last answer ") + hp.text.On(render.Clock(m.St.LastAnswer(), m.o.Loc))
	if p := m.pingText(); p != "" {
		line2 += s.Subtle.Render("  │  ") + s.HeaderKey.Render(p)
	}
	var r2 string
	switch {
	case m.ops.call != nil:
		r2 = s.Spinner.Render(m.spin.View()) + s.Text.Render(" calling "+sanitize.Line(m.ops.call.tool)+" ")
	case m.replay != nil && len(m.St.Running()) > 0:
		r2 = s.Spinner.Render("⋯") + s.Text.Render(" "+m.inFlight()+" ")
	case m.St.Closed():
		r2 = s.Warn.Render("session closed ")
	}
	return line1 + "\n" + joinEnds(line2, r2, w)
}

// headerPaints are the header's styles as paints (see [paint]): its
// second line is drawn again on most events of a walk.
type headerPaints struct {
	sty                                                 *themes.Styles
	key, bold, subtle, text, spinner, muted, warn, pass panes.Paint
}

func newHeaderPaints(s *themes.Styles) headerPaints {
	return headerPaints{sty: s, key: panes.NewPaint(s.HeaderKey.Render), bold: panes.NewPaint(s.Bold.Render), subtle: panes.NewPaint(s.Subtle.Render),
		text: panes.NewPaint(s.Text.Render), spinner: panes.NewPaint(s.Spinner.Render), muted: panes.NewPaint(s.Muted.Render),
		warn: panes.NewPaint(s.Warn.Render), pass: panes.NewPaint(s.Pass.Render)}
}

// headerPaints are the paints of the styles now, made in predraw.
func (m *model) headerPaints() *headerPaints { return &m.hp }

// walkText says how the newest walk of the tab's list stands, and how many
// items the tab lists.
func (m *model) walkText(hp *headerPaints) string {
	if m.tab == tabTasks && m.declared.ownTasks {
		n := m.tabCount(m.tab)
		return hp.muted.On(fmt.Sprintf("%d %s of this session · no tasks/list", n, render.Plural(n, "task", "tasks")))
	}
	walk := m.tabWalk()
	wstyle := hp.text
	switch {
	case walk == nil:
		wstyle = hp.muted
	case walk.Done && (walk.Incomplete.Finding() || walk.Err != ""):
		// A walk the client stopped ([paging.Stopped]) read what it
		// needed: no warning.
		wstyle = hp.warn
	case walk.Done:
		wstyle = hp.pass
	}
	text := wstyle.On(render.WalkSummary(walk))
	if walk != nil && walk.Done {
		// What the pane lists: a later walk that failed lists nothing,
		// and the pane keeps the last good one.
		n := walk.Items
		if sw := m.St.Shown(); m.tab == tabTools && sw != nil && len(sw.Pages) > 0 {
			n = len(sw.Tools)
		} else if m.tab != tabTools {
			n = m.tabCount(m.tab)
		}
		one, many := m.tab.nouns()
		text += hp.muted.On(fmt.Sprintf(" · %d %s", n, render.Plural(n, one, many)))
	}
	return text
}

// serverText says who the server is: name, version, protocol, transport
// and target, every part it sent shown safely.
func (m *model) serverText(srv *record.ServerInfo) string {
	s := m.Sty
	text := s.Server.Render(sanitize.Line(srv.Name))
	if srv.Version != "" {
		text += " " + s.Text.Render(sanitize.Line(srv.Version))
	}
	text += s.Muted.Render(" · protocol ") + s.Text.Render(render.OrDash(sanitize.Line(srv.ProtocolVersion)))
	if srv.AskedProtocol != "" {
		text += s.Warn.Render(" (asked for " + sanitize.Line(srv.AskedProtocol) + ")")
	}
	text += s.Muted.Render(" · " + render.OrDash(sanitize.Line(srv.Transport)))
	if h := srv.ConfigHash; len(h) >= 12 {
		// Before the target, which is long and cut first.
		text += s.Muted.Render(" · config ") + s.Text.Render(h[:12])
	}
	if srv.Target != "" {
		text += s.Subtle.Render(" · " + sanitize.Line(srv.Target))
	}
	return text
}

func (m *model) connectText() string {
	target := m.o.Target
	if target == "" {
		target = "the server"
	}
	switch m.link {
	case linkFailed:
		return "could not connect"
	case linkNone:
		return "replay (read-only)"
	}
	return "connecting to " + target + "…"
}

// joinEnds puts left and right on one line of width w, cutting left first.
func joinEnds(left, right string, w int) string {
	lw, rw := ansi.StringWidth(left), ansi.StringWidth(right)
	if lw+rw+1 > w {
		// No room for both: the left part matters more.
		return render.Fit(left, w)
	}
	return left + strings.Repeat(" ", w-lw-rw) + right
}

// body is the main area: a replay loading, the events pane on a low
// screen, the wire pane, the connection failing or being made, or else
// the panes.
func (m *model) body() string {
	switch {
	case m.replay != nil && !m.replay.Loaded():
		return m.loadingBody()
	case m.lay.short && m.focus == paneEvents:
		return m.events.View()
	case m.mode == modeWire:
		// Before a connection too: the wire shows how an attempt went.
		return m.wire.View()
	case m.St.Server() == nil && m.link == linkFailed:
		return m.failedBody()
	case m.St.Server() == nil && m.o.Dial != nil:
		return m.connectingBody()
	}
	return m.panesBody()
}

// failedBody says why the connection failed and what to do next.
func (m *model) failedBody() string {
	msg := m.Sty.Fail.Render("✗ "+sanitize.Text(m.dialErr.Error())) + "\n\n" +
		m.Sty.Muted.Render("w shows the frames of the attempt, e exports them. Check the command or URL, then press R to try again; q quits.")
	return m.block(lipgloss.NewStyle().Width(m.w-4).Render(msg), m.w, m.lay.bodyH)
}

// panesBody is the list and the pane on its right (the detail, an item,
// the editor, or an event opened whole) side by side, or on a narrow
// screen the one of them that has the focus.
func (m *model) panesBody() string {
	l := m.lay
	if l.stacked && m.mode != modeEditor && m.mode != modeForm && m.focus != paneDetail {
		return m.listView()
	}
	right := m.rightView()
	if m.whole.Shown() && m.mode == modeNormal {
		right = m.whole.View()
	}
	if l.stacked {
		return right
	}
	return m.sideBySide(m.listView(), right)
}

// sideBySide puts the lines of left and right next to each other with a
// rule between them, as many as the body has rows.
func (m *model) sideBySide(left, right string) string {
	ll := strings.Split(left, "\n")
	rl := strings.Split(right, "\n")
	rule := m.drawn.vrule
	if rule == "" {
		rule = " " + m.Sty.Rule.Render("│") + " "
	}
	var b strings.Builder
	for i := 0; i < m.lay.bodyH; i++ {
		if i > 0 {
			b.WriteByte('\n')
		}
		a, c := "", ""
		if i < len(ll) {
			a = ll[i]
		}
		if i < len(rl) {
			c = rl[i]
		}
		// Panes draw lines of exactly their width.
		b.WriteString(a)
		b.WriteString(rule)
		b.WriteString(c)
	}
	return b.String()
}

// block pads text to a w×h block with a one-cell margin.
func (m *model) block(text string, w, h int) string {
	lines := strings.Split(text, "\n")
	out := make([]string, h)
	for i := range out {
		line := ""
		if i > 0 && i-1 < len(lines) {
			line = "  " + lines[i-1]
		}
		out[i] = render.Fit(line, w)
	}
	return strings.Join(out, "\n")
}

func (m *model) statusLine() string {
	s := m.Sty
	if m.replay != nil {
		return m.replayStatus()
	}
	if m.mode == modeLevel {
		return m.levelLine()
	}
	if m.status.text == "" && m.St.Closed() {
		// Until something else is said: the session is over, and what
		// can still be done.
		text := "⚠ the session is closed"
		if why := m.St.ClosedWhy(); why != "" && why != "session closed" {
			text = "⚠ " + why + " · the session is closed"
		}
		return render.Fit(" "+s.Warn.Render(sanitize.Line(text))+s.Muted.Render(" · q quit, e export, w wire"), m.w)
	}
	if m.status.text == "" {
		return strings.Repeat(" ", m.w)
	}
	return render.Fit(" "+m.status.render(s), m.w)
}

// memo keeps the last drawing of a part of the screen with the key it was
// drawn for.
type memo map[string][2]string

func (c memo) get(part, key string, draw func() string) string {
	if v, ok := c[part]; ok && v[0] == key {
		return v[1]
	}
	out := draw()
	c[part] = [2]string{key, out}
	return out
}
