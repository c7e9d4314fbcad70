package ui

import (
	"fmt"
	"reflect"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"mcpwitness/finding"
	"mcpwitness/record"
	"mcpwitness/render"
	"mcpwitness/sanitize"
)

// serversModel is the root of the UI over several servers: one [model]
// per server, each as it is with one server, and a line under them naming
// every server with its state. Each server's messages (its events, and
// what the commands it started return) go to its own model, tagged with
// its index; switching only changes which model has the keys and the
// screen, so each keeps its lists, calls, selection and filter.
type serversModel struct {
	servers []*serverView
	cur     int
	w, h    int
	keys    ServersKeyMap
	// picking: the server picker has the keys and the screen; pick is the
	// row under its cursor.
	picking bool
	pick    int
	// showAll: the events of every server have the screen (E); all keeps
	// the newest of them.
	showAll bool
	all     []taggedEvent
}

// serverView is one server of a [serversModel]: its names and its model.
type serverView struct {
	names []string
	hash  string // the config hash, short; "" when unknown
	m     *model
}

// serverMsg is a message for the model of server i.
type serverMsg struct {
	i   int
	msg tea.Msg
}

// ServersKeyMap are the keys of the several-server root.
type ServersKeyMap struct {
	Pick   key.Binding // open the server picker
	All    key.Binding // the events of every server, or the current one's screen
	Up     key.Binding
	Down   key.Binding
	Choose key.Binding
	Close  key.Binding
}

// DefaultServersKeyMap returns the keys of the several-server root.
func DefaultServersKeyMap() ServersKeyMap {
	return ServersKeyMap{
		Pick:   key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "server picker")),
		All:    key.NewBinding(key.WithKeys("E"), key.WithHelp("E", "all servers' events")),
		Up:     key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:   key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		Choose: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "switch")),
		Close:  key.NewBinding(key.WithKeys("esc", "S", "q"), key.WithHelp("esc", "close")),
	}
}

// newServersModel is the root over views, the first one shown.
func newServersModel(views []*serverView) *serversModel {
	r := &serversModel{servers: views, keys: DefaultServersKeyMap()}
	for _, s := range views {
		s.m.several = &r.keys
	}
	return r
}

// Init starts every server's model at once: each dials on its own, so a
// slow or failing server never holds up the others.
func (r *serversModel) Init() tea.Cmd {
	cmds := make([]tea.Cmd, len(r.servers))
	for i, s := range r.servers {
		cmds[i] = wrapCmd(i, s.m.Init())
	}
	return tea.Batch(cmds...)
}

// Update routes msg: a server's message to its model, the keys and the
// mouse to the current one (S opens the picker when the current model is
// not taking text), the size and the terminal's answers to all.
func (r *serversModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case serverMsg:
		if msg.i < 0 || msg.i >= len(r.servers) {
			return r, nil
		}
		switch evs := msg.msg.(type) {
		case eventsMsg:
			r.keep(msg.i, evs...)
		case eventMsg:
			r.keep(msg.i, record.Event(evs))
		}
		return r, r.to(msg.i, msg.msg)
	case tea.WindowSizeMsg:
		r.w, r.h = msg.Width, msg.Height
		cmds := make([]tea.Cmd, len(r.servers))
		for i := range r.servers {
			cmds[i] = r.to(i, tea.WindowSizeMsg{Width: msg.Width, Height: max(msg.Height-1, 1)})
		}
		return r, tea.Batch(cmds...)
	case tea.KeyPressMsg:
		if r.picking {
			return r, r.pickerKey(msg)
		}
		if r.showAll {
			// Any key closes the view; E and esc only close it.
			r.showAll = false
			if key.Matches(msg, r.keys.All, r.keys.Close) {
				return r, nil
			}
		}
		free := r.current().m.mode.free()
		switch {
		case free && key.Matches(msg, r.keys.Pick):
			r.picking, r.pick = true, r.cur
			return r, nil
		case free && key.Matches(msg, r.keys.All):
			r.showAll = true
			return r, nil
		}
		return r, r.to(r.cur, msg)
	case tea.MouseMsg, tea.PasteMsg, tea.PasteStartMsg, tea.PasteEndMsg:
		if r.picking || r.showAll {
			return r, nil
		}
		return r, r.to(r.cur, msg)
	}
	cmds := make([]tea.Cmd, len(r.servers))
	for i := range r.servers {
		cmds[i] = r.to(i, msg)
	}
	return r, tea.Batch(cmds...)
}

// to hands msg to server i's model, and tags what its commands return.
func (r *serversModel) to(i int, msg tea.Msg) tea.Cmd {
	_, cmd := r.servers[i].m.Update(msg)
	return wrapCmd(i, cmd)
}

func (r *serversModel) current() *serverView { return r.servers[r.cur] }

// pickerKey moves the picker's cursor, switches or closes it.
func (r *serversModel) pickerKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, r.keys.Up):
		r.pick = (r.pick + len(r.servers) - 1) % len(r.servers)
	case key.Matches(msg, r.keys.Down):
		r.pick = (r.pick + 1) % len(r.servers)
	case key.Matches(msg, r.keys.Choose):
		r.cur, r.picking = r.pick, false
	case key.Matches(msg, r.keys.Close):
		r.picking = false
	default:
		// 1–9 switch at once.
		if s := msg.String(); len(s) == 1 && s[0] >= '1' && s[0] <= '9' && int(s[0]-'1') < len(r.servers) {
			r.cur, r.picking = int(s[0]-'1'), false
		}
	}
	return nil
}

// free says whether the mode leaves the root's keys alone: the lists and
// the wire, not a text input, a question or a picker of the model's own.
func (md mode) free() bool { return md == modeNormal || md == modeWire }

// wrapCmd tags what cmd returns as server i's message. The runtime's own
// messages (quitting, asking the terminal) go through as they are, and a
// batch has each of its commands tagged.
func wrapCmd(i int, cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg {
		msg := cmd()
		switch msg := msg.(type) {
		case nil:
			return nil
		case tea.BatchMsg:
			out := make(tea.BatchMsg, len(msg))
			for j, c := range msg {
				out[j] = wrapCmd(i, c)
			}
			return out
		}
		if isRuntimeMsg(msg) {
			return msg
		}
		return serverMsg{i: i, msg: msg}
	}
}

// isRuntimeMsg says whether msg is one of Bubble Tea's own messages, which
// the runtime acts on.
func isRuntimeMsg(msg tea.Msg) bool {
	t := reflect.TypeOf(msg)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.PkgPath() == reflect.TypeFor[tea.QuitMsg]().PkgPath()
}

// View is the current server's screen with the servers' line under it, or
// the picker.
func (r *serversModel) View() tea.View {
	v := r.current().m.View()
	body := v.Content
	switch {
	case r.picking:
		body = r.pickerView()
	case r.showAll:
		body = r.allEventsView()
	}
	v.SetContent(body + "\n" + r.stripView())
	return v
}

// serverState is how a server stands, in a word, with why it failed or
// closed.
type serverState struct {
	word string
	why  string
	mark string
	bad  bool
}

// state says how the server of m stands.
func (m *model) serverState() serverState {
	switch {
	case m.link == linkFailed:
		why := ""
		if m.dialErr != nil {
			why = m.dialErr.Error()
		}
		return serverState{word: "failed", why: why, mark: "✗", bad: true}
	case m.link == linkDialing:
		return serverState{word: "connecting", mark: "◌"}
	case m.replay != nil && m.replay.Loaded() && m.St.Server() == nil:
		// A replay of a server that never answered the handshake.
		why := m.St.ClosedWhy()
		if why == "" {
			why = "no handshake in the file"
		}
		return serverState{word: "failed", why: why, mark: "✗", bad: true}
	case m.St.Closed():
		return serverState{word: "closed", why: m.St.ClosedWhy(), mark: "○", bad: true}
	}
	return serverState{word: "ready", mark: "●"}
}

// failingVerdicts counts the verdicts of m's calls that did not pass:
// failed, refused and unchecked.
func (m *model) failingVerdicts() int {
	n := 0
	for _, c := range m.St.Calls() {
		for _, v := range c.Verdicts {
			if v.Status == finding.Fail || v.Status == finding.Refused || v.Status == finding.Unchecked {
				n++
			}
		}
	}
	return n
}

// incompleteWalks names m's lists whose newest walk ended incomplete,
// with why ("tools/list: cursor-repeated"): what the server listed there
// is not all there is.
func (m *model) incompleteWalks() []string {
	var out []string
	for t := tabTools; t < numTabs; t++ {
		name := t.method().Name
		if w := m.St.Latest(name); w != nil && w.Done && w.Incomplete.Finding() {
			out = append(out, name+": "+string(w.Incomplete))
		}
	}
	return out
}

// toolCount is the number of tools m's newest shown walk lists.
func (m *model) toolCount() int {
	if w := m.St.Shown(); w != nil {
		return len(w.Tools)
	}
	return 0
}

// name is the server's names joined.
func (s *serverView) name() string { return sanitize.Line(strings.Join(s.names, " = ")) }

// stripView is the line under the screen: every server with its state's
// mark, the current one highlighted, and the key of the picker.
func (r *serversModel) stripView() string {
	sty := r.current().m.Sty
	parts := []string{sty.Muted.Render("servers")}
	for i, s := range r.servers {
		st := s.m.serverState()
		mark := sty.Pass.Render(st.mark)
		if st.bad {
			mark = sty.Fail.Render(st.mark)
		}
		label := fmt.Sprintf("%d %s", i+1, s.name())
		if i == r.cur {
			label = sty.Bold.Render(label)
			if s.hash != "" {
				label += sty.Subtle.Render(" · config " + s.hash)
			}
		} else {
			label = sty.Text.Render(label)
		}
		parts = append(parts, mark+" "+label)
	}
	line := strings.Join(parts, "  ")
	hint := sty.Muted.Render("S servers · E all events")
	return joinEnds(line, hint, max(r.w, 1))
}

// pickerView is the server picker: a row per server with its names,
// state, generation and requests out, tools, failing verdicts and config
// hash, and why a failed or closed one ended and which of its lists a walk
// could not read whole.
func (r *serversModel) pickerView() string {
	sty := r.current().m.Sty
	h := max(r.h-1, 1)
	head := []string{sty.Title.Render("Servers") + sty.Muted.Render("  ↑/↓ move · enter or 1–9 switch · esc close"), ""}
	groups := make([][]string, len(r.servers)) // each server's row, and why under it
	for i, s := range r.servers {
		m := s.m
		st := m.serverState()
		cursor := "  "
		if i == r.pick {
			cursor = sty.Bold.Render("› ")
		}
		state := sty.Pass.Render(st.mark + " " + st.word)
		if st.bad {
			state = sty.Fail.Render(st.mark + " " + st.word)
		}
		cols := []string{
			fmt.Sprintf("%d %s", i+1, s.name()),
			state,
			fmt.Sprintf("gen %d · out %d", m.St.Gen(), m.St.Out()),
			fmt.Sprintf("%d %s", m.toolCount(), render.Plural(m.toolCount(), "tool", "tools")),
			fmt.Sprintf("%d failing", m.failingVerdicts()),
		}
		if s.hash != "" {
			cols = append(cols, sty.Subtle.Render("config "+s.hash))
		}
		row := cursor + padCols(cols, []int{28, 14, 16, 10, 11})
		groups[i] = append(groups[i], render.Fit(row, r.w))
		if st.why != "" {
			groups[i] = append(groups[i], render.Fit("    "+sty.Fail.Render(sanitize.Line(joinLines(st.why))), r.w))
		}
		if inc := m.incompleteWalks(); len(inc) > 0 {
			groups[i] = append(groups[i], render.Fit("    "+sty.Warn.Render("⚠ incomplete "+strings.Join(inc, ", ")), r.w))
		}
	}
	// from the first server on, or from a later one so the picked one shows.
	from, room := 0, h-len(head)
	for from < r.pick && countLines(groups[from:r.pick+1]) > room {
		from++
	}
	lines := head
	for _, g := range groups[from:] {
		lines = append(lines, g...)
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines[:h], "\n")
}

// joinLines puts a message of several lines on one, its lines trimmed and
// joined by a space: "…its stderr ends with: cannot start: missing API
// key", not a visible "\n" and the quote's indentation.
func joinLines(s string) string {
	var parts []string
	for l := range strings.SplitSeq(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			parts = append(parts, l)
		}
	}
	return strings.Join(parts, " ")
}

// countLines is the number of lines of groups.
func countLines(groups [][]string) int {
	n := 0
	for _, g := range groups {
		n += len(g)
	}
	return n
}

// padCols pads each column but the last to its width.
func padCols(cols []string, widths []int) string {
	var b strings.Builder
	for i, c := range cols {
		if i < len(widths) && i < len(cols)-1 {
			w := ansi.StringWidth(c)
			if w > widths[i]-1 {
				c = ansi.Truncate(c, widths[i]-2, "…")
				w = ansi.StringWidth(c)
			}
			c += strings.Repeat(" ", widths[i]-w)
		}
		b.WriteString(c)
	}
	return b.String()
}
