package ui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"mcpwitness/fold"
	"mcpwitness/paging"
	"mcpwitness/record"
	"mcpwitness/render"
	"mcpwitness/session"
)

// tab is one list over the list pane: tools, resources, templates or
// prompts. Each has a pane of its own, with its own selection, filter and
// walk.
type tab int

// The tabs, in the order they show.
const (
	tabTools tab = iota
	tabResources
	tabTemplates
	tabPrompts
	tabTasks
	numTabs
)

// numItemTabs is the number of tabs of lists other than tools: those from
// tabResources on, each with its pane in [model.items].
const numItemTabs = int(numTabs - tabResources)

// method is the list method the tab shows.
func (t tab) method() paging.Method {
	switch t {
	case tabResources:
		return paging.Resources()
	case tabTemplates:
		return paging.ResourceTemplates()
	case tabPrompts:
		return paging.Prompts()
	case tabTasks:
		return paging.Tasks()
	}
	return paging.Tools()
}

// name is the tab's title, long and short.
func (t tab) name() (long, short string) {
	switch t {
	case tabResources:
		return "Resources", "Res"
	case tabTemplates:
		return "Templates", "Tmpl"
	case tabPrompts:
		return "Prompts", "Prm"
	case tabTasks:
		return "Tasks", "Tsk"
	}
	return "Tools", "Tools"
}

// tabOf returns the tab of the list method, and false for another method.
func tabOf(method string) (tab, bool) {
	for t := tabTools; t < numTabs; t++ {
		if t.method().Name == method {
			return t, true
		}
	}
	return 0, false
}

// item returns the index of an item tab in [model.items].
func (t tab) item() int { return int(t - tabResources) }

// declared is what the server of the state shown declared, read once per
// handshake: a replay shows the tabs it had at the point shown.
type declared struct {
	from *record.ServerInfo
	caps fold.Caps
	tabs []tab
	// ownTasks says the Tasks tab lists the session's own tasks: the
	// server runs the tasks extension, which has no tasks/list.
	ownTasks bool
}

// caps returns what the server declared (see [model.syncDeclared]).
func (m *model) caps() fold.Caps { return m.declared.caps }

// tabs returns the tabs of the lists the server declares, in order.
func (m *model) tabs() []tab { return m.declared.tabs }

// syncDeclared reads the capabilities of the state's server when it is a
// new one.
func (m *model) syncDeclared() {
	srv := m.St.Server()
	if srv == m.declared.from && m.declared.tabs != nil {
		return
	}
	d := declared{from: srv}
	if srv != nil {
		d.caps = fold.ReadCaps(srv.Capabilities)
	}
	for _, l := range d.caps.Lists() {
		if t, ok := tabOf(l.Name); ok {
			d.tabs = append(d.tabs, t)
		}
	}
	if srv != nil {
		tc := fold.ReadTaskCaps(srv.Capabilities)
		d.ownTasks = !tc.List && tc.Extension
		if tc.List || d.ownTasks {
			d.tabs = append(d.tabs, tabTasks)
		}
	}
	m.declared = d
	m.tabKeys(len(d.tabs))
}

// tabKeys makes the tabs' key the digits of the tabs there are, and its
// help say so (1-3 tabs with three); with one tab it is no key.
func (m *model) tabKeys(n int) {
	b := &m.keys.Global.Tabs
	b.SetEnabled(n > 1)
	if n < 2 {
		return
	}
	digits := make([]string, n)
	for i := range digits {
		digits[i] = strconv.Itoa(i + 1)
	}
	b.SetKeys(digits...)
	b.SetHelp("1-"+digits[n-1], "tabs")
}

// showsTabs says whether the tab strip shows: the server offers more than
// tools.
func (m *model) showsTabs() bool { return len(m.tabs()) > 1 }

// switchTab shows the n-th declared tab (0-based); it says whether there
// is one.
func (m *model) switchTab(n int) bool {
	tabs := m.tabs()
	if n < 0 || n >= len(tabs) {
		return false
	}
	m.tab = tabs[n]
	m.setFocus(paneTools)
	return true
}

// tabCount is the number of items the tab's list holds now.
func (m *model) tabCount(t tab) int {
	if t == tabTools {
		if w := m.St.Shown(); w != nil {
			return len(w.Tools)
		}
		return 0
	}
	return m.items[t.item()].Count()
}

// tabStripDrawn is the tab strip drawn for the list pane's width, cached
// in Update (see [model.predraw]).
func (m *model) tabStripDrawn() string {
	key := fmt.Sprintf("%d %p %d %v %d %d %d %d %d %v", m.lay.leftW, m.Sty, m.tab, m.focus == paneTools,
		m.tabCount(tabTools), m.tabCount(tabResources), m.tabCount(tabTemplates), m.tabCount(tabPrompts), m.tabCount(tabTasks), m.ops.walks)
	return m.memo.get("tabs", key, func() string { return m.tabStrip(m.lay.leftW) })
}

// tabStrip draws the tabs, the shown one bright: "Tools 49 · Resources 7 ·
// Templates 2 · Prompts 4", shorter names when it does not fit in w, then
// a space between them rather than " · ", so that all five tabs show in
// an 80-column terminal ("Tools 17 Res 7 Tmpl 2 Prm 4 Tsk 0").
func (m *model) tabStrip(w int) string {
	s := m.Sty
	tabs := m.tabs()
	for _, f := range []struct {
		short bool
		sep   string
	}{{false, " · "}, {true, " · "}, {true, " "}} {
		short := f.short
		parts := make([]string, len(tabs))
		plain := 0
		for i, t := range tabs {
			long, sh := t.name()
			name := long
			if short {
				name = sh
			}
			n := fmt.Sprint(m.tabCount(t))
			if m.walking(t) {
				n += "…"
			}
			plain += ansi.StringWidth(name) + 1 + ansi.StringWidth(n)
			style, count := s.Muted, s.Subtle
			if t == m.tab {
				style, count = m.TitleStyle(m.focus == paneTools), s.Muted
			}
			parts[i] = style.Render(name) + " " + count.Render(n)
		}
		plain += ansi.StringWidth(f.sep) * (len(tabs) - 1)
		if plain <= w || f.sep == " " {
			return render.Fit(strings.Join(parts, s.Subtle.Render(f.sep)), w)
		}
	}
	return ""
}

// walking says whether a walk of the tab's list is in flight.
func (m *model) walking(t tab) bool { return m.ops.walks[t.method().Name] != nil }

// syncItems brings the item tabs up to date, and the item pane with the
// selected item of the tab shown. A tab the server does not declare gives
// way to tools.
func (m *model) syncItems() tea.Cmd {
	m.syncDeclared()
	m.items[tabTasks.item()].SetOwn(m.declared.ownTasks)
	for i := range m.items {
		m.items[i].Sync()
	}
	if m.tab != tabTools && m.St.Server() != nil && !slices.Contains(m.tabs(), m.tab) {
		// A server that does not offer the list. (Before the handshake,
		// as a replay moves back, the tab stays.)
		m.tab = tabTools
	}
	if s := m.showsTabs(); s != m.strip {
		m.strip = s
		m.sizeLists()
	}
	if m.tab == tabTools {
		return nil
	}
	p := &m.items[m.tab.item()]
	it := p.Selected()
	m.item.Show(it, it != nil && it.URI != "" && p.Subscribed(it.URI))
	return m.item.Sync()
}

// sizeLists sizes the list panes: the tab strip takes a row above them
// when it shows.
func (m *model) sizeLists() {
	h := m.lay.bodyH
	if m.showsTabs() {
		h--
	}
	m.tools.SetSize(m.lay.leftW, h)
	for i := range m.items {
		m.items[i].SetSize(m.lay.leftW, h)
	}
}

// listView is the left of the body: the tab strip, when the server offers
// more than tools, over the pane of the tab shown.
func (m *model) listView() string {
	pane := ""
	if m.tab == tabTools {
		pane = m.tools.View()
	} else {
		pane = m.items[m.tab.item()].View()
	}
	if !m.showsTabs() {
		return pane
	}
	return m.drawn.tabs + "\n" + pane
}

// rightView is the right of the body: the editor or form that has the
// keys, else the detail of the tool or item selected.
func (m *model) rightView() string {
	spin, now := m.spin.View(), m.o.Now()
	if m.replay != nil {
		spin, now = "⋯", m.St.At()
	}
	switch {
	case m.mode == modeEditor:
		return m.editor.View()
	case m.mode == modeForm:
		return m.form.View()
	case m.tab != tabTools:
		return m.item.View(m.requestBusy(), spin)
	}
	return m.detail.View(spin, now)
}

// nouns is what the tab's list holds, one and many.
func (t tab) nouns() (one, many string) {
	switch t {
	case tabResources:
		return "resource", "resources"
	case tabTemplates:
		return "template", "templates"
	case tabPrompts:
		return "prompt", "prompts"
	case tabTasks:
		return "task", "tasks"
	}
	return "tool", "tools"
}

// tabWalk is the newest walk of the tab's list, for the header.
func (m *model) tabWalk() *fold.Walk {
	if m.tab == tabTools {
		return m.St.LatestTools()
	}
	return m.St.Latest(m.tab.method().Name)
}

// levelLine is the status line while the log level picker is open: the
// levels, the one picked bright.
func (m *model) levelLine() string {
	s := m.Sty
	var b strings.Builder
	b.WriteString(" " + s.Bold.Render("log level") + " ")
	for i, l := range session.LogLevels() {
		if i == m.level {
			b.WriteString(s.Selected.Render(" "+l+" ") + " ")
			continue
		}
		b.WriteString(s.Muted.Render(" "+l+" ") + " ")
	}
	return render.Fit(b.String(), m.w)
}
