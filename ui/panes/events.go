package panes

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"mcpwitness/fold"
	"mcpwitness/render"
	"mcpwitness/themes"
)

// EventsPane lists what happened besides frames: stderr, log messages,
// notifications, list changes and the walks they started, calls, errors.
type EventsPane struct {
	*Common
	Keys *EventsKeyMap
	w, H int

	focused bool
	List    StreamList
	Filter  rowFilter // the level filter
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
	focused, Follow bool
	sty             *themes.Styles
	entries         int64
}

func (p *EventsPane) drawKey() eventsDrawKey {
	first, total := p.Filter.Bounds()
	return eventsDrawKey{cols: p.colsFor, sel: p.List.Selected(), w: p.w, focused: p.focused, Follow: p.List.Follow, sty: p.Sty, entries: total - first}
}

// Predraw draws the pane again when what it shows changed, in Update: a
// walk's pages and frames add no rows, and cost a comparison.
func (p *EventsPane) Predraw() {
	if k := p.drawKey(); k != p.drawnKey || p.drawn == "" || !p.sameEntries() {
		p.drawn, p.drawnKey = p.Draw(), k
		p.drawnFor = p.drawnFor[:0]
		for i := 0; i < p.List.H; i++ {
			p.drawnFor = append(p.drawnFor, p.at(p.List.Offset+int64(i)))
		}
	}
}

// sameEntries says whether the visible entries are those drawn.
func (p *EventsPane) sameEntries() bool {
	if len(p.drawnFor) != max(p.List.H, 0) {
		return false
	}
	for i, e := range p.drawnFor {
		if p.at(p.List.Offset+int64(i)) != e {
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
type rowCols struct{ kind, Text string }

// colsKey is what the visible rows depend on.
type colsKey struct {
	st                   *fold.State
	Offset, first, total int64
	H                    int
	Floor                int
}

type eventPaints struct{ sel, subtle, muted, Text, warn, fail Paint }

func NewEventsPane(c *Common, keys *EventsKeyMap) EventsPane {
	p := EventsPane{Common: c, Keys: keys, List: NewStreamList()}
	p.Restyle()
	return p
}

// Focus gives the pane the keys, or takes them.
func (p *EventsPane) Focus(on bool) { p.focused = on }

// Restyle paints with the styles of the theme now.
func (p *EventsPane) Restyle() {
	s := p.Sty
	p.pt = eventPaints{sel: NewPaint(s.Selected.Render), subtle: NewPaint(s.Subtle.Render), muted: NewPaint(s.Muted.Render),
		Text: NewPaint(s.Text.Render), warn: NewPaint(s.Warn.Render), fail: NewPaint(s.Fail.Render)}
}

func (p *EventsPane) SetSize(w, h int) {
	p.w, p.H = w, h
	p.List.SetHeight(h - 1)
	p.say()
}

// Sync follows new rows.
func (p *EventsPane) Sync() {
	p.Filter.sync(p.St)
	p.List.Sync(p.Filter.Bounds())
	p.say()
}

// at returns the entry at list number n; its row is nil past the end.
func (p *EventsPane) at(n int64) entry {
	r, asks := p.Filter.row(n)
	return entry{r, asks}
}

// Update handles keys while the pane has focus.
func (p EventsPane) Update(msg tea.Msg) (EventsPane, tea.Cmd) {
	if msg, ok := msg.(tea.KeyPressMsg); ok {
		if key.Matches(msg, p.Keys.Level) {
			p.Filter.next()
			p.List = NewStreamList()
			p.List.SetHeight(p.H - 1)
			p.Sync()
			return p, nil
		}
		MoveKey(msg, &p.Keys.MoveKeyMap, &p.List)
		p.say()
	}
	return p, nil
}

// SelectedRow is the row under the cursor, or nil.
func (p *EventsPane) SelectedRow() *fold.Row {
	n := p.List.Selected()
	if n < 0 {
		return nil
	}
	return p.at(n).r
}

// Wheel scrolls by n rows.
func (p *EventsPane) Wheel(n int) {
	p.List.Move(n)
	p.say()
}

// say puts the visible rows in words, when they changed.
func (p *EventsPane) say() {
	rows := p.St.Rows()
	k := colsKey{st: p.St, Offset: p.List.Offset, first: rows.First(), total: rows.Total(), H: p.List.H, Floor: p.Filter.Floor}
	if k == p.colsFor && p.cols != nil {
		return
	}
	cols := make(map[entry]rowCols, p.List.H)
	for i := 0; i < p.List.H; i++ {
		e := p.at(p.List.Offset + int64(i))
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
func (p *EventsPane) View() string {
	if p.drawn != "" && p.drawKey() == p.drawnKey && p.sameEntries() {
		return p.drawn
	}
	return p.Draw()
}

func (p *EventsPane) Draw() string {
	s := p.Sty
	title := p.TitleStyle(p.focused)
	head := title.Render("Events") + " " + s.Muted.Render(fmt.Sprint(p.St.Rows().Total()))
	if p.Filter.on() {
		first, total := p.Filter.Bounds()
		head += s.Warn.Render(fmt.Sprintf(" · %d log messages at %s or above", total-first, LogFloors()[p.Filter.Floor]))
	}
	if !p.List.Follow {
		head += s.Subtle.Render(" · paused, G follows")
	}
	lines := []string{render.Fit(head, p.w)}
	sel := p.List.Selected()
	for i := 0; i < p.List.H; i++ {
		n := p.List.Offset + int64(i)
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
	return rowCols{kind: kind, Text: asksText(text, e.asks)}
}

func (p *EventsPane) row(e entry, selected bool) string {
	r := e.r
	ts := render.Clock(r.T, p.Loc)
	c, ok := p.cols[e]
	if !ok {
		c = e.cols()
	}
	kind, text := fmt.Sprintf("%-10s", render.Trunc(c.kind, 10)), c.Text
	tw := max(p.w-1-len(ts)-1-10-1, 4)
	text = render.Trunc(text, tw)
	pad := strings.Repeat(" ", max(tw-ansi.StringWidth(text), 0))
	pt := &p.pt
	if selected {
		return pt.sel.On(" " + ts + " " + kind + " " + text + pad)
	}
	ks, xs := pt.muted, pt.Text
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
func (p *EventsPane) ShortHelp() []key.Binding {
	k := p.Keys
	g := p.Global
	return []key.Binding{k.Open, g.Copy, k.Level, k.Up, k.Down, k.Bottom, g.NextPane, g.Walk, g.Export, g.Help, g.Quit}
}
