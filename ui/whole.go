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
	v.sc.Top()
	v.sc.x = 0
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
	ids := map[string]bool{}
	var method string
	var lo time.Time // the oldest frame time that may relate; zero: the newest match only
	switch {
	case r.Kind == fold.RowCall && r.Call != nil && r.Call.RequestID != "":
		ids[r.Call.RequestID] = true
		lo = r.Call.Start.Add(-time.Second)
	case r.Kind == fold.RowConnect:
		method = "initialize"
	case r.Kind == fold.RowWalk && r.Walk != nil:
		method = r.Walk.Method
		lo = r.T.Add(-time.Duration(r.Walk.Ms*float64(time.Millisecond)) - time.Second)
	case r.Method != "":
		method = r.Method
	default:
		return nil
	}
	var picked []int64
	// Requests (or the one frame that carried the event), newest first,
	// back from the row's time.
	for n := frames.Total() - 1; n >= frames.First() && method != ""; n-- {
		f := frames.Abs(n)
		if f.T.After(r.T) {
			continue
		}
		if !lo.IsZero() && f.T.Before(lo) {
			break
		}
		if f.Method == method {
			picked = append(picked, n)
			if f.ID != "" {
				ids[f.ID] = true
			}
			if lo.IsZero() {
				lo = f.T // its answer, if any, is no older
				break
			}
		}
	}
	// Answers to them, and a call's request and answer.
	for n := frames.Total() - 1; n >= frames.First() && len(ids) > 0 && !lo.IsZero(); n-- {
		f := frames.Abs(n)
		if f.T.Before(lo) {
			break
		}
		if f.ID != "" && ids[f.ID] && (method == "" || f.Method != method) {
			picked = append(picked, n)
		}
	}
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
