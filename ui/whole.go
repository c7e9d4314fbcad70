package ui

import (
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"mcpwitness/fold"
	"mcpwitness/render"
	"mcpwitness/themes"
	"mcpwitness/ui/panes"
)

// wholeView shows one event opened whole, in the place of the detail
// pane: its time, where it came from, all it says and the wire frames it
// relates to. Esc returns to the detail pane.
type wholeView struct {
	*panes.Common
	keys *panes.WholeKeyMap
	w, h int

	row    *fold.Row // nil while closed
	x      render.Whole
	sc     panes.Scroller
	builds panes.Builds[wholeKey]
}

// wholeKey is what the document was built for.
type wholeKey struct {
	row *fold.Row
	w   int
	sty *themes.Styles
}

func newWholeView(c *panes.Common, keys *panes.WholeKeyMap) wholeView {
	return wholeView{Common: c, keys: keys}
}

// Shown says whether an event is open.
func (v *wholeView) Shown() bool { return v.row != nil }

// Row is the event open, or nil.
func (v *wholeView) Row() *fold.Row { return v.row }

// Open shows r whole, with what else is known of it; Sync builds its
// document.
func (v *wholeView) Open(r *fold.Row, x render.Whole) {
	v.row, v.x = r, x
	v.sc.Home()
}

// Close goes back to the detail pane.
func (v *wholeView) Close() {
	v.row, v.x, v.builds = nil, render.Whole{}, panes.Builds[wholeKey]{}
}

// SetSize sizes the view: a title line over the document.
func (v *wholeView) SetSize(w, h int) {
	v.w, v.h = w, h
	v.sc.SetSize(w, h-1)
}

// wholeBuiltMsg carries an event's document built in a command.
type wholeBuiltMsg struct {
	key    wholeKey
	lines  []string
	widest int
}

// Sync builds the document again when the event, the width or the styles
// changed. A row's text is bounded, and so are the frames shown in full;
// a call's arguments and answer are not: past [bigDoc] of them the
// document is built in a command, the view keeping the event's document
// (or saying it is rendering a new event's) until it comes.
func (v *wholeView) Sync() tea.Cmd {
	if v.row == nil {
		return nil
	}
	k := wholeKey{row: v.row, w: v.w, sty: v.Sty}
	if !v.builds.Want(k) {
		return nil
	}
	build, size := wholeBuilder(v.row, v.x, k, v.Loc)
	if size <= panes.BigDoc {
		v.sc.SetWide(build())
		v.builds.Shown(k)
		return nil
	}
	v.builds.Pending = k
	if v.builds.Built.row != k.row {
		v.builds.Built = wholeKey{}
		v.sc.SetLines([]string{v.Sty.Muted.Render("rendering…")})
	}
	return func() tea.Msg {
		lines, widest := build()
		return wholeBuiltMsg{key: k, lines: lines, widest: widest}
	}
}

// take shows a document built in a command, if it is still the one
// wanted.
func (v *wholeView) take(msg wholeBuiltMsg) {
	if v.row != nil && v.builds.Came(msg.key) {
		v.sc.SetWide(msg.lines, msg.widest)
	}
}

// wholeBuilder returns a function that builds the document of r whole
// for k and measures it, from copies made now (so that it may run on
// another goroutine), and how many bytes of a call's arguments and
// answer it shows.
func wholeBuilder(r *fold.Row, x render.Whole, k wholeKey, loc *time.Location) (build func() ([]string, int), size int) {
	row := *r
	if c := x.Call; c != nil {
		cc := *c
		cc.Verdicts = slices.Clone(c.Verdicts)
		x.Call = &cc
		size = len(cc.Args) + len(cc.Result) + len(cc.RPCError)
	}
	x.Frames = slices.Clone(x.Frames)
	return func() ([]string, int) {
		lines := render.RowDoc(&row, x, max(k.w-2, 10), k.sty, loc)
		return lines, panes.MeasureLines(lines)
	}, size
}

// Copy is what y copies of the open event: the section in view of a
// call, else the event.
func (v *wholeView) Copy() render.Copy {
	if cp, ok := verdictCopy(v.row, v.x); ok {
		return cp
	}
	if v.row.Kind == fold.RowCall && v.row.Call != nil {
		c := v.row.Call
		if v.x.Call != nil {
			c = v.x.Call
		}
		return render.CallCopy(c, sectionAt(&v.sc))
	}
	cp := render.RowCopy(v.row)
	if cp.What == render.CopyEvent {
		cp.Text = render.ClockMs(v.row.T, v.Loc) + " " + cp.Text
	}
	return cp
}

// View draws the title and the document's window, exactly h rows.
func (v *wholeView) View() string {
	s := v.Sty
	title := "Event"
	if v.x.Verdict != nil {
		title = "Verdict"
	}
	// The marks of more to either side come first: a narrow pane cuts
	// the end of the line.
	head := v.TitleStyle(true).Render(title) + s.Muted.Render(" whole") + s.Subtle.Render(panes.SidewaysMark(v.sc.Sideways())+" · esc returns")
	if v.sc.More() {
		head += s.Subtle.Render(" · more below")
	}
	return render.Fit(head, v.w) + "\n" + v.sc.View()
}

// ShortHelp returns the view's bindings for the help line.
func (v *wholeView) ShortHelp() []key.Binding {
	k, g := v.keys, v.Global
	return []key.Binding{k.Close, g.Copy, k.Down, k.Right, g.NextPane, g.Help, g.Quit}
}

// headings are the section titles of the documents y copies from.
var headings = []string{"Verdicts", "Arguments", "Error", "JSON-RPC error", "structuredContent", "_meta", "Result",
	"Input schema", "Output schema", "Execution", "Annotations", "Content (", "Calls (", "Text", "Params", "Wire frames ("}

// sectionAt names the section of sc's document in view: the nearest
// heading at or above the top line of its window, "" above the first.
func sectionAt(sc *panes.Scroller) string {
	for i := min(sc.Offset(), sc.Len()-1); i >= 0; i-- {
		line := strings.TrimSpace(ansi.Strip(lineAt(sc, i)))
		for _, h := range headings {
			if line == h || strings.HasSuffix(h, "(") && strings.HasPrefix(line, h) {
				return line
			}
		}
	}
	return ""
}

// openWhole opens the event selected in the events pane whole, in the
// place of the detail pane, and gives it the keys.
func (m *model) openWhole() tea.Cmd {
	r := m.events.SelectedRow()
	if r == nil {
		return m.setStatus("no event selected", levelInfo)
	}
	x := render.Whole{Frames: relatedFrames(m.St, r, 24)}
	if srv := m.St.Server(); srv != nil {
		x.Server = srv.Name
	}
	if r.Kind == fold.RowCall && r.Call != nil {
		x.Call = m.St.Call(r.Call.ID)
		x.Tool = toolNamed(m.St, r.Call.Tool)
	}
	m.whole.Open(r, x)
	if m.mode == modeWire {
		m.mode = modeNormal
	}
	m.setFocus(paneDetail)
	return nil
}

// toolNamed is the definition of the tool named name in the latest walk
// of tools, or nil.
func toolNamed(st *fold.State, name string) *fold.Tool {
	w := st.LatestTools()
	if w == nil {
		return nil
	}
	for _, t := range w.Tools {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// relatedFrames finds, oldest first, up to most wire frames row r
// relates to: a call's request and answer (by request id); a walk's
// requests and their answers while it ran; the frame that carried a
// notification, a log message or a server's request.
func relatedFrames(st *fold.State, r *fold.Row, most int) []*fold.Frame {
	frames := st.Frames()
	q := frameQuery{ids: map[string]bool{}}
	if !q.of(r) {
		return nil
	}
	q.requests(frames, r.T)
	q.answers(frames)
	picked := q.picked
	slices.Sort(picked)
	if len(picked) > most {
		picked = picked[len(picked)-most:]
	}
	out := make([]*fold.Frame, len(picked))
	for i, n := range picked {
		out[i] = frames.Abs(n)
	}
	return out
}

// frameQuery is what [relatedFrames] looks for: requests of method (or
// the frame that carried an event), frames with one of ids (answers, a
// call's request), none older than lo; picked are the frames found.
type frameQuery struct {
	ids    map[string]bool
	method string
	// lo is the oldest frame time that may relate; zero: the newest
	// match only.
	lo     time.Time
	picked []int64
}

// of sets what to look for from row r; false when r relates to no frame.
func (q *frameQuery) of(r *fold.Row) bool {
	switch {
	case r.Kind == fold.RowCall && r.Call != nil && r.Call.RequestID != "":
		q.ids[r.Call.RequestID] = true
		q.lo = r.Call.Start.Add(-time.Second)
	case r.Kind == fold.RowConnect:
		q.method = "initialize"
	case r.Kind == fold.RowWalk && r.Walk != nil:
		q.method = r.Walk.Method
		q.lo = r.T.Add(-time.Duration(r.Walk.Ms*float64(time.Millisecond)) - time.Second)
	case r.Method != "":
		q.method = r.Method
	default:
		return false
	}
	return true
}

// requests picks the requests of q.method (or the one frame that carried
// the event), newest first, back from at.
func (q *frameQuery) requests(frames *fold.Ring[*fold.Frame], at time.Time) {
	for n := frames.Total() - 1; n >= frames.First() && q.method != ""; n-- {
		f := frames.Abs(n)
		if f.T.After(at) {
			continue
		}
		if !q.lo.IsZero() && f.T.Before(q.lo) {
			return
		}
		if f.Method != q.method {
			continue
		}
		q.picked = append(q.picked, n)
		if f.ID != "" {
			q.ids[f.ID] = true
		}
		if q.lo.IsZero() {
			q.lo = f.T // its answer, if any, is no older
			return
		}
	}
}

// answers picks the answers to the requests picked, and a call's request
// and answer.
func (q *frameQuery) answers(frames *fold.Ring[*fold.Frame]) {
	for n := frames.Total() - 1; n >= frames.First() && len(q.ids) > 0 && !q.lo.IsZero(); n-- {
		f := frames.Abs(n)
		if f.T.Before(q.lo) {
			return
		}
		if f.ID != "" && q.ids[f.ID] && (q.method == "" || f.Method != q.method) {
			q.picked = append(q.picked, n)
		}
	}
}

// lineAt is line i of sc's content, "" past its end.
func lineAt(sc *panes.Scroller, i int) string {
	l, _ := sc.Line(i)
	return l
}
