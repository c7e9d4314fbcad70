package ui

import (
	"fmt"
	"mcpwitness/ui/panes"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"mcpwitness/render"
	"mcpwitness/sanitize"
)

// The roots editor: the roots the client answers roots/list with, a
// directory added by typing its path, one removed by a key. Each change
// goes to the session, which tells the server
// (notifications/roots/list_changed).

// rootsMsg is the roots as the session holds them after a read or a
// change, or why a change failed.
type rootsMsg struct {
	roots   []string
	changed bool
	err     error
}

// rootsPane is the roots editor's state.
type rootsPane struct {
	roots  []string
	cursor int
	adding bool
	input  textinput.Model
	note   string
	from   mode
	loaded bool
}

// openRoots opens the roots editor; the roots are read in a command.
func (m *model) openRoots() tea.Cmd {
	b, ok := m.backend.(answerer)
	if !ok || m.replay != nil {
		return m.setStatus("the roots are edited in a live session", levelInfo)
	}
	m.roots.from, m.mode = m.mode, modeRoots
	m.roots.adding, m.roots.note, m.roots.loaded = false, "", false
	m.roots.input = textinput.New()
	m.roots.input.Prompt = "add: "
	m.roots.input.Placeholder = "a directory path"
	return m.o.Tasks.cmd(func() tea.Msg { return rootsMsg{roots: b.Roots()} })
}

// setRootsCmd sends roots to the session.
func (m *model) setRootsCmd(roots []string) tea.Cmd {
	b, ok := m.backend.(answerer)
	if !ok {
		return nil
	}
	return m.o.Tasks.cmd(func() tea.Msg {
		err := b.SetRoots(roots)
		return rootsMsg{roots: b.Roots(), changed: err == nil, err: err}
	})
}

// rootsDone takes the roots the session holds.
func (m *model) rootsDone(msg rootsMsg) tea.Cmd {
	r := &m.roots
	r.roots, r.loaded = msg.roots, true
	r.cursor = min(r.cursor, max(len(r.roots)-1, 0))
	switch {
	case msg.err != nil:
		r.note = "✗ " + msg.err.Error()
	case msg.changed:
		r.note = "✓ the server was told: notifications/roots/list_changed"
	}
	return nil
}

// keyRoots adds, removes or moves through the roots, or closes the editor.
func (m *model) keyRoots(msg tea.KeyPressMsg) tea.Cmd {
	r, k := &m.roots, &m.keys.Roots
	if r.adding {
		switch {
		case msg.String() == "enter":
			p := strings.TrimSpace(r.input.Value())
			r.adding = false
			r.input.Blur()
			if p == "" {
				return nil
			}
			r.input.SetValue("")
			return m.setRootsCmd(append(slices.Clone(r.roots), p))
		case key.Matches(msg, k.Close):
			r.adding = false
			r.input.Blur()
			return nil
		}
		var cmd tea.Cmd
		r.input, cmd = r.input.Update(msg)
		return cmd
	}
	switch {
	case key.Matches(msg, k.Close):
		m.mode = r.from
	case key.Matches(msg, k.Add):
		r.adding, r.note = true, ""
		return r.input.Focus()
	case key.Matches(msg, k.Remove) && len(r.roots) > 0:
		rest := slices.Delete(slices.Clone(r.roots), r.cursor, r.cursor+1)
		return m.setRootsCmd(rest)
	case key.Matches(msg, k.Up):
		r.cursor = max(r.cursor-1, 0)
	case key.Matches(msg, k.Down):
		r.cursor = min(r.cursor+1, max(len(r.roots)-1, 0))
	}
	return nil
}

// rootsView draws the roots editor's box.
func (m *model) rootsView() string {
	r, s := &m.roots, m.Sty
	bw, _ := boxSize(m.w, m.h)
	iw := bw - 4
	ih := min(max(len(r.roots)+8, 10), max(m.h-4, 8)-2)
	lines := []string{s.Title.Render("Roots · answered to roots/list"), ""}
	switch {
	case !r.loaded:
		lines = append(lines, s.Muted.Render("reading…"))
	case len(r.roots) == 0:
		lines = append(lines, s.Muted.Render("No roots: roots/list is answered with an empty list."))
	}
	for i, root := range r.roots {
		line := "  " + sanitize.Line(root)
		if i == r.cursor {
			line = s.Title.Render("▸ ") + s.Text.Render(sanitize.Line(root))
		}
		lines = append(lines, render.Trunc(line, iw))
	}
	lines = append(lines, "")
	if r.adding {
		lines = append(lines, r.input.View())
	}
	if r.note != "" {
		lines = append(lines, s.Muted.Render(render.Trunc(r.note, iw)))
	}
	lines = append(padLines(lines, ih-1), s.Muted.Render(fmt.Sprintf("a add a directory · d remove · ↑/↓ move · esc close · %d %s",
		len(r.roots), render.Plural(len(r.roots), "root", "roots"))))
	inner := panes.FitLines(lines, iw, ih)
	return lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(s.Title.GetForeground()).
		Padding(0, 1).Render(inner)
}
