package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"mcpwitness/finding"
	"mcpwitness/fold"
	"mcpwitness/internal/hostiletest"
	"mcpwitness/paging"
	"mcpwitness/record"
)

// allWalked waits until n walks ended, their done events folded.
func (h *harness) allWalked(n int) {
	h.t.Helper()
	h.until("every first walk", func() bool {
		walks := h.m.St.Walks()
		return len(walks) == n && !h.m.ops.walking() && !slices.ContainsFunc(walks, func(w *fold.Walk) bool { return !w.Done })
	})
}

// TestItemTabsShowACursorLoop: a server whose resources, templates and
// prompts page in a loop: each tab lists what was read, says the walk is
// incomplete and why, in its title and in the header.
func TestItemTabsShowACursorLoop(t *testing.T) {
	h, _, _ := hostileHarness(t, hostiletest.ModeListsLoop, 120, 40)
	h.allWalked(4)
	for _, tb := range []struct {
		key    string
		method string
	}{{"2", paging.Resources().Name}, {"3", paging.ResourceTemplates().Name}, {"4", paging.Prompts().Name}} {
		h.key(tb.key)
		w := h.m.St.Latest(tb.method)
		if w == nil || w.Incomplete != paging.CursorRepeated || len(w.Pages) != 3 {
			t.Fatalf("%s: walk %+v", tb.method, w)
		}
		s := h.screen()
		if !strings.Contains(s, "⚠ cursor-repeated") || !strings.Contains(h.headerLines()[1], "⚠ incomplete: cursor-repeated") {
			t.Errorf("%s: the tab does not say the walk is incomplete:\n%s", tb.method, s)
		}
		if !strings.Contains(s, "page 3 · ") || h.m.tabCount(h.m.tab) != len(h.m.St.Items(w)) || len(h.m.St.Items(w)) == 0 {
			t.Errorf("%s: %d listed, %d read:\n%s", tb.method, h.m.tabCount(h.m.tab), len(h.m.St.Items(w)), s)
		}
	}
}

// TestItemTabsShowFailingVerdicts: a server whose answers break the
// rules: the read and the get show a failing verdict, named.
func TestItemTabsShowFailingVerdicts(t *testing.T) {
	h, _, _ := hostileHarness(t, hostiletest.ModeBadAnswers, 120, 40)
	h.allWalked(4)
	h.key("2")
	it := h.m.items[tabResources.item()].Selected()
	if it == nil {
		t.Fatalf("no resource:\n%s", h.screen())
	}
	h.key("enter")
	r := h.latest(record.MethodRead, it.URI)
	if len(r.Verdicts) != 1 || r.Verdicts[0].Status != finding.Fail {
		t.Errorf("read verdicts %+v", r.Verdicts)
	}
	if s := h.screen(); !strings.Contains(s, "✗ fail") || !strings.Contains(s, "resource-contents") {
		t.Errorf("the read's failing verdict is not shown:\n%s", s)
	}
	h.key("4")
	p := h.m.items[tabPrompts.item()].Selected()
	h.key("enter")
	h.typeText("1")
	h.key("enter")
	r = h.latest(record.MethodGetPrompt, p.Name)
	if n := len(r.Verdicts); n != 2 || r.Verdicts[1].Status != finding.Fail {
		t.Errorf("get verdicts %+v", r.Verdicts)
	}
	if s := h.screen(); !strings.Contains(s, "✗ fail") || !strings.Contains(s, "prompt-messages") {
		t.Errorf("the get's failing verdict is not shown:\n%s", s)
	}
}

// TestTabFormGolden draws the form of a prompt's arguments and of a
// template's variables, as the tabs open them, at 80×24 and 120×40.
func TestTabFormGolden(t *testing.T) {
	for _, sc := range []struct {
		name, tab, item, typed string
	}{{"prompt", "4", "summarize", ""}, {"template", "3", "demo://weather/{city}", ", Portugal"}} {
		for _, size := range [][2]int{{80, 24}, {120, 40}} {
			t.Run(fmt.Sprintf("%s_%dx%d", sc.name, size[0], size[1]), func(t *testing.T) {
				m := openModel(t, size[0], size[1], "mono")
				m.backend, m.link = &fakeBackend{}, linkUp
				pick(m, sc.tab, sc.item)
				m.Update(keyMsg("enter"))
				if m.mode != modeForm {
					t.Fatalf("mode %v", m.mode)
				}
				for _, r := range sc.typed {
					m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
				}
				view := m.View().Content
				checkFits(t, view, size[0], size[1])
				golden.RequireEqual(t, ansi.Strip(view))
			})
		}
	}
}

// TestEscAbortsTheItemWalks: esc while the resources are being walked
// aborts that walk and the walks still queued behind it (templates and
// prompts), which then never go out.
func TestEscAbortsTheItemWalks(t *testing.T) {
	f := &fakeBackend{info: record.ServerInfo{Capabilities: []byte(`{"tools":{},"resources":{},"prompts":{}}`)}}
	f.walk = func(ctx context.Context) (int64, *paging.Result) {
		if f.walks.Load() == 1 {
			return 1, &paging.Result{} // tools
		}
		<-ctx.Done() // resources: never answered
		return 2, &paging.Result{Incomplete: paging.Aborted, Err: ctx.Err()}
	}
	h := newHarness(t, options{Backend: f})
	h.until("the resources walk", func() bool { return f.walks.Load() == 2 && h.m.ops.walking() })
	h.key("esc")
	if !strings.Contains(h.screen(), "aborting the walk") {
		t.Errorf("esc does not say it aborts:\n%s", h.screen())
	}
	h.until("the walk to end", func() bool { return !h.m.ops.walking() })
	h.drain()
	f.mu.Lock()
	defer f.mu.Unlock()
	if want := []string{"tools/list", "resources/list"}; !slices.Equal(f.lists, want) {
		t.Errorf("walked %v, want %v: the queued walks went out", f.lists, want)
	}
}

// TestReplayShowsTheTabsAsTheyWere: in a replay the resources tab lists
// what was listed at the point shown: one page while the walk was on its
// first, every page and the read at the end.
func TestReplayShowsTheTabsAsTheyWere(t *testing.T) {
	h := replayHarness(t, fixture, 120, 40, "dark")
	h.key("2")
	if n := h.m.tabCount(tabResources); n != 30 {
		t.Fatalf("%d resources at the end", n)
	}
	h.press("{")
	for i := 0; ; i++ {
		w := h.m.St.Latest(paging.Resources().Name)
		if w != nil && len(w.Pages) == 1 {
			break
		}
		if i > 40 {
			t.Fatalf("no moment with one page of resources:\n%s", h.screen())
		}
		h.press(">")
	}
	s := h.screen()
	if !strings.Contains(s, "Resources 10 ") || !strings.Contains(s, "page 1 · 10 resources") || strings.Contains(s, "page 2 ·") {
		t.Errorf("one page in: the tab shows more or less than it:\n%s", s)
	}
	h.press("}")
	h.m.items[tabResources.item()].PickedKey = "demo://changelog"
	h.m.items[tabResources.item()].reselect()
	h.update(tea.WindowSizeMsg{Width: 120, Height: 40})
	if s := h.screen(); !strings.Contains(s, "Resources 30 ") || !strings.Contains(s, "Latest resources/read") || strings.Contains(s, "enter reads") {
		t.Errorf("at the end: the tab or the read is missing, or a live action is offered:\n%s", s)
	}
}
