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
)

// wholeView shows one event opened whole, in the place of the detail
// pane: its time, where it came from, all it says and the wire frames it
// relates to. Esc returns to the detail pane.
type wholeView struct {
	*common
	keys *WholeKeyMap
	w, h int

	row   *fold.Row // nil while closed
	x     render.Whole
	sc    scroller
	built wholeKey
}

// wholeKey is what the document was built for.
type wholeKey struct {
	row *fold.Row
	w   int
	sty *themes.Styles
}

func newWholeView(c *common, keys *WholeKeyMap) wholeView {
	return wholeView{common: c, keys: keys}
}

// Shown says whether an event is open.
func (v *wholeView) Shown() bool { return v.row != nil }

// Row is the event open, or nil.
func (v *wholeView) Row() *fold.Row { return v.row }

// Open shows r whole, with what else is known of it.
func (v *wholeView) Open(r *fold.Row, x render.Whole) {
	v.row, v.x = r, x
	v.sc.Home()
	v.Sync()
}

// Close goes back to the detail pane.
func (v *wholeView) Close() { v.row, v.x, v.built = nil, render.Whole{}, wholeKey{} }

// SetSize sizes the view: a title line over the document.
func (v *wholeView) SetSize(w, h int) {
	v.w, v.h = w, h
	v.sc.SetSize(w, h-1)
	v.Sync()
}

// Sync builds the document again when the event, the width or the styles
// changed. An event's document is small: a row's text is bounded, and so
// are the frames shown in full.
func (v *wholeView) Sync() {
	if v.row == nil {
		return
	}
	k := wholeKey{row: v.row, w: v.w, sty: v.sty}
	if k == v.built {
		return
	}
	lines := render.RowDoc(v.row, v.x, max(v.w-2, 10), v.sty, v.loc)
	v.sc.SetWide(lines, measureLines(lines))
	v.built = k
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
		cp.Text = render.ClockMs(v.row.T, v.loc) + " " + cp.Text
	}
	return cp
}

// View draws the title and the document's window, exactly h rows.
func (v *wholeView) View() string {
	s := v.sty
	title := "Event"
	if v.x.Verdict != nil {
		title = "Verdict"
	}
	// The marks of more to either side come first: a narrow pane cuts
	// the end of the line.
	head := v.titleStyle(true).Render(title) + s.Muted.Render(" whole") + s.Subtle.Render(sidewaysMark(v.sc.Sideways())+" · esc returns")
	if v.sc.more() {
		head += s.Subtle.Render(" · more below")
	}
	return render.Fit(head, v.w) + "\n" + v.sc.View()
}

// ShortHelp returns the view's bindings for the help line.
func (v *wholeView) ShortHelp() []key.Binding {
	k, g := v.keys, v.global
	return []key.Binding{k.Close, g.Copy, k.Down, k.Right, g.NextPane, g.Help, g.Quit}
}

// headings are the section titles of the documents y copies from.
var headings = []string{"Verdicts", "Arguments", "Error", "JSON-RPC error", "structuredContent", "_meta", "Result",
	"Input schema", "Output schema", "Execution", "Annotations", "Content (", "Calls (", "Text", "Params", "Wire frames ("}

// sectionAt names the section of sc's document in view: the nearest
// heading at or above the top line of its window, "" above the first.
func sectionAt(sc *scroller) string {
	for i := min(sc.off, len(sc.lines)-1); i >= 0; i-- {
		line := strings.TrimSpace(ansi.Strip(sc.lines[i]))
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
	x := render.Whole{Frames: relatedFrames(m.st, r, 24)}
	if srv := m.st.Server(); srv != nil {
		x.Server = srv.Name
	}
	if r.Kind == fold.RowCall && r.Call != nil {
		x.Call = m.st.Call(r.Call.ID)
		x.Tool = toolNamed(m.st, r.Call.Tool)
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
