package panes

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"mcpwitness/fold"
	"mcpwitness/render"

	"mcpwitness/record"
	"mcpwitness/themes"
)

// FrameKey is what a frame document was built from.
type FrameKey struct {
	n     int64
	Width int
	sty   *themes.Styles
}

// FrameBuiltMsg carries a frame document built in a command, and the
// frame's bytes when they were read from the session file for it.
type FrameBuiltMsg struct {
	key  FrameKey
	doc  DetailDoc
	read fold.Frame
}

// WirePane lists every frame in and out (the newest [fold.MaxFrames]) and
// shows the selected one pretty-printed.
type WirePane struct {
	*Common
	keys *WireKeyMap
	w, h int

	focused  bool
	OnFrame  bool // the frame view, not the list, has the keys
	List     StreamList
	Frame    Scroller
	Built    FrameKey
	Building FrameKey
	// load reads event i of the session file, for frames a lean state
	// does not keep; read is the last frame read back, for y.
	load func(i int) (record.Event, error)
	read fold.Frame
}

func NewWirePane(c *Common, keys *WireKeyMap) WirePane {
	return WirePane{Common: c, keys: keys, List: NewStreamList()}
}

// Focus gives the pane the keys (the frame view's when frame), or takes
// them.
func (p *WirePane) Focus(on, frame bool) { p.focused, p.OnFrame = on, on && frame }

// Busy says whether a frame document is being built in a command.
func (p *WirePane) Busy() bool { return p.Building != (FrameKey{}) }

// SetReplay makes the pane read frames a lean state does not keep back
// from the session file, with load.
func (p *WirePane) SetReplay(load func(i int) (record.Event, error)) { p.load = load }

func (p *WirePane) listRows() int { return max((p.h-2)*2/5, 3) }

func (p *WirePane) SetSize(w, h int) {
	p.w, p.h = w, h
	p.List.SetHeight(p.listRows())
	// Below the list: its title, its rows and the frame's title.
	p.Frame.SetSize(w, h-p.List.H-2)
}

// Selected returns the selected frame, or nil.
func (p *WirePane) Selected() *fold.Frame {
	n := p.List.Selected()
	if n < 0 {
		return nil
	}
	return p.St.Frames().Abs(n)
}

// Sync follows new frames and rebuilds the frame view when the selection
// changed. A big frame is built in a command.
func (p *WirePane) Sync() tea.Cmd {
	p.List.Sync(p.St.Frames().First(), p.St.Frames().Total())
	k := FrameKey{n: p.List.Selected(), Width: p.w, sty: p.Sty}
	if k == p.Built || k == p.Building {
		return nil
	}
	f := p.Selected()
	if f == nil {
		p.Frame.SetLines(nil)
		p.Built = k
		return nil
	}
	ff, st, loc, w := *f, p.Sty, p.Loc, max(p.w-2, 10)
	// The frame's JSON keeps its lines whole and scrolls sideways (h/l), as
	// the detail pane's does; Measured here, in the command for a big one.
	build := func() DetailDoc {
		return Measured(append(httpLines(ff.HTTP, w, st), render.FrameDoc(&ff, w, st, loc)...), nil)
	}
	if load := p.load; ff.Src > 0 && load != nil {
		p.Building = k
		p.Frame.SetLines([]string{st.Muted.Render("reading the frame…")})
		return func() tea.Msg {
			render.ReadFrame(&ff, load)
			return FrameBuiltMsg{key: k, doc: build(), read: ff}
		}
	}
	if len(f.Frame) > BigDoc {
		p.Building = k
		p.Frame.SetLines([]string{st.Muted.Render("rendering…")})
		return func() tea.Msg { return FrameBuiltMsg{key: k, doc: build()} }
	}
	if p.Built.n != k.n {
		p.Frame.Home()
	}
	doc := build()
	p.Frame.SetWide(doc.Lines, doc.Widest)
	p.Built, p.Building = k, FrameKey{}
	return nil
}

// Update handles keys while the pane has focus and built frames.
func (p WirePane) Update(msg tea.Msg) (WirePane, tea.Cmd) {
	switch msg := msg.(type) {
	case FrameBuiltMsg:
		if msg.key == p.Building {
			p.Frame.Home()
			p.Frame.SetWide(msg.doc.Lines, msg.doc.Widest)
			p.Built, p.Building = msg.key, FrameKey{}
			p.read = msg.read
		}
	case tea.KeyPressMsg:
		k := p.keys
		if p.OnFrame {
			if !SidewaysKey(msg, &k.SidewaysKeyMap, &p.Frame) {
				MoveKey(msg, &k.MoveKeyMap, &p.Frame)
			}
			return p, nil
		}
		MoveKey(msg, &k.MoveKeyMap, &p.List)
		return p, p.Sync()
	}
	return p, nil
}

// Copy is the selected frame's bytes as they went over the wire, for y
// (sanitised, see [model.copySelected]) and Y (raw); why says why there
// is nothing to copy yet.
func (p *WirePane) Copy() (cp render.Copy, why string) {
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
func (p *WirePane) Wheel(y, n int) tea.Cmd {
	if y <= p.listRows() {
		p.List.Move(n)
		return p.Sync()
	}
	p.Frame.ScrollBy(n)
	return nil
}

// WheelX scrolls the frame sideways by n cells when row y of the pane is
// in it (a horizontal wheel); it says whether it was.
func (p *WirePane) WheelX(y, n int) bool {
	if y <= p.listRows() {
		return false
	}
	p.Frame.ScrollX(n)
	return true
}

// View renders the list's visible rows and the selected frame.
func (p *WirePane) View() string {
	s := p.Sty
	title := p.TitleStyle(p.focused && !p.OnFrame)
	kept := p.St.Frames().Len()
	head := title.Render("Wire") + " " + s.Muted.Render(fmt.Sprintf("%d frames", p.St.Frames().Total()))
	if p.St.Frames().First() > 0 {
		head += s.Subtle.Render(fmt.Sprintf(" · newest %d shown; the session record keeps all", kept))
	}
	lines := []string{render.Fit(head, p.w)}
	sel := p.List.Selected()
	for i := 0; i < p.List.H; i++ {
		n := p.List.Offset + int64(i)
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
	fh := p.TitleStyle(p.focused && p.OnFrame).Render("Frame") + s.Subtle.Render(SidewaysMark(p.Frame.Sideways()))
	if p.Frame.More() {
		fh += s.Subtle.Render(" · more below")
	}
	lines = append(lines, render.Fit(fh, p.w))
	return strings.Join(lines, "\n") + "\n" + p.Frame.View()
}

// row renders one frame in the list: direction, time, method, id, size and
// the latency of an answer.
func (p *WirePane) row(f *fold.Frame, selected bool) string {
	s := p.Sty
	dir, ds := "→", s.Send
	if f.Dir == record.Recv {
		dir, ds = "←", s.Recv
	}
	text := withHTTP(f.HTTP, p.w, func(w int) string { return render.FrameRow(f, w, p.Loc) })
	if selected {
		style := s.SelectedBlurred
		if p.focused && !p.OnFrame {
			style = s.Selected
		}
		return render.Fit(style.Render(" "+dir+" "+text), p.w)
	}
	return render.Fit(" "+ds.Render(dir)+" "+s.Text.Render(text), p.w)
}

// ShortHelp returns the pane's bindings for the help line.
func (p *WirePane) ShortHelp() []key.Binding {
	k := p.keys
	g := p.Global
	out := []key.Binding{k.Up, k.Down, g.Copy}
	if p.OnFrame {
		out = SidewaysHelp(out, &k.SidewaysKeyMap, &p.Frame)
	}
	return append(out, g.NextPane, g.Wire, g.Export, g.Help, g.Quit)
}
