package ui

import (
	"fmt"
	"mcpwitness/ui/panes"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"mcpwitness/fold"
	"mcpwitness/render"
	"mcpwitness/themes"
)

// eventsPane lists what happened besides frames: stderr, log messages,
// notifications, list changes and the walks they started, calls, errors.
type eventsPane struct {
	*panes.Common
	keys *panes.EventsKeyMap
	w, h int

	focused bool
	list    streamList
	filter  rowFilter // the level filter
	pt      eventPaints
	// cols are the visible entries said in words, made when what is
	// visible changes (rows never change), so View only looks them up.
	cols    map[entry]rowCols
	colsFor colsKey
	// drawn is the pane as Predraw drew it for drawnKey.
	drawn    string
	drawnKey eventsDrawKey
	drawnFor []entry // the entries drawn: the fold may put a new row in a place (a list change tied to its walk)
}

// eventsDrawKey is what the pane's drawing depends on.
type eventsDrawKey struct {
	cols            colsKey
	sel             int64
	w               int
	focused, follow bool
	sty             *themes.Styles
	entries         int64
}

func (p *eventsPane) drawKey() eventsDrawKey {
	first, total := p.filter.bounds()
	return eventsDrawKey{cols: p.colsFor, sel: p.list.Selected(), w: p.w, focused: p.focused, follow: p.list.follow, sty: p.Sty, entries: total - first}
}

// Predraw draws the pane again when what it shows changed, in Update: a
// walk's pages and frames add no rows, and cost a comparison.
func (p *eventsPane) Predraw() {
	if k := p.drawKey(); k != p.drawnKey || p.drawn == "" || !p.sameEntries() {
		p.drawn, p.drawnKey = p.draw(), k
		p.drawnFor = p.drawnFor[:0]
		for i := 0; i < p.list.h; i++ {
			p.drawnFor = append(p.drawnFor, p.at(p.list.offset+int64(i)))
		}
	}
}

// sameEntries says whether the visible entries are those drawn.
func (p *eventsPane) sameEntries() bool {
	if len(p.drawnFor) != max(p.list.h, 0) {
		return false
	}
	for i, e := range p.drawnFor {
		if p.at(p.list.offset+int64(i)) != e {
			return false
		}
	}
	return true
}

// entry is what one line of the pane stands for: a row, and how many
// completions it counts (see [rowFilter]).
type entry struct {
	r    *fold.Row
	asks int32
}

// rowCols are a row's kind and text columns.
type rowCols struct{ kind, text string }

// colsKey is what the visible rows depend on.
type colsKey struct {
	st                   *fold.State
	offset, first, total int64
	h                    int
	floor                int
}

type eventPaints struct{ sel, subtle, muted, text, warn, fail panes.Paint }

func newEventsPane(c *panes.Common, keys *panes.EventsKeyMap) eventsPane {
	p := eventsPane{Common: c, keys: keys, list: newStreamList()}
	p.restyle()
	return p
}

// Focus gives the pane the keys, or takes them.
func (p *eventsPane) Focus(on bool) { p.focused = on }

// restyle paints with the styles of the theme now.
func (p *eventsPane) restyle() {
	s := p.Sty
	p.pt = eventPaints{sel: panes.NewPaint(s.Selected.Render), subtle: panes.NewPaint(s.Subtle.Render), muted: panes.NewPaint(s.Muted.Render),
		text: panes.NewPaint(s.Text.Render), warn: panes.NewPaint(s.Warn.Render), fail: panes.NewPaint(s.Fail.Render)}
}

func (p *eventsPane) SetSize(w, h int) {
	p.w, p.h = w, h
	p.list.SetHeight(h - 1)
	p.say()
}

// Sync follows new rows.
func (p *eventsPane) Sync() {
	p.filter.sync(p.St)
	p.list.Sync(p.filter.bounds())
	p.say()
}

// at returns the entry at list number n; its row is nil past the end.
func (p *eventsPane) at(n int64) entry {
	r, asks := p.filter.row(n)
	return entry{r, asks}
}

// Update handles keys while the pane has focus.
func (p eventsPane) Update(msg tea.Msg) (eventsPane, tea.Cmd) {
	if msg, ok := msg.(tea.KeyPressMsg); ok {
		if key.Matches(msg, p.keys.Level) {
			p.filter.next()
			p.list = newStreamList()
			p.list.SetHeight(p.h - 1)
			p.Sync()
			return p, nil
		}
		panes.MoveKey(msg, &p.keys.MoveKeyMap, &p.list)
		p.say()
	}
	return p, nil
}

// SelectedRow is the row under the cursor, or nil.
func (p *eventsPane) SelectedRow() *fold.Row {
	n := p.list.Selected()
	if n < 0 {
		return nil
	}
	return p.at(n).r
}

// Wheel scrolls by n rows.
func (p *eventsPane) Wheel(n int) {
	p.list.Move(n)
	p.say()
}

// say puts the visible rows in words, when they changed.
func (p *eventsPane) say() {
	rows := p.St.Rows()
	k := colsKey{st: p.St, offset: p.list.offset, first: rows.First(), total: rows.Total(), h: p.list.h, floor: p.filter.floor}
	if k == p.colsFor && p.cols != nil {
		return
	}
	cols := make(map[entry]rowCols, p.list.h)
	for i := 0; i < p.list.h; i++ {
		e := p.at(p.list.offset + int64(i))
		if e.r == nil {
			continue
		}
		c, ok := p.cols[e]
		if !ok {
			c = e.cols()
		}
		cols[e] = c
	}
	p.cols, p.colsFor = cols, k
}

// View renders the title and the visible rows, as Predraw drew them when
// nothing they show changed since.
func (p *eventsPane) View() string {
	if p.drawn != "" && p.drawKey() == p.drawnKey && p.sameEntries() {
		return p.drawn
	}
	return p.draw()
}

func (p *eventsPane) draw() string {
	s := p.Sty
	title := p.TitleStyle(p.focused)
	head := title.Render("Events") + " " + s.Muted.Render(fmt.Sprint(p.St.Rows().Total()))
	if p.filter.on() {
		first, total := p.filter.bounds()
		head += s.Warn.Render(fmt.Sprintf(" · %d log messages at %s or above", total-first, logFloors()[p.filter.floor]))
	}
	if !p.list.follow {
		head += s.Subtle.Render(" · paused, G follows")
	}
	lines := []string{render.Fit(head, p.w)}
	sel := p.list.Selected()
	for i := 0; i < p.list.h; i++ {
		n := p.list.offset + int64(i)
		e := p.at(n)
		if e.r == nil {
			lines = append(lines, strings.Repeat(" ", p.w))
			continue
		}
		lines = append(lines, p.row(e, p.focused && n == sel))
	}
	return strings.Join(lines, "\n")
}

// cols says the entry in its two columns.
func (e entry) cols() rowCols {
	kind, text := render.RowText(e.r)
	return rowCols{kind: kind, text: asksText(text, e.asks)}
}

func (p *eventsPane) row(e entry, selected bool) string {
	r := e.r
	ts := render.Clock(r.T, p.Loc)
	c, ok := p.cols[e]
	if !ok {
		c = e.cols()
	}
	kind, text := fmt.Sprintf("%-10s", render.Trunc(c.kind, 10)), c.text
	tw := max(p.w-1-len(ts)-1-10-1, 4)
	text = render.Trunc(text, tw)
	pad := strings.Repeat(" ", max(tw-ansi.StringWidth(text), 0))
	pt := &p.pt
	if selected {
		return pt.sel.On(" " + ts + " " + kind + " " + text + pad)
	}
	ks, xs := pt.muted, pt.text
	switch {
	case r.Level == fold.LevelWarn:
		ks = pt.warn
	case r.Level == fold.LevelError:
		ks, xs = pt.fail, pt.fail
	case r.Kind == fold.RowStderr:
		xs = pt.muted
	}
	return " " + pt.subtle.On(ts) + " " + ks.On(kind) + " " + xs.On(text) + pad
}

// ShortHelp returns the pane's bindings for the help line.
func (p *eventsPane) ShortHelp() []key.Binding {
	k := p.keys
	g := p.Global
	return []key.Binding{k.Open, g.Copy, k.Level, k.Up, k.Down, k.Bottom, g.NextPane, g.Walk, g.Export, g.Help, g.Quit}
}
