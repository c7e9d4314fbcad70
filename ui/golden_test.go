package ui

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"regexp"
	"slices"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mcpwitness/demo"
	"mcpwitness/fold"
	"mcpwitness/paging"
	"mcpwitness/record"
	"mcpwitness/session"
)

const fixture = "testdata/demo-session.jsonl"

var recordFixture = flag.Bool("fixture", false, "record "+fixture+" from the demo server")

// TestRecordFixture records a session with the demo server: a walk of
// every list, a passing, a failing and a refused call, log messages, reads
// of a resource, of a template's expansion and of a resource that breaks
// the rules, a prompt got, and a ping. Times,
// latencies and dates are replaced by fixed ones so the screens built from
// it never change from run to run.
func TestRecordFixture(t *testing.T) {
	if !*recordFixture {
		t.Skip("run with -fixture to record " + fixture)
	}
	log := record.NewLog(nil)
	var evs []record.Event
	log.AddSink(func(ev record.Event) { evs = append(evs, ev) })
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := demo.New(&demo.Options{TTLMs: 30000}).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	s, err := session.Dial(ctx, session.Target{Transport: ct, Name: "demo"}, &session.Options{Log: log})
	if err != nil {
		t.Fatal(err)
	}
	summarize := walkEvery(ctx, s)
	for _, c := range []struct{ tool, args string }{
		{"weather", `{"city":"Lisbon"}`},
		{"forecast_broken", `{"city":"Paris"}`},
		{"render_video", `{"storyboard":"title card\nsunrise over the bay"}`},
	} {
		s.Call(ctx, c.tool, json.RawMessage(c.args), nil)
	}
	s.ReadResource(ctx, "demo://changelog")
	s.ReadResource(ctx, demo.BrokenResourceURI)
	s.ReadResource(ctx, "demo://weather/Lisbon")
	s.GetPrompt(ctx, "summarize", map[string]string{"text": "The tide came in."}, &session.PromptOptions{Definition: summarize})
	s.Ping(ctx)
	s.Close()

	// Dates in answers change daily; protocol versions look like dates too.
	date := regexp.MustCompile(`20\d\d-\d\d-\d\d`)
	fixDate := func(b []byte) []byte {
		if slices.Contains(session.SupportedProtocols(), string(b)) {
			return b
		}
		return []byte("2026-12-01")
	}
	f, err := os.Create(fixture)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := record.NewHeader("mcpwitness test", session.Target{Name: "demo"}.Describe())
	h.Started = t0
	line, _ := json.Marshal(h)
	fmt.Fprintf(f, "%s\n", line)
	for i, ev := range evs {
		ev.T = t0.Add(time.Duration(i) * 40 * time.Millisecond)
		if ev.Page != nil {
			ev.Page.Ms = float64(3 + ev.Page.Number)
		}
		if ev.Walk != nil && ev.Walk.Ms != 0 {
			ev.Walk.Ms = 27
		}
		if ev.Call != nil && ev.Call.Ms != 0 {
			ev.Call.Ms = 12
		}
		if ev.LatencyMs != 0 {
			ev.LatencyMs = 2
		}
		if ev.Request != nil && ev.Request.Ms != 0 {
			ev.Request.Ms = 3
		}
		line, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(f, "%s\n", date.ReplaceAllFunc(line, fixDate))
	}
}

// walkEvery walks the demo's four lists, as the UI does at start, and
// returns the definition of the prompt summarize, as the UI passes it.
func walkEvery(ctx context.Context, s *session.Session) json.RawMessage {
	var summarize json.RawMessage
	for _, l := range []paging.Method{paging.Tools(), paging.Resources(), paging.ResourceTemplates(), paging.Prompts()} {
		_, res := s.Walk(ctx, l)
		for _, p := range res.Pages {
			for _, raw := range p.Items {
				if it := fold.ReadItem(l.Name, raw); it.Method == paging.Prompts().Name && it.Key == "summarize" {
					summarize = raw
				}
			}
		}
	}
	return summarize
}

// replayModel builds a model of size w×h in theme from the fixture's
// events, with no server, as a replay does.
func replayModel(t *testing.T, w, h int, theme string) *model {
	t.Helper()
	return fixtureModel(t, w, h, theme, func(record.Event) bool { return true })
}

// fixtureModel builds a model of size w×h in theme from the fixture's
// events that keep says to feed.
func fixtureModel(t *testing.T, w, h int, theme string, keep func(record.Event) bool) *model {
	t.Helper()
	m := newModel(options{Theme: theme, Now: func() time.Time { return t0.Add(time.Minute) }, Loc: time.UTC})
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	for _, ev := range readSession(t, fixture) {
		if keep(ev) {
			m.Update(eventMsg(ev))
		}
	}
	return m
}

func TestGolden(t *testing.T) {
	scenes := map[string]func(m *model){
		"main": func(m *model) {},
		"result": func(m *model) {
			m.tools.PickedKey = "forecast_broken"
			m.tools.Reselect()
			m.sync()
			m.Update(keyMsg("["))
		},
		"wire": func(m *model) { m.Update(keyMsg("w")) },
		// The tabs: a resource read (Markdown), the broken read's verdicts,
		// a template with the read of one of its expansions, a prompt got.
		"resources": func(m *model) { pick(m, "2", "demo://changelog") },
		"broken":    func(m *model) { pick(m, "2", demo.BrokenResourceURI) },
		"templates": func(m *model) { pick(m, "3", "demo://weather/{city}") },
		"prompts":   func(m *model) { pick(m, "4", "summarize") },
	}
	for _, scene := range []string{"main", "result", "wire", "resources", "broken", "templates", "prompts"} {
		for _, size := range [][2]int{{40, 12}, {80, 24}, {120, 40}} {
			for _, theme := range []string{"dark", "mono"} {
				name := fmt.Sprintf("%s_%dx%d_%s", scene, size[0], size[1], theme)
				t.Run(name, func(t *testing.T) {
					m := replayModel(t, size[0], size[1], theme)
					scenes[scene](m)
					view := m.View().Content
					checkFits(t, view, size[0], size[1])
					golden.RequireEqual(t, ansi.Strip(view))
				})
			}
		}
	}
}

// pick switches to the tab of key and selects the item named key.
func pick(m *model, tabKey, key string) {
	m.Update(keyMsg(tabKey))
	p := &m.items[m.tab.item()]
	p.PickedKey = key
	p.reselect()
	m.Update(keyMsg("tab")) // the detail pane
	if sel := p.Selected(); sel == nil || sel.Key != key {
		panic(fmt.Sprintf("selected %v, want %s", sel, key))
	}
}

// TestReplayMatchesTheLiveSession checks what the fixture holds shows up:
// every page of the walk, and the three calls with their verdicts.
func TestReplayMatchesTheLiveSession(t *testing.T) {
	m := replayModel(t, 120, 40, "dark")
	w := m.St.LatestTools()
	if w == nil || !w.Done || len(w.Pages) < 4 {
		t.Fatalf("replayed walk: %+v", w)
	}
	for tool, want := range map[string]fold.Outcome{"weather": fold.OutcomePass, "forecast_broken": fold.OutcomeFail, "render_video": fold.OutcomeRefused} {
		calls := m.St.CallsOf(tool)
		if len(calls) != 1 || calls[0].Outcome() != want {
			t.Errorf("%s: %d calls, outcome %v; want one, %v", tool, len(calls), outcomeOf(calls), want)
		}
	}
}

func outcomeOf(cs []*fold.Call) any {
	if len(cs) == 0 {
		return "none"
	}
	return cs[0].Outcome()
}
