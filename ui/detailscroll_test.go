package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"mcpwitness/finding"
	"mcpwitness/record"

	"mcpwitness/ui/panes"
)

// wideEnd ends the wide line of wideCall's structuredContent.
const wideEnd = "END-OF-REPORT"

// wideCall is a session with one tool, "report", and one call of it whose
// structuredContent holds a line far wider than any pane, whose text
// content is long prose, and whose output-schema verdict failed with two
// paths.
func wideCall() []record.Event {
	b := &evs{}
	out := []record.Event{b.connect(), b.walkStart(1),
		b.page(1, 1, 1, "", tool("report", `"description":"Writes a report.","outputSchema":{"type":"object","properties":{"report":{"type":"string","description":"`+
			strings.Repeat("the report's body, ", 8)+`"},"pages":{"type":"integer"}},"required":["report","pages"]}`)),
		b.walkDone(1, 1, 1, 1, "")}
	prose := strings.Repeat("A sentence of prose that wraps. ", 12)
	result := fmt.Sprintf(`{"content":[{"type":"text","text":%q}],"structuredContent":{"report":%q,"pages":"two"}}`,
		prose, strings.Repeat("wide ", 40)+wideEnd)
	return append(out, callEvents(b, 1, "report", true, result,
		finding.Verdict{Check: "output-schema", Status: finding.Fail,
			Message: "Structured content does not match the tool's output schema: /pages: Value is string but should be integer (and 1 more)",
			Errors: []finding.SchemaError{{InstancePath: "/pages", Keyword: "type", Message: "Value is string but should be integer"},
				{InstancePath: "", Keyword: "additionalProperties", Message: "Additional property 'extra' is not allowed"}}},
		finding.Verdict{Check: "structured-content", Status: finding.Pass, Message: "structured content present"},
		finding.Verdict{Check: "task-support", Status: finding.Pass, Message: "no execution.taskSupport; plain calls are allowed"})...)
}

// wideHarness shows wideCall's call in the focused detail pane at w×h.
func wideHarness(t *testing.T, w, h int) *harness {
	t.Helper()
	return wideHarnessWith(t, options{}, w, h)
}

// wideHarnessWith is [wideHarness] with the model's options o.
func wideHarnessWith(t *testing.T, o options, w, h int) *harness {
	t.Helper()
	hs := newHarness(t, o)
	hs.feed(wideCall()...)
	hs.update(tea.WindowSizeMsg{Width: w, Height: h})
	hs.key("[")
	for hs.m.focus != paneDetail {
		hs.key("tab")
	}
	if hs.m.detail.Call() == nil {
		t.Fatalf("the call is not shown:\n%s", hs.screen())
	}
	return hs
}

// detailLines are the rows of the screen the detail pane draws, stripped:
// its title first.
func (h *harness) detailLines() []string {
	l := h.m.lay
	var out []string
	for _, line := range strings.Split(h.m.View().Content, "\n")[l.bodyTop : l.bodyTop+l.bodyH] {
		if !l.stacked {
			line = ansi.Cut(line, l.leftW+3, h.m.w)
		}
		out = append(out, ansi.Strip(line))
	}
	return out
}

func TestDetailJSONScrollsSideways(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {200, 60}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			h := wideHarness(t, size[0], size[1])
			d := &h.m.detail
			// The JSON line is whole in the document; prose wraps.
			wide := -1
			for i, l := range d.doc.Lines {
				s := ansi.Strip(l)
				if strings.Contains(s, `"report": "wide wide`) && strings.HasSuffix(s, wideEnd+`",`) {
					wide = i
				}
				if ansi.StringWidth(l) > d.sc.W && !strings.Contains(s, `"`) {
					t.Errorf("a line of prose is wider than the pane (%d): %q", d.sc.W, s)
				}
			}
			if wide < 0 {
				t.Fatalf("the structuredContent's wide line is not whole:\n%s", ansi.Strip(strings.Join(d.doc.Lines, "\n")))
			}
			d.sc.Off = wide - 2
			h.update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			lines := h.detailLines()
			checkFits(t, h.m.View().Content, size[0], size[1])
			if !strings.Contains(lines[0], "more →") || strings.Contains(lines[0], "← col") {
				t.Errorf("the title does not mark more to the right only: %q", lines[0])
			}
			if strings.Contains(strings.Join(lines, "\n"), wideEnd) {
				t.Fatalf("the end of the wide line shows before scrolling:\n%s", strings.Join(lines, "\n"))
			}
			for range 60 {
				h.key("l")
			}
			lines = h.detailLines()
			checkFits(t, h.m.View().Content, size[0], size[1])
			if !strings.Contains(strings.Join(lines, "\n"), wideEnd) {
				t.Errorf("l does not bring the end of the wide line into view:\n%s", strings.Join(lines, "\n"))
			}
			if !strings.Contains(lines[0], "← col ") || strings.Contains(lines[0], "→") && !strings.Contains(lines[0], "← col") {
				t.Errorf("the title does not mark more to the left: %q", lines[0])
			}
			if strings.Contains(lines[0], " →") && d.sc.X+d.sc.W >= d.doc.Widest {
				t.Errorf("the title marks more to the right at the right end: %q", lines[0])
			}
			x := d.sc.X
			h.key("h")
			h.key("left")
			if d.sc.X != x-2*panes.ScrollStep {
				t.Errorf("h and ← moved the window to column %d, want %d", d.sc.X, x-2*panes.ScrollStep)
			}
			h.key("right")
			if d.sc.X != x-panes.ScrollStep {
				t.Errorf("→ moved the window to column %d, want %d", d.sc.X, x-panes.ScrollStep)
			}
			// A horizontal wheel over the detail pane scrolls it; over the
			// tools it does not.
			l := h.m.lay
			px := l.leftW + 5
			if l.stacked {
				px = 5
			}
			h.update(tea.MouseWheelMsg{X: px, Y: l.bodyTop + 3, Button: tea.MouseWheelLeft})
			if d.sc.X != x-2*panes.ScrollStep {
				t.Errorf("a wheel to the left over the detail moved it to column %d, want %d", d.sc.X, x-2*panes.ScrollStep)
			}
			if !l.stacked {
				h.update(tea.MouseWheelMsg{X: 3, Y: l.bodyTop + 3, Button: tea.MouseWheelRight})
				if d.sc.X != x-2*panes.ScrollStep {
					t.Errorf("a wheel over the tools moved the detail sideways to column %d", d.sc.X)
				}
			}
			// Another call, or the tool, starts at the left edge.
			h.key("]")
			if d.sc.X != 0 {
				t.Errorf("the tool's document starts at column %d, want 0", d.sc.X)
			}
		})
	}
}

// The tool's schemas keep their lines whole too.
func TestDetailSchemaLinesAreWhole(t *testing.T) {
	h := wideHarness(t, 80, 24)
	h.key("]")
	d := &h.m.detail
	doc := ansi.Strip(strings.Join(d.doc.Lines, "\n"))
	if !strings.Contains(doc, `"description": "`+strings.Repeat("the report's body, ", 8)+`"`) {
		t.Errorf("the output schema's description is not on one line:\n%s", doc)
	}
	if d.doc.Widest <= d.sc.W {
		t.Errorf("the widest line is %d cells in a pane of %d", d.doc.Widest, d.sc.W)
	}
	if s := h.detailLines()[0]; !strings.Contains(s, "more →") {
		t.Errorf("the title does not say there is more to the right: %q", s)
	}
}

// In a replay ← and → are the scrubber's; h and l scroll sideways.
func TestDetailScrollsSidewaysInAReplay(t *testing.T) {
	evs := wideCall()
	last := evs[len(evs)-1]
	last.Kind, last.Call, last.Text = record.KindStderr, nil, "done"
	last.T = last.T.Add(1e6)
	h := replayHarness(t, writeSession(t, "wide.jsonl", append(evs, last)), 80, 24, "dark")
	h.key("[")
	for h.m.focus != paneDetail {
		h.key("tab")
	}
	h.settle()
	pos := h.position()
	h.key("l")
	h.settle()
	if h.m.detail.sc.X != panes.ScrollStep || h.position() != pos {
		t.Errorf("l in a replay: column %d at %s, want %d at %s", h.m.detail.sc.X, h.position(), panes.ScrollStep, pos)
	}
	h.press("left")
	if h.position() == pos {
		t.Errorf("← in a replay did not step the scrubber back from %s", pos)
	}
}

func TestDetailScrollGolden(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {200, 60}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			h := wideHarness(t, size[0], size[1])
			scrollTo(h.m, &h.m.detail.sc, "structuredContent")
			h.key("l")
			view := h.m.View().Content
			checkFits(t, view, size[0], size[1])
			golden.RequireEqual(t, ansi.Strip(view))
		})
	}
}

// wideModel is a model at 120×40 showing, in the focused detail pane, a
// call whose structuredContent holds n lines of width cells each.
func wideModel(b *testing.B, n, width int) *model {
	b.Helper()
	m := newModel(options{Theme: "dark", Now: func() time.Time { return t0 }, Loc: time.UTC})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	rows := make([]string, n)
	for i := range rows {
		rows[i] = fmt.Sprintf("%q", strings.Repeat("x", width))
	}
	e := &evs{}
	evs := []record.Event{e.connect(), e.walkStart(1), e.page(1, 1, 1, "", tool("report")), e.walkDone(1, 1, 1, 1, "")}
	evs = append(evs, callEvents(e, 1, "report", true, `{"content":[],"structuredContent":{"rows":[`+strings.Join(rows, ",")+`]}}`)...)
	for _, ev := range evs {
		m.Update(eventMsg(ev))
	}
	m.Update(keyMsg("["))
	m.Update(keyMsg("tab"))
	if m.focus != paneDetail || m.detail.doc.Widest < width {
		b.Fatalf("focus %v, widest %d", m.focus, m.detail.doc.Widest)
	}
	return m
}

// BenchmarkDetailSideways measures a sideways key (Update and View) on a
// call's document of 200 JSON lines 300 cells wide: only the rows in view
// are cut and drawn.
func BenchmarkDetailSideways(b *testing.B) {
	m := wideModel(b, 200, 300)
	l, h := keyMsg("l"), keyMsg("h")
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if i%2 == 0 {
			m.Update(l)
		} else {
			m.Update(h)
		}
		_ = m.View()
		i++
	}
}

// BenchmarkDetailBuildWide measures building that document again, with
// the measure of its widest line.
func BenchmarkDetailBuildWide(b *testing.B) {
	m := wideModel(b, 200, 300)
	build := m.detail.builder(m.detail.key())
	b.ReportAllocs()
	for b.Loop() {
		_ = build()
	}
}

// BenchmarkDetailMeasureWide measures the measure alone: its share of
// the build.
func BenchmarkDetailMeasureWide(b *testing.B) {
	m := wideModel(b, 200, 300)
	lines := m.detail.doc.Lines
	b.ReportAllocs()
	for b.Loop() {
		_ = panes.Measured(lines, nil)
	}
}
