package ui

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"mcpwitness/fold"
	"mcpwitness/render"
)

// In the detail pane's call view, n and N pick a verdict (the next, the
// previous, in the order the document shows them); Enter or a click on
// the picked verdict opens it whole, with its paths, in the same view as
// an event opened whole, where y copies it. Enter with no verdict picked
// opens the editor, as before.

// Picked returns the index in the shown call's Verdicts of the verdict
// picked; ok is false when none is.
func (d *detailPane) Picked() (i int, ok bool) {
	c := d.Call()
	if d.pick == 0 || d.pick > len(d.doc.Spans) || c == nil {
		return 0, false
	}
	i = d.doc.Spans[d.pick-1].Index
	return i, i < len(c.Verdicts)
}

// PickVerdict moves the pick by dir (+1 the next verdict, -1 the
// previous), from none to the first or last and past either end back to
// none, and scrolls the picked one into view.
func (d *detailPane) PickVerdict(dir int) {
	n := len(d.doc.Spans)
	if n == 0 || d.Call() == nil {
		return
	}
	d.pick = (d.pick + dir + n + 1) % (n + 1)
	d.remark()
	if d.pick > 0 {
		d.showSpan(d.doc.Spans[d.pick-1])
	}
}

// showSpan scrolls the document so that the lines of s are in view, its
// first line at least.
func (d *detailPane) showSpan(s render.VerdictSpan) {
	d.sc.ShowSpan(s.From, s.To)
}

// markedLines are the document's lines with the picked verdict's first
// line drawn selected; without a pick, the lines as built.
func (d *detailPane) markedLines() []string {
	if d.pick == 0 || d.pick > len(d.doc.Spans) {
		return d.doc.Lines
	}
	s := d.doc.Spans[d.pick-1]
	if s.From >= len(d.doc.Lines) {
		return d.doc.Lines
	}
	out := slices.Clone(d.doc.Lines)
	line := ansi.Strip(out[s.From])
	if len(line) > 0 && line[0] == ' ' {
		line = "▸" + line[1:]
	}
	out[s.From] = d.Sty.Selected.Render(line)
	return out
}

// verdictAt is the place among the document's verdicts (from 1) of the
// one drawn at row y of the pane (its title is row 0), 0 for none.
func (d *detailPane) verdictAt(y int) int {
	n := d.sc.Offset() + y - 1 - d.liveRows()
	if y < 1+d.liveRows() || n >= len(d.doc.Lines) {
		return 0
	}
	for i, s := range d.doc.Spans {
		if n >= s.From && n < s.To {
			return i + 1
		}
	}
	return 0
}

// verdictKey takes the keys of the verdicts of the call shown in the
// focused detail pane: n and N pick, Enter opens the picked one whole.
// ok is false for any other key, and for Enter with none picked.
func (m *model) verdictKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if m.mode != modeNormal || m.tab != tabTools || m.focus != paneDetail || m.whole.Shown() || m.detail.Call() == nil {
		return nil, false
	}
	if m.replay != nil && !m.replay.Loaded() {
		return nil, false
	}
	k := &m.keys.Detail
	switch {
	case key.Matches(msg, k.NextVerdict):
		m.detail.PickVerdict(1)
	case key.Matches(msg, k.PrevVerdict):
		m.detail.PickVerdict(-1)
	case key.Matches(msg, k.OpenVerdict):
		if _, ok := m.detail.Picked(); !ok {
			return nil, false
		}
		return m.openVerdict(), true
	default:
		return nil, false
	}
	return nil, true
}

// clickVerdict takes a left click on a verdict of the call shown in the
// detail pane: the first click picks it (and focuses the pane), a click
// on the picked one opens it whole. ok is false for a click elsewhere.
func (m *model) clickVerdict(ms tea.Mouse) (tea.Cmd, bool) {
	l := m.lay
	switch {
	case ms.Button != tea.MouseLeft || m.mode != modeNormal || m.tab != tabTools || m.whole.Shown() || m.detail.Call() == nil,
		m.replay != nil && !m.replay.Loaded(),
		ms.Y < l.bodyTop || ms.Y >= l.bodyTop+l.bodyH,
		l.stacked && m.focus != paneDetail, !l.stacked && ms.X < l.leftW+3:
		return nil, false
	}
	at := m.detail.verdictAt(ms.Y - l.bodyTop)
	if at == 0 {
		return nil, false
	}
	m.setFocus(paneDetail)
	if at == m.detail.pick {
		return m.openVerdict(), true
	}
	m.detail.pick = at
	m.detail.remark()
	return nil, true
}

// openVerdict opens the picked verdict of the call shown whole, in the
// place of the detail pane: the verdict with its paths, the call it
// judged and the wire frames of that call.
func (m *model) openVerdict() tea.Cmd {
	c := m.detail.Call()
	i, ok := m.detail.Picked()
	if !ok {
		return m.setStatus("no verdict picked: n picks one", levelInfo)
	}
	v := c.Verdicts[i]
	r := verdictRow(c)
	x := render.Whole{Call: c, Tool: m.detail.Tool(), Frames: relatedFrames(m.St, r, 24), Verdict: &v}
	if srv := m.St.Server(); srv != nil {
		x.Server = srv.Name
	}
	m.whole.Open(r, x)
	m.setFocus(paneDetail)
	return nil
}

// verdictRow is a row of call c for its verdicts: at the call's end, or
// its start while it has none.
func verdictRow(c *fold.Call) *fold.Row {
	t := c.End
	if t.IsZero() {
		t = c.Start
	}
	return &fold.Row{T: t, Kind: fold.RowCall, Call: c}
}

// verdictCopy is what y copies of a verdict opened whole, ok false when
// x opens no verdict.
func verdictCopy(r *fold.Row, x render.Whole) (render.Copy, bool) {
	if x.Verdict == nil || r == nil || r.Call == nil {
		return render.Copy{}, false
	}
	return render.VerdictCopy(r.Call, *x.Verdict), true
}
