package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// pickedLine is the detail pane's row drawn as the picked verdict, "" for
// none.
func (h *harness) pickedLine() string {
	for _, l := range h.detailLines() {
		if strings.Contains(l, "▸") {
			return l
		}
	}
	return ""
}

func TestNPicksAVerdictAndEnterOpensItWhole(t *testing.T) {
	h := wideHarnessWith(t, options{Backend: &fakeBackend{}}, 80, 24)
	h.until("the first walks to end", func() bool { return !h.m.ops.walking() })
	if _, ok := h.m.detail.Picked(); ok || h.pickedLine() != "" {
		t.Fatalf("a verdict is picked before n: %q", h.pickedLine())
	}
	// n picks the verdicts in the order shown, failures first, then none.
	for i, want := range []string{"output-schema", "structured-content", "task-support", ""} {
		h.key("n")
		if got := h.pickedLine(); want == "" && got != "" || !strings.Contains(got, want) {
			t.Errorf("n #%d: picked row %q, want %q", i+1, got, want)
		}
	}
	h.key("N")
	if got := h.pickedLine(); !strings.Contains(got, "task-support") {
		t.Errorf("N from none picks %q, want the last verdict", got)
	}
	h.key("N")
	h.key("N")
	i, ok := h.m.detail.Picked()
	if !ok || h.m.detail.Call().Verdicts[i].Check != "output-schema" {
		t.Fatalf("N N N: picked %d %v, want output-schema", i, ok)
	}
	if s := h.screen(); !strings.Contains(s, "enter open verdict") {
		t.Errorf("the help line does not say enter opens the verdict:\n%s", s)
	}

	h.key("enter")
	if !h.m.whole.Shown() || h.m.mode != modeNormal {
		t.Fatalf("enter on a picked verdict: whole %v, mode %v", h.m.whole.Shown(), h.m.mode)
	}
	doc := ansi.Strip(strings.Join(h.m.whole.sc.Lines, "\n"))
	for _, want := range []string{"verdict  14:05:00.", "Verdict", "✗ fail  output-schema",
		"Structured content does not match the tool's output schema: /pages: Value is string but should be integer (and 1 more)",
		"Paths (2)", "/pages", "type: Value is string but should be integer", "(root)", "additionalProperties: Additional property 'extra' is not allowed",
		"Call", "#1 report: ✗ output-schema"} {
		if !strings.Contains(strings.Join(strings.Fields(doc), " "), strings.Join(strings.Fields(want), " ")) {
			t.Errorf("the verdict opened whole lacks %q:\n%s", want, doc)
		}
	}
	if strings.Contains(doc, "structured-content") || strings.Contains(doc, "task-support") {
		t.Errorf("the verdict opened whole shows the call's other verdicts:\n%s", doc)
	}
	if s := h.screen(); !strings.Contains(s, "Verdict whole") {
		t.Errorf("the screen does not title the verdict opened whole:\n%s", s)
	}
	_, cmd := h.m.Update(keyMsg("y"))
	text, ok := clipboard(t, cmd)
	if !ok {
		t.Fatal("y on a verdict opened whole sets no clipboard")
	}
	for _, want := range []string{"call #1 report", "✗ fail output-schema: Structured content does not match",
		"/pages  type: Value is string but should be integer", "(root)  additionalProperties:"} {
		if !strings.Contains(text, want) {
			t.Errorf("the copied verdict lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "task-support") {
		t.Errorf("y copied the call's other verdicts too:\n%s", text)
	}
	if !strings.HasPrefix(h.m.status.text, "copied verdict · ") {
		t.Errorf("status %q does not say a verdict was copied", h.m.status.text)
	}
	h.key("esc")
	if h.m.whole.Shown() || h.m.detail.Call() == nil {
		t.Fatalf("esc did not go back to the call view")
	}
	if got := h.pickedLine(); !strings.Contains(got, "output-schema") {
		t.Errorf("after esc the pick is %q, want output-schema still", got)
	}
	// With no verdict picked, enter opens the editor as before.
	for range 3 {
		h.key("n")
	}
	if _, ok := h.m.detail.Picked(); ok {
		t.Fatal("n past the last verdict still picks one")
	}
	h.key("enter")
	if h.m.mode != modeEditor || h.m.whole.Shown() {
		t.Errorf("enter with no verdict picked: mode %v, whole %v; want the editor", h.m.mode, h.m.whole.Shown())
	}
}

func TestAClickPicksAVerdictAndASecondOpensIt(t *testing.T) {
	h := wideHarness(t, 120, 40)
	h.key("tab") // focus elsewhere: the click focuses the detail pane
	l := h.m.lay
	row := -1
	for i, line := range h.detailLines() {
		if strings.Contains(line, "structured-content") {
			row = i
		}
	}
	if row < 0 {
		t.Fatalf("no structured-content verdict on screen:\n%s", h.screen())
	}
	click := func() { h.update(tea.MouseClickMsg{X: l.leftW + 10, Y: l.bodyTop + row, Button: tea.MouseLeft}) }
	click()
	if got := h.pickedLine(); h.m.focus != paneDetail || !strings.Contains(got, "structured-content") || h.m.whole.Shown() {
		t.Fatalf("a click on a verdict: focus %v, picked %q, whole %v", h.m.focus, got, h.m.whole.Shown())
	}
	click()
	if !h.m.whole.Shown() || !strings.Contains(ansi.Strip(strings.Join(h.m.whole.sc.Lines, "\n")), "✓ pass  structured-content") {
		t.Errorf("a second click did not open the verdict whole:\n%s", h.screen())
	}
}

// In a replay, where enter calls nothing, n and enter open a verdict.
func TestAVerdictOpensWholeInAReplay(t *testing.T) {
	h := replayHarness(t, writeSession(t, "verdicts.jsonl", wideCall()), 80, 24, "dark")
	h.key("[")
	for h.m.focus != paneDetail {
		h.key("tab")
	}
	h.settle()
	h.key("n")
	h.key("enter")
	if !h.m.whole.Shown() || !strings.Contains(ansi.Strip(strings.Join(h.m.whole.sc.Lines, "\n")), "Paths (2)") {
		t.Errorf("n, enter in a replay did not open the verdict whole:\n%s", h.screen())
	}
}

func TestVerdictPickGolden(t *testing.T) {
	for _, scene := range []string{"picked", "whole"} {
		for _, size := range [][2]int{{80, 24}, {200, 60}} {
			t.Run(fmt.Sprintf("%s_%dx%d", scene, size[0], size[1]), func(t *testing.T) {
				h := wideHarness(t, size[0], size[1])
				h.key("n")
				if scene == "whole" {
					h.key("enter")
				}
				view := h.m.View().Content
				checkFits(t, view, size[0], size[1])
				golden.RequireEqual(t, ansi.Strip(view))
			})
		}
	}
}
