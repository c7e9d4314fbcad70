package ui

import (
	"fmt"
	"image/color"
	"mcpwitness/ui/panes"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/progress"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"mcpwitness/fold"
	"mcpwitness/render"
	"mcpwitness/sanitize"

	"mcpwitness/record"
	"mcpwitness/themes"
)

// detailKey is what a detail document was built from; a new key means a
// rebuild.
type detailKey struct {
	tool   *fold.Tool
	call   int64
	rev    int
	ncalls int
	width  int
	sty    *themes.Styles
	held   bool
	stale  bool
	done   bool
	absent string
	// asks counts the server's requests recorded during the call shown.
	asks int
}

// docBuiltMsg carries a document built in a command.
type docBuiltMsg struct {
	key detailKey
	doc panes.DetailDoc
}

// detailPane shows the selected tool, or one of its calls.
type detailPane struct {
	// headDrawn is the title line as Predraw drew it for headFor.
	headDrawn string
	headFor   detailHead

	*panes.Common
	keys *panes.DetailKeyMap
	w, h int

	focused bool
	tool    *fold.Tool
	call    int64 // 0: the tool itself
	confirm bool  // asking before sending a refused call anyway
	// readOnly leaves out what needs a live server (a replay); load reads
	// event i of the session file, for what a lean state does not keep.
	readOnly bool
	load     func(i int) (record.Event, error)
	// absent names the tool picked in a replay that is not listed at the
	// point shown.
	absent string

	sc panes.Scroller
	// doc is the document as built; pick is the place (from 1) among its
	// verdicts of the one picked, 0 for none (see verdictpick.go).
	doc    panes.DetailDoc
	pick   int
	builds panes.Builds[detailKey]
	bar    progress.Model
}

func newDetailPane(c *panes.Common, keys *panes.DetailKeyMap) detailPane {
	d := detailPane{Common: c, keys: keys}
	d.restyle()
	return d
}

func (d *detailPane) restyle() { d.bar = newBar(d.Sty) }

// newBar returns a progress bar in the styles of s.
func newBar(s *themes.Styles) progress.Model {
	full, empty := s.ProgressFull, s.ProgressEmpty
	if full == nil {
		full = lipgloss.NoColor{}
	}
	if empty == nil {
		empty = lipgloss.NoColor{}
	}
	bar := progress.New(progress.WithFillCharacters('█', '░'), progress.WithoutPercentage(),
		progress.WithColors(color.Color(full)))
	bar.EmptyColor = empty
	return bar
}

// SetSize sizes the pane; the document scrolls below the title and the
// live lines.
func (d *detailPane) SetSize(w, h int) {
	d.w, d.h = w, h
	d.fit()
}

// fit sizes the document's scroller to the rows below the title and the
// live lines, whose number changes as a call runs or a question is asked.
func (d *detailPane) fit() { d.sc.SetSize(d.w, d.h-1-d.liveRows()) }

// ShowTool shows t's details.
func (d *detailPane) ShowTool(t *fold.Tool) {
	if d.tool != t || d.call != 0 {
		d.sc.Home()
		d.pick = 0
	}
	d.tool, d.call, d.confirm = t, 0, false
}

// ShowCall shows call id of t.
func (d *detailPane) ShowCall(t *fold.Tool, id int64) {
	if d.call != id {
		d.sc.Home()
		d.pick = 0
	}
	d.tool, d.call, d.confirm = t, id, false
}

// Focus gives the pane the keys, or takes them.
func (d *detailPane) Focus(on bool) { d.focused = on }

// Busy says whether a document is being built in a command.
func (d *detailPane) Busy() bool { return d.builds.Busy() }

// SetReplay makes the pane read-only, leaving out what needs a live
// server, and read what a lean state does not keep back from the session
// file with load.
func (d *detailPane) SetReplay(load func(i int) (record.Event, error)) {
	d.readOnly, d.load = true, load
}

// Tool returns the tool shown, or nil.
func (d *detailPane) Tool() *fold.Tool { return d.tool }

// ShowsCall says whether a call of the tool is shown, not the tool itself.
func (d *detailPane) ShowsCall() bool { return d.call != 0 }

// CallID is the id of the call shown, 0 for the tool itself.
func (d *detailPane) CallID() int64 { return d.call }

// Renew swaps in the same tool from a newer walk, keeping what is shown.
func (d *detailPane) Renew(t *fold.Tool) { d.tool = t }

// SetAbsent names the tool picked in a replay that is not listed at the
// point shown ("" for none).
func (d *detailPane) SetAbsent(name string) { d.absent = name }

// Confirming says whether the pane asks before sending a refused call.
func (d *detailPane) Confirming() bool { return d.confirm }

// Ask asks before sending the refused call shown anyway; it says whether
// there is one to ask about.
func (d *detailPane) Ask() bool {
	c := d.Call()
	d.confirm = c != nil && c.Outcome() == fold.OutcomeRefused
	return d.confirm
}

// Settle ends the question, answered or not.
func (d *detailPane) Settle() { d.confirm = false }

// Call returns the call shown, or nil.
func (d *detailPane) Call() *fold.Call {
	if d.call == 0 {
		return nil
	}
	return d.St.Call(d.call)
}

// history returns the calls of the shown tool, oldest first.
func (d *detailPane) history() []*fold.Call {
	if d.tool == nil {
		return nil
	}
	return d.St.CallsOf(d.tool.Name)
}

// StepCall moves through the shown tool's calls: -1 older, +1 newer. Past
// the newest comes the tool itself; before the newest, from the tool, -1
// shows the newest call.
func (d *detailPane) StepCall(dir int) {
	calls := d.history()
	if len(calls) == 0 {
		return
	}
	i := len(calls) // the tool itself
	for n, c := range calls {
		if c.ID == d.call {
			i = n
		}
	}
	i = max(min(i+dir, len(calls)), 0)
	if i == len(calls) {
		d.ShowTool(d.tool)
		return
	}
	d.ShowCall(d.tool, calls[i].ID)
}

func (d *detailPane) key() detailKey {
	k := detailKey{tool: d.tool, call: d.call, width: d.w, sty: d.Sty}
	if d.tool == nil {
		k.absent = d.absent
		return k
	}
	if c := d.Call(); c != nil {
		k.rev = c.Rev
		k.asks = len(askRows(d.St, c))
		return k
	}
	calls := d.history()
	k.ncalls = len(calls)
	for _, c := range calls {
		k.rev += c.Rev
	}
	if w := d.St.Walk(d.tool.Walk); w != nil {
		k.held, k.stale, k.done = d.St.Held(w), w.Stale(), w.Done
	}
	return k
}

// Sync rebuilds the document when what it shows changed. A big one is
// built in a command.
func (d *detailPane) Sync() tea.Cmd {
	d.fit()
	k := d.key()
	if !d.builds.Want(k) {
		return nil
	}
	build := d.builder(k)
	c := d.Call()
	if d.tool != nil && len(d.tool.Raw) > panes.BigDoc || c != nil && (len(c.Result) > panes.BigDoc || d.mustLoad(c)) {
		d.builds.Pending = k
		d.setDoc(panes.DetailDoc{Lines: []string{d.Sty.Muted.Render("rendering…")}})
		return func() tea.Msg { return docBuiltMsg{key: k, doc: build()} }
	}
	d.setDoc(build())
	d.builds.Shown(k)
	return nil
}

// builder returns a function that builds the document for k from values
// copied now, so it may run on another goroutine.
func (d *detailPane) builder(k detailKey) func() panes.DetailDoc {
	st, loc, w := d.Sty, d.Loc, max(d.w-2, 10)
	t := k.tool
	if t == nil {
		if k.absent != "" {
			return func() panes.DetailDoc {
				return panes.DetailDoc{Lines: []string{st.Muted.Render(sanitize.Line(k.absent) + " is not listed at this point of the session.")}}
			}
		}
		return func() panes.DetailDoc { return panes.DetailDoc{Lines: []string{st.Muted.Render("No tool selected.")}} }
	}
	ro := d.readOnly
	if c := d.Call(); c != nil {
		cc := *c
		cc.Verdicts = append(cc.Verdicts[:0:0], c.Verdicts...)
		load := d.load
		if !d.mustLoad(c) {
			load = nil
		}
		asks := askLines(askRows(d.St, c), c.Start, w, st, loc)
		asks = append(asks, panes.TaskLines(d.St, c, w, st, loc)...)
		return func() panes.DetailDoc {
			c, missing := &cc, ""
			if load != nil {
				var err error
				if c, err = fold.ReadBack(&cc, load); err != nil {
					missing = err.Error()
				}
			}
			lines, spans := render.CallDocSpans(c, t, w, st, loc, ro, missing)
			return panes.Measured(append(lines, asks...), spans)
		}
	}
	calls := append([]*fold.Call(nil), d.history()...)
	summaries := make([]string, len(calls))
	for i, c := range calls {
		summaries[i] = fmt.Sprintf("#%d  %s  %s", c.ID, render.Clock(c.Start, loc), render.CallSummary(c))
	}
	return func() panes.DetailDoc {
		return panes.Measured(render.ToolDoc(t, summaries, render.Listing{Done: k.done, Held: k.held, Stale: k.stale}, w, st, ro), nil)
	}
}

// mustLoad says whether c's arguments or answer are to be read from the
// session file before its document can be built.
func (d *detailPane) mustLoad(c *fold.Call) bool {
	return d.load != nil && (c.ArgsSrc > 0 || c.ResultSrc > 0)
}

// Update handles scrolling keys while focused and built documents.
func (d detailPane) Update(msg tea.Msg) (detailPane, tea.Cmd) {
	switch msg := msg.(type) {
	case docBuiltMsg:
		if d.builds.Came(msg.key) {
			d.setDoc(msg.doc)
		}
	case tea.KeyPressMsg:
		if !panes.SidewaysKey(msg, &d.keys.SidewaysKeyMap, &d.sc) {
			panes.MoveKey(msg, &d.keys.MoveKeyMap, &d.sc)
		}
	}
	return d, nil
}

// Wheel scrolls by n lines.
func (d *detailPane) Wheel(n int) { d.sc.ScrollBy(n) }

// View renders the pane in exactly h rows; spin is the spinner's frame and
// now the time, for a call in flight.
func (d *detailPane) View(spin string, now time.Time) string {
	k := d.headKey()
	head := d.headDrawn
	if k != d.headFor || head == "" {
		head = d.drawHead(k)
	}
	lines := []string{head}
	lines = append(lines, d.liveLines(spin, now)...)
	out := strings.Join(lines, "\n")
	if d.sc.Height() > 0 {
		out += "\n" + d.sc.View()
	}
	return out
}

// detailHead is what the pane's title line shows.
type detailHead struct {
	call    int64 // the call shown, 0 for the tool
	calls   int   // the shown tool's calls
	nth     int   // which of them the call shown is, from 1 (oldest); 0 when not among them
	w       int
	focused bool
	sty     *themes.Styles
	// col is the first column shown of a document scrolled sideways (0
	// when not); more says its lines go on past the right edge.
	col  int
	more bool
}

func (d *detailPane) headKey() detailHead {
	k := detailHead{calls: len(d.history()), w: d.w, focused: d.focused, sty: d.Sty}
	k.col, k.more = d.sc.Sideways()
	if c := d.Call(); c != nil {
		k.call = c.ID
		for i, hc := range d.history() {
			if hc.ID == c.ID {
				k.nth = i + 1
			}
		}
	}
	return k
}

func (d *detailPane) drawHead(k detailHead) string {
	title, right := "Detail", ""
	if k.call != 0 {
		title = fmt.Sprintf("Call #%d", k.call)
	}
	switch {
	case k.nth > 0:
		right = d.Sty.Subtle.Render(fmt.Sprintf("[ ] call %d of %d", k.nth, k.calls))
	case k.calls > 0:
		right = d.Sty.Subtle.Render(fmt.Sprintf("[ ] %d %s", k.calls, render.Plural(k.calls, "call", "calls")))
	}
	head := d.TitleStyle(k.focused).Render(title) + d.Sty.Subtle.Render(panes.SidewaysMark(k.col, k.more))
	if gap := d.w - lipgloss.Width(head) - lipgloss.Width(right) - 1; gap > 0 {
		head += strings.Repeat(" ", gap) + right
	}
	return render.Fit(head, d.w)
}

// Predraw draws the title line and the document's window again when what
// they show changed, in Update.
func (d *detailPane) Predraw() {
	if k := d.headKey(); k != d.headFor || d.headDrawn == "" {
		d.headDrawn, d.headFor = d.drawHead(k), k
	}
	d.sc.Predraw()
}

// ShortHelp returns the pane's bindings for the help line.
func (d *detailPane) ShortHelp() []key.Binding {
	k, g := d.keys, d.Global
	if d.confirm {
		return []key.Binding{k.Confirm, g.Back}
	}
	if c := d.Call(); c != nil {
		if !c.Done {
			return []key.Binding{g.Back}
		}
		out := []key.Binding{k.Call, g.Copy, k.PrevCall, k.NextCall, g.Back}
		if _, ok := d.Picked(); ok {
			out = []key.Binding{k.OpenVerdict, k.NextVerdict, g.Copy, k.PrevCall, k.NextCall, g.Back}
		} else if len(d.doc.Spans) > 0 {
			out = []key.Binding{k.Call, k.NextVerdict, g.Copy, k.PrevCall, k.NextCall, g.Back}
		}
		out = panes.SidewaysHelp(out, &k.SidewaysKeyMap, &d.sc)
		if c.Outcome() == fold.OutcomeRefused {
			out = append([]key.Binding{k.Force}, out...)
		}
		if mayRunAsTask(d.tool) {
			out = append([]key.Binding{k.Task}, out...)
		}
		return out
	}
	out := []key.Binding{k.Call, g.Copy, k.Up, k.Down, k.PrevCall, g.NextPane}
	return panes.SidewaysHelp(out, &k.SidewaysKeyMap, &d.sc)
}

// setDoc shows doc, keeping the verdict picked while the call has it and
// the window sideways within the widest line.
func (d *detailPane) setDoc(doc panes.DetailDoc) {
	d.doc = doc
	if d.pick > len(doc.Spans) {
		d.pick = 0
	}
	d.remark()
}

// remark gives the scroller the document's lines with the pick marked.
func (d *detailPane) remark() { d.sc.SetWide(d.markedLines(), d.doc.Widest) }
