package ui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"mcpwitness/themes"
)

// eventsPane lists what happened besides frames: stderr, log messages,
// notifications, list changes and the walks they started, calls, errors.
type eventsPane struct {
	st   *state
	sty  *themes.Styles
	keys *KeyMap
	loc  *time.Location
	w, h int

	focused bool
	list    streamList
	pt      eventPaints
	ptFor   *themes.Styles
}

type eventPaints struct{ sel, subtle, muted, text, warn, fail paint }

func newEventsPane(st *state, sty *themes.Styles, keys *KeyMap, loc *time.Location) eventsPane {
	return eventsPane{st: st, sty: sty, keys: keys, loc: loc, list: newStreamList()}
}

func (p *eventsPane) SetSize(w, h int) {
	p.w, p.h = w, h
	p.list.SetHeight(h - 1)
}

// Sync follows new rows.
func (p *eventsPane) Sync() { p.list.Sync(p.st.events.first(), p.st.events.total()) }

// Update handles keys while the pane has focus.
func (p eventsPane) Update(msg tea.Msg) (eventsPane, tea.Cmd) {
	if msg, ok := msg.(tea.KeyPressMsg); ok {
		moveKey(msg, p.keys, &p.list)
	}
	return p, nil
}

// Wheel scrolls by n rows.
func (p *eventsPane) Wheel(n int) { p.list.Move(n) }

// View renders the title and the visible rows.
func (p *eventsPane) View() string {
	s := p.sty
	if p.ptFor != s {
		p.pt = eventPaints{sel: newPaint(s.Selected.Render), subtle: newPaint(s.Subtle.Render), muted: newPaint(s.Muted.Render),
			text: newPaint(s.Text.Render), warn: newPaint(s.Warn.Render), fail: newPaint(s.Fail.Render)}
		p.ptFor = s
	}
	title := s.TitleBlurred
	if p.focused {
		title = s.Title
	}
	head := title.Render("Events") + " " + s.Muted.Render(fmt.Sprint(p.st.events.total()))
	if !p.list.follow {
		head += s.Subtle.Render(" · paused, G follows")
	}
	lines := []string{fit(head, p.w)}
	sel := p.list.Selected()
	for i := 0; i < p.list.h; i++ {
		n := p.list.offset + int64(i)
		r := p.st.events.abs(n)
		if r == nil {
			lines = append(lines, strings.Repeat(" ", p.w))
			continue
		}
		lines = append(lines, p.row(r, p.focused && n == sel))
	}
	return strings.Join(lines, "\n")
}

func (p *eventsPane) row(r *eventRow, selected bool) string {
	ts := clock(r.T, p.loc)
	kind := fmt.Sprintf("%-10s", trunc(r.Kind, 10))
	tw := max(p.w-1-len(ts)-1-10-1, 4)
	text := trunc(r.Text, tw)
	pad := strings.Repeat(" ", max(tw-ansi.StringWidth(text), 0))
	pt := &p.pt
	if selected {
		return pt.sel.on(" " + ts + " " + kind + " " + text + pad)
	}
	ks, xs := pt.muted, pt.text
	switch {
	case r.Level == "warn":
		ks = pt.warn
	case r.Level == "error":
		ks, xs = pt.fail, pt.fail
	case r.Kind == "stderr":
		xs = pt.muted
	}
	return " " + pt.subtle.on(ts) + " " + ks.on(kind) + " " + xs.on(text) + pad
}

// ShortHelp returns the pane's bindings for the help line.
func (p *eventsPane) ShortHelp() []key.Binding {
	k := p.keys
	return []key.Binding{k.Up, k.Down, k.Bottom, k.NextPane, k.Walk, k.Export, k.Help, k.Quit}
}

// FullHelp returns the pane's bindings, grouped.
func (p *eventsPane) FullHelp() [][]key.Binding {
	k := p.keys
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}}
}
