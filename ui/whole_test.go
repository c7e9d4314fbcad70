package ui

import (
	"encoding/base64"
	"fmt"
	"mcpwitness/ui/panes"
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"mcpwitness/fold"
	"mcpwitness/record"
	"mcpwitness/render"
)

// selectEvent focuses the events pane and moves its cursor up until want
// holds for the selected row.
func selectEvent(t *testing.T, m *model, want func(r *fold.Row) bool) {
	t.Helper()
	for m.focus != paneEvents {
		m.Update(keyMsg("tab"))
	}
	for range 200 {
		if r := m.events.SelectedRow(); r != nil && want(r) {
			return
		}
		m.Update(keyMsg("k"))
	}
	t.Fatalf("no event row matches; screen:\n%s", ansi.Strip(m.View().Content))
}

// isCall says whether a row is the end of the call of tool.
func isCall(tool string) func(r *fold.Row) bool {
	return func(r *fold.Row) bool { return r.Kind == fold.RowCall && r.Call.Tool == tool }
}

func TestEnterOpensAnEventWhole(t *testing.T) {
	m := replayModel(t, 80, 24, "dark")
	selectEvent(t, m, isCall("forecast_broken"))
	m.Update(keyMsg("enter"))
	if !m.whole.Shown() || m.focus != paneDetail {
		t.Fatalf("enter on a call's event: whole shown %v, focus %v; want shown, detail", m.whole.Shown(), m.focus)
	}
	lines := m.whole.sc.Lines
	doc := ansi.Strip(strings.Join(lines, "\n"))
	for _, want := range []string{
		"14:05:02.", "server mcpwitness-demo", "request id 14",
		// The verdict whole, wrapped, and each error with its path.
		"Structured content does not match", "/humidity", "maximum: 140 should",
		// The frames it relates to: the request and the answer.
		"Wire frames (2)", `"method": "tools/call"`,
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("the event opened whole lacks %q:\n%s", want, doc)
		}
	}
	if s := ansi.Strip(m.View().Content); !strings.Contains(s, "Event whole") || !strings.Contains(s, "esc close") {
		t.Errorf("the screen does not show the event whole with its way back:\n%s", s)
	}
	m.Update(keyMsg("esc"))
	if m.whole.Shown() {
		t.Error("esc did not close the event opened whole")
	}
	if s := ansi.Strip(m.View().Content); !strings.Contains(s, "Detail") {
		t.Errorf("after esc the detail pane does not show again:\n%s", s)
	}
}

func TestANotificationOpensWholeWithItsFrame(t *testing.T) {
	m := replayModel(t, 80, 24, "dark")
	selectEvent(t, m, func(r *fold.Row) bool { return r.Kind == fold.RowNotify })
	m.Update(keyMsg("enter"))
	doc := ansi.Strip(strings.Join(m.whole.sc.Lines, "\n"))
	for _, want := range []string{"Params", `"toolsListChanged": true`, "Wire frames (1)", "notifications/subscriptions/acknowledged"} {
		if !strings.Contains(doc, want) {
			t.Errorf("the notification opened whole lacks %q:\n%s", want, doc)
		}
	}
}

func TestWideJSONScrollsSideways(t *testing.T) {
	m := replayModel(t, 80, 24, "dark")
	wide := fmt.Sprintf(`{"note":%q}`, strings.Repeat("天気", 40)+" end")
	m.Update(eventMsg(record.Event{T: t0.Add(10e9), Kind: record.KindNotification, Method: "notifications/wide", Data: []byte(wide)}))
	selectEvent(t, m, func(r *fold.Row) bool { return r.Method == "notifications/wide" })
	m.Update(keyMsg("enter"))
	view := m.View().Content
	checkFits(t, view, 80, 24)
	if strings.Contains(ansi.Strip(view), " end") {
		t.Fatalf("the end of a wide line shows before scrolling:\n%s", ansi.Strip(view))
	}
	for range 30 {
		m.Update(keyMsg("l"))
	}
	view = m.View().Content
	checkFits(t, view, 80, 24)
	if s := ansi.Strip(view); !strings.Contains(s, " end") || !strings.Contains(s, "← col ") {
		t.Errorf("l does not scroll a wide line into view:\n%s", s)
	}
}

// clipboard runs cmd and returns what it sets the clipboard to, and
// whether it does.
func clipboard(t *testing.T, cmd tea.Cmd) (string, bool) {
	t.Helper()
	var walk func(c tea.Cmd) (string, bool)
	walk = func(c tea.Cmd) (string, bool) {
		if c == nil {
			return "", false
		}
		switch msg := c().(type) {
		case tea.BatchMsg:
			for _, c := range msg {
				if s, ok := walk(c); ok {
					return s, true
				}
			}
		default:
			if v := reflect.ValueOf(msg); v.IsValid() && fmt.Sprintf("%T", msg) == "tea.setClipboardMsg" {
				return v.String(), true
			}
		}
		return "", false
	}
	return walk(cmd)
}

func TestYCopiesWhatIsSelected(t *testing.T) {
	auth := record.Event{T: t0.Add(9e9), Kind: record.KindAuth, Auth: &record.AuthInfo{Step: record.AuthOpen, URL: "https://auth.example/authorize?client_id=c1&state=s"},
		Text: "authorize mcpwitness in a browser: https://auth.example/authorize?client_id=c1&state=s"}
	for _, tt := range []struct {
		name     string
		setup    func(m *model)
		what     string
		contains []string
	}{
		{"tool", func(m *model) { pickTool(m, "weather") }, "tool definition", []string{`"name": "weather"`, `"inputSchema"`}},
		{"schema", func(m *model) {
			pickTool(m, "weather")
			m.Update(keyMsg("tab"))
			scrollTo(m, &m.detail.sc, "Input schema")
		}, "input schema", []string{`"city"`}},
		{"verdict", func(m *model) {
			pickTool(m, "forecast_broken")
			m.Update(keyMsg("["))
			m.Update(keyMsg("tab"))
		}, "verdicts", []string{"✗ fail output-schema: Structured content does not match", "/humidity  maximum: 140 should be at most 100"}},
		{"result", func(m *model) {
			pickTool(m, "weather")
			m.Update(keyMsg("["))
			m.Update(keyMsg("tab"))
			scrollTo(m, &m.detail.sc, "Content (")
		}, "result", []string{`"content": [`, `"structuredContent"`}},
		{"structured", func(m *model) {
			pickTool(m, "weather")
			m.Update(keyMsg("["))
			m.Update(keyMsg("tab"))
			scrollTo(m, &m.detail.sc, "structuredContent")
		}, "structuredContent", []string{`"city": "Lisbon"`}},
		{"event", func(m *model) {
			selectEvent(t, m, func(r *fold.Row) bool { return r.Kind == fold.RowWalk })
		}, "event", []string{"14:05:0", "walk #"}},
		{"event whole", func(m *model) {
			selectEvent(t, m, isCall("forecast_broken"))
			m.Update(keyMsg("enter"))
		}, "verdicts", []string{"call #2 forecast_broken", "/days/2  required"}},
		{"frame", func(m *model) { m.Update(keyMsg("w")) }, "frame", []string{`"jsonrpc":"2.0"`}},
		{"uri", func(m *model) {
			pick(m, "2", "demo://changelog")
			m.Update(keyMsg("shift+tab")) // back to the list
		}, "URI", []string{"demo://changelog"}},
		{"read", func(m *model) { pick(m, "2", "demo://changelog") }, "result", []string{`"contents": [`, `"uri": "demo://changelog"`}},
		{"url", func(m *model) {
			m.Update(eventMsg(auth))
			selectEvent(t, m, func(r *fold.Row) bool { return strings.Contains(r.Text, "authorize") })
		}, "URL", []string{"https://auth.example/authorize?client_id=c1&state=s"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := replayModel(t, 120, 40, "dark")
			tt.setup(m)
			_, cmd := m.Update(keyMsg("y"))
			text, ok := clipboard(t, cmd)
			if !ok {
				t.Fatalf("y sets no clipboard; status %q", m.status.text)
			}
			for _, want := range tt.contains {
				if !strings.Contains(text, want) {
					t.Errorf("copied %q, want it to hold %q", text, want)
				}
			}
			if tt.what == "URL" && text != auth.Auth.URL {
				t.Errorf("copied %q, want the URL alone", text)
			}
			// What the terminal gets: OSC 52 with the text in base64.
			if seq, want := ansi.SetSystemClipboard(text), "\x1b]52;c;"+base64.StdEncoding.EncodeToString([]byte(text))+"\x07"; seq != want {
				t.Errorf("OSC 52 sequence %q, want %q", seq, want)
			}
			if st, size := m.status.text, render.Size(len(text)); !strings.HasPrefix(st, "copied "+tt.what+" · "+size+" · OSC 52") {
				t.Errorf("status %q does not say the %s was copied and its size", st, tt.what)
			}
		})
	}
}

// pickTool selects the tool named name in the tools pane.
func pickTool(m *model, name string) {
	m.tools.PickedKey = name
	m.tools.Reselect()
	m.Update(tea.WindowSizeMsg{Width: m.w, Height: m.h})
	if t := m.tools.Selected(); t == nil || t.Name != name {
		panic("no tool " + name)
	}
}

// scrollTo scrolls sc down until a line reading heading (or starting
// with it) is the top of its window.
func scrollTo(m *model, sc *panes.Scroller, heading string) {
	for i, l := range sc.Lines {
		if s := strings.TrimSpace(ansi.Strip(l)); s == heading || strings.HasPrefix(s, heading) {
			sc.Off = i
			return
		}
	}
	panic("no heading " + heading)
}

func TestClicksSelectFocusAndSwitch(t *testing.T) {
	m := replayModel(t, 120, 40, "dark")
	click := func(x, y int) { m.Update(tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft}) }
	l := m.lay
	// The detail pane: focus.
	click(l.leftW+10, l.bodyTop+5)
	if m.focus != paneDetail {
		t.Errorf("a click on the detail pane: focus %v", m.focus)
	}
	// A tool row: the tab strip, the title, a separator, then tools.
	click(5, l.bodyTop+4)
	if sel := m.tools.Selected(); m.focus != paneTools || sel == nil || sel.Name != "add_duration" {
		t.Errorf("a click on the second tool row: focus %v, selected %v", m.focus, sel)
	}
	// An event row selects it; a second click opens it whole.
	click(20, l.eventsTop+2)
	r := m.events.SelectedRow()
	if m.focus != paneEvents || r == nil || m.whole.Shown() {
		t.Fatalf("a click on an event row: focus %v, row %v, whole %v", m.focus, r, m.whole.Shown())
	}
	click(20, l.eventsTop+2)
	if !m.whole.Shown() || m.whole.Row() != r {
		t.Errorf("a second click on the event did not open it whole")
	}
	// A tab of the strip.
	strip := ansi.Strip(m.drawn.tabs)
	click(strings.Index(strip, "Res")+1, l.bodyTop)
	if m.tab != tabResources {
		t.Errorf("a click on Res in %q: tab %v", strip, m.tab)
	}
	// A click on a frame of the wire pane selects it.
	m.Update(keyMsg("w"))
	click(5, l.bodyTop+2)
	if n := m.wire.List.Selected(); m.focus != paneWire || n != m.wire.List.Offset+1 {
		t.Errorf("a click on the second frame row: focus %v, selected %d (offset %d)", m.focus, n, m.wire.List.Offset)
	}
	m.Update(keyMsg("w"))
	// A click on a row of the resources list: the second.
	click(5, l.bodyTop+4)
	if it := m.items[m.tab.item()].Selected(); it == nil || m.items[m.tab.item()].Cursor != 2 {
		t.Errorf("a click on the second resource row: cursor %d", m.items[m.tab.item()].Cursor)
	}
}

func TestToolRowsTellHowTheirCallsWent(t *testing.T) {
	m := replayModel(t, 120, 40, "dark")
	for tool, want := range map[string]string{"weather": "✓ 1", "forecast_broken": "✗ 1", "render_video": "⊘ 1", "add": "own"} {
		var row string
		for _, r := range m.tools.Rows {
			if r.Tool != nil && r.Tool.Name == tool {
				row = ansi.Strip(m.tools.ToolLine(r.Tool, false, true, false, false))
			}
		}
		if !strings.Contains(row, want) {
			t.Errorf("row of %s %q lacks %q", tool, row, want)
		}
		if tool == "add" && strings.ContainsAny(row, "✓✗⊘") {
			t.Errorf("row of a tool never called shows a verdict: %q", row)
		}
	}
	if s := ansi.Strip(m.View().Content); !strings.Contains(s, "held: clients check") {
		t.Errorf("no legend of held and own:\n%s", s)
	}
	m.Update(keyMsg("H"))
	if s := ansi.Strip(m.View().Content); strings.Contains(s, " own ") || strings.Contains(s, "held:") {
		t.Errorf("H does not hide the held/own column and its legend:\n%s", s)
	}
	// The detail's header says where in the tool's calls it is.
	pickTool(m, "weather")
	m.Update(keyMsg("["))
	if s := ansi.Strip(m.View().Content); !strings.Contains(s, "call 1 of 1") {
		t.Errorf("the call's header does not say which call it is:\n%s", s)
	}
}

func TestWholeGolden(t *testing.T) {
	scenes := map[string]func(m *model){
		"main": func(m *model) {},
		"verdict": func(m *model) {
			pickTool(m, "forecast_broken")
			m.Update(keyMsg("["))
		},
		"whole": func(m *model) {
			selectEvent(t, m, isCall("forecast_broken"))
			m.Update(keyMsg("enter"))
		},
	}
	for _, scene := range []string{"main", "verdict", "whole"} {
		for _, size := range [][2]int{{80, 24}, {200, 60}} {
			name := fmt.Sprintf("%s_%dx%d", scene, size[0], size[1])
			t.Run(name, func(t *testing.T) {
				m := replayModel(t, size[0], size[1], "dark")
				scenes[scene](m)
				view := m.View().Content
				checkFits(t, view, size[0], size[1])
				golden.RequireEqual(t, ansi.Strip(view))
			})
		}
	}
}

func TestWideCharactersKeepTheBorders(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {200, 60}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			h := newHarness(t, options{})
			b := &evs{}
			h.feed(b.connect(), b.walkStart(1), b.page(1, 1, 1, "",
				tool("天気予報を取得する長い名前のツール_🌦️_forecast_with_a_very_long_name", `"description":"東京の天気 🌧️ を返します。`+strings.Repeat("とても長い説明。", 30)+`"`),
				tool("emoji_👩‍👩‍👧‍👦_family"), tool("plain")), b.walkDone(1, 1, 3, 1, ""))
			h.feed(b.ev(record.Event{Kind: record.KindStderr, Text: strings.Repeat("错误信息 🚨 ", 40)}))
			h.update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			for _, scene := range []string{"list", "whole"} {
				if scene == "whole" {
					selectEvent(t, h.m, func(r *fold.Row) bool { return r.Kind == fold.RowStderr })
					h.key("enter")
				}
				view := h.m.View().Content
				checkFits(t, view, size[0], size[1])
				l := h.m.lay
				for i, line := range strings.Split(view, "\n")[l.bodyTop : l.bodyTop+l.bodyH] {
					if c := ansi.Strip(ansi.Cut(line, l.leftW, l.leftW+3)); c != " │ " {
						t.Errorf("%s: body line %d has %q where the rule between the panes goes:\n%s", scene, i, c, ansi.Strip(view))
					}
				}
			}
		})
	}
}

func TestWheelScrollsTheEventOpenedWhole(t *testing.T) {
	m := replayModel(t, 80, 24, "dark")
	selectEvent(t, m, isCall("forecast_broken"))
	m.Update(keyMsg("enter"))
	l := m.lay
	m.Update(tea.MouseWheelMsg{X: l.leftW + 10, Y: l.bodyTop + 3, Button: tea.MouseWheelDown})
	if m.whole.sc.Off != 3 {
		t.Errorf("the wheel over the event opened whole scrolled it to %d, want 3", m.whole.sc.Off)
	}
	// Over the tools it scrolls the tools, not the event.
	m.Update(tea.MouseWheelMsg{X: 5, Y: l.bodyTop + 3, Button: tea.MouseWheelDown})
	if m.whole.sc.Off != 3 {
		t.Errorf("the wheel over the tools scrolled the event opened whole to %d", m.whole.sc.Off)
	}
}

func TestVerdictMessagesWrapInTheCallView(t *testing.T) {
	m := replayModel(t, 80, 24, "dark")
	pickTool(m, "forecast_broken")
	m.Update(keyMsg("["))
	doc := ansi.Strip(strings.Join(m.detail.sc.Lines, "\n"))
	i := strings.Index(doc, "Verdicts")
	j := strings.Index(doc, "Arguments")
	if i < 0 || j < i {
		t.Fatalf("no verdicts in the call view:\n%s", doc)
	}
	verdicts := doc[i:j]
	if strings.Contains(verdicts, "…") {
		t.Errorf("a verdict is cut:\n%s", verdicts)
	}
	for _, want := range []string{"plain calls are allowed", "arguments match the input schema", "structured content present"} {
		if !strings.Contains(strings.Join(strings.Fields(verdicts), " "), want) {
			t.Errorf("the verdicts lack %q whole:\n%s", want, verdicts)
		}
	}
}
