package ui

import (
	"fmt"
	"mcpwitness/ui/panes"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"mcpwitness/fold"
	"mcpwitness/render"

	"mcpwitness/record"
	"mcpwitness/themes"
)

// frameKey is what a frame document was built from.
type frameKey struct {
	n     int64
	width int
	sty   *themes.Styles
}

// frameBuiltMsg carries a frame document built in a command, and the
// frame's bytes when they were read from the session file for it.
type frameBuiltMsg struct {
	key  frameKey
	doc  detailDoc
	read fold.Frame
}

// wirePane lists every frame in and out (the newest [fold.MaxFrames]) and
// shows the selected one pretty-printed.
type wirePane struct {
	*panes.Common
	keys *panes.WireKeyMap
	w, h int

	focused  bool
	onFrame  bool // the frame view, not the list, has the keys
	list     panes.StreamList
	frame    panes.Scroller
	built    frameKey
	building frameKey
	// load reads event i of the session file, for frames a lean state
	// does not keep; read is the last frame read back, for y.
	load func(i int) (record.Event, error)
	read fold.Frame
}

func newWirePane(c *panes.Common, keys *panes.WireKeyMap) wirePane {
	return wirePane{Common: c, keys: keys, list: panes.NewStreamList()}
}

// Focus gives the pane the keys (the frame view's when frame), or takes
// them.
func (p *wirePane) Focus(on, frame bool) { p.focused, p.onFrame = on, on && frame }

// Busy says whether a frame document is being built in a command.
func (p *wirePane) Busy() bool { return p.building != (frameKey{}) }

// SetReplay makes the pane read frames a lean state does not keep back
// from the session file, with load.
func (p *wirePane) SetReplay(load func(i int) (record.Event, error)) { p.load = load }

func (p *wirePane) listRows() int { return max((p.h-2)*2/5, 3) }

func (p *wirePane) SetSize(w, h int) {
	p.w, p.h = w, h
	p.list.SetHeight(p.listRows())
	// Below the list: its title, its rows and the frame's title.
	p.frame.SetSize(w, h-p.list.H-2)
}

// Selected returns the selected frame, or nil.
func (p *wirePane) Selected() *fold.Frame {
	n := p.list.Selected()
	if n < 0 {
		return nil
	}
	return p.St.Frames().Abs(n)
}

// Sync follows new frames and rebuilds the frame view when the selection
// changed. A big frame is built in a command.
func (p *wirePane) Sync() tea.Cmd {
	p.list.Sync(p.St.Frames().First(), p.St.Frames().Total())
	k := frameKey{n: p.list.Selected(), width: p.w, sty: p.Sty}
	if k == p.built || k == p.building {
		return nil
	}
	f := p.Selected()
	if f == nil {
		p.frame.SetLines(nil)
		p.built = k
		return nil
	}
	ff, st, loc, w := *f, p.Sty, p.Loc, max(p.w-2, 10)
	// The frame's JSON keeps its lines whole and scrolls sideways (h/l), as
	// the detail pane's does; measured here, in the command for a big one.
	build := func() detailDoc {
		return measured(append(httpLines(ff.HTTP, w, st), render.FrameDoc(&ff, w, st, loc)...), nil)
	}
	if load := p.load; ff.Src > 0 && load != nil {
		p.building = k
		p.frame.SetLines([]string{st.Muted.Render("reading the frame…")})
		return func() tea.Msg {
			render.ReadFrame(&ff, load)
			return frameBuiltMsg{key: k, doc: build(), read: ff}
		}
	}
	if len(f.Frame) > bigDoc {
		p.building = k
		p.frame.SetLines([]string{st.Muted.Render("rendering…")})
		return func() tea.Msg { return frameBuiltMsg{key: k, doc: build()} }
	}
	if p.built.n != k.n {
		p.frame.Home()
	}
	doc := build()
	p.frame.SetWide(doc.lines, doc.widest)
	p.built, p.building = k, frameKey{}
	return nil
}

// Update handles keys while the pane has focus and built frames.
func (p wirePane) Update(msg tea.Msg) (wirePane, tea.Cmd) {
	switch msg := msg.(type) {
	case frameBuiltMsg:
		if msg.key == p.building {
			p.frame.Home()
			p.frame.SetWide(msg.doc.lines, msg.doc.widest)
			p.built, p.building = msg.key, frameKey{}
			p.read = msg.read
		}
	case tea.KeyPressMsg:
		k := p.keys
		if p.onFrame {
			if !sidewaysKey(msg, &k.SidewaysKeyMap, &p.frame) {
				panes.MoveKey(msg, &k.MoveKeyMap, &p.frame)
			}
			return p, nil
		}
		panes.MoveKey(msg, &k.MoveKeyMap, &p.list)
		return p, p.Sync()
	}
	return p, nil
}

// Copy is the selected frame's bytes as they went over the wire, for y
// (sanitised, see [model.copySelected]) and Y (raw); why says why there
// is nothing to copy yet.
func (p *wirePane) Copy() (cp render.Copy, why string) {
	f := p.Selected()
	if f == nil {
		return cp, "no frame selected"
	}
	if f.Src > 0 {
		if p.read.Src != f.Src {
			return cp, "the frame is still being read; try y again"
		}
		f = &p.read
	}
	text := string(f.Frame)
	if text == "" {
		text = f.Text
	}
	return render.Copy{What: "frame", Text: text}, ""
}

// Wheel scrolls the list (top part) or the frame (bottom part) at row y
// of the pane.
func (p *wirePane) Wheel(y, n int) tea.Cmd {
	if y <= p.listRows() {
		p.list.Move(n)
		return p.Sync()
	}
	p.frame.ScrollBy(n)
	return nil
}

// WheelX scrolls the frame sideways by n cells when row y of the pane is
// in it (a horizontal wheel); it says whether it was.
func (p *wirePane) WheelX(y, n int) bool {
	if y <= p.listRows() {
		return false
	}
	p.frame.ScrollX(n)
	return true
}

// View renders the list's visible rows and the selected frame.
func (p *wirePane) View() string {
	s := p.Sty
	title := p.TitleStyle(p.focused && !p.onFrame)
	kept := p.St.Frames().Len()
	head := title.Render("Wire") + " " + s.Muted.Render(fmt.Sprintf("%d frames", p.St.Frames().Total()))
	if p.St.Frames().First() > 0 {
		head += s.Subtle.Render(fmt.Sprintf(" · newest %d shown; the session record keeps all", kept))
	}
	lines := []string{render.Fit(head, p.w)}
	sel := p.list.Selected()
	for i := 0; i < p.list.H; i++ {
		n := p.list.Offset + int64(i)
		f := p.St.Frames().Abs(n)
		if f == nil {
			if i == 0 && kept == 0 {
				lines = append(lines, render.Fit(" "+s.Muted.Render("no frames yet"), p.w))
				continue
			}
			lines = append(lines, strings.Repeat(" ", p.w))
			continue
		}
		lines = append(lines, p.row(f, n == sel))
	}
	fh := p.TitleStyle(p.focused && p.onFrame).Render("Frame") + s.Subtle.Render(sidewaysMark(p.frame.Sideways()))
	if p.frame.More() {
		fh += s.Subtle.Render(" · more below")
	}
	lines = append(lines, render.Fit(fh, p.w))
	return strings.Join(lines, "\n") + "\n" + p.frame.View()
}

// row renders one frame in the list: direction, time, method, id, size and
// the latency of an answer.
func (p *wirePane) row(f *fold.Frame, selected bool) string {
	s := p.Sty
	dir, ds := "→", s.Send
	if f.Dir == record.Recv {
		dir, ds = "←", s.Recv
	}
	text := withHTTP(f.HTTP, p.w, func(w int) string { return render.FrameRow(f, w, p.Loc) })
	if selected {
		style := s.SelectedBlurred
		if p.focused && !p.onFrame {
			style = s.Selected
		}
		return render.Fit(style.Render(" "+dir+" "+text), p.w)
	}
	return render.Fit(" "+ds.Render(dir)+" "+s.Text.Render(text), p.w)
}

// ShortHelp returns the pane's bindings for the help line.
func (p *wirePane) ShortHelp() []key.Binding {
	k := p.keys
	g := p.Global
	out := []key.Binding{k.Up, k.Down, g.Copy}
	if p.onFrame {
		out = sidewaysHelp(out, &k.SidewaysKeyMap, &p.frame)
	}
	return append(out, g.NextPane, g.Wire, g.Export, g.Help, g.Quit)
}
