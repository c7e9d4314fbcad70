package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"
)

// entitiesTool is a tool whose arguments nest, as the memory server's
// create_entities: the editor opens on raw JSON.
var entitiesTool = tool("create_entities", `"inputSchema":{"type":"object","properties":{"entities":{"type":"array","items":{"type":"object",`+
	`"properties":{"name":{"type":"string"},"entityType":{"type":"string","enum":["person","place"]},"observations":{"type":"array","items":{"type":"string"}}},`+
	`"required":["name","entityType","observations"]}}},"required":["entities"]}`)

// rawEditor opens the editor of entitiesTool at w×h and waits for its
// first check.
func rawEditor(t *testing.T, w, h int) *harness {
	t.Helper()
	hs, _ := callScreen(t, &fakeBackend{}, entitiesTool)
	hs.update(tea.WindowSizeMsg{Width: w, Height: h})
	hs.key("enter")
	if hs.m.mode != modeEditor || !hs.m.editor.Raw {
		t.Fatal("enter did not open the raw JSON editor of a nested schema")
	}
	hs.until("the first check", func() bool { return hs.m.editor.Checked != nil })
	return hs
}

// setRaw replaces the raw JSON and waits for its check.
func setRaw(h *harness, text string) {
	h.m.editor.Area.SetValue(text)
	h.exec(h.m.editor.Recheck())
	seq := h.m.editor.CheckSeq
	h.until("the check of the new text", func() bool { return h.m.editor.Checked != nil && h.m.editor.Checked.Seq == seq })
}

func TestRawEditorShowsTheSchemaAndMarksTheError(t *testing.T) {
	h := rawEditor(t, 120, 40)
	s := h.screen()
	for _, want := range []string{"Input schema · ctrl+o hides", `"entities": {`, "ctrl+x skeleton"} {
		if !strings.Contains(s, want) {
			t.Errorf("the raw editor lacks %q:\n%s", want, s)
		}
	}
	setRaw(h, "{\n  \"entities\": [\n    {\"name\": \"a\",, }\n  ]\n}")
	s = h.screen()
	for _, want := range []string{"✗ not valid JSON at line 3, column 18", "3 │     {\"name\": \"a\",, }", "✗ "} {
		if !strings.Contains(s, want) {
			t.Errorf("the syntax error is not marked (%q):\n%s", want, s)
		}
	}
	if !strings.Contains(s, "✗     {\"name\"") && !strings.Contains(s, " ✗ ") {
		t.Errorf("the error's line in the text has no mark:\n%s", s)
	}
	// Schema problems with their paths, as the text changes.
	setRaw(h, "{\n  \"entities\": [\n    {\"name\": \"a\", \"entityType\": \"thing\"}\n  ]\n}")
	s = h.screen()
	for _, want := range []string{"problems against the input schema", "/entities/0", "observations"} {
		if !strings.Contains(s, want) {
			t.Errorf("the schema problems lack %q:\n%s", want, s)
		}
	}
	// ctrl+o hides the schema.
	h.key("ctrl+o")
	if s := h.screen(); strings.Contains(s, "Input schema") {
		t.Errorf("ctrl+o did not hide the schema:\n%s", s)
	}
}

func TestSkeletonOfThePropertyUnderTheCursor(t *testing.T) {
	h := rawEditor(t, 120, 40)
	setRaw(h, "{\n  \"entities\": []\n}")
	h.m.editor.Area.MoveToBegin()
	h.m.editor.Area.CursorDown()
	h.key("ctrl+x")
	got := h.m.editor.Area.Value()
	for _, want := range []string{`"entities": [`, `"entityType": "person"`, `"name": ""`, `"observations": []`} {
		if !strings.Contains(got, want) {
			t.Errorf("ctrl+x on entities gave %q, want it to hold %q", got, want)
		}
	}
	h.until("the check of the skeleton", func() bool { return h.m.editor.Checked != nil && h.m.editor.Checked.JsonErr == "" })
	// On a line that is no property it says what to do.
	h.m.editor.Area.MoveToBegin()
	h.key("ctrl+x")
	if !strings.Contains(h.screen(), "put the cursor on a property's line") {
		t.Errorf("ctrl+x off a property says nothing:\n%s", h.screen())
	}
}

func TestRawEditorGolden(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {200, 60}} {
		t.Run(fmt.Sprintf("error_%dx%d", size[0], size[1]), func(t *testing.T) {
			h := rawEditor(t, size[0], size[1])
			setRaw(h, "{\n  \"entities\": [\n    {\"name\": \"a\",, }\n  ]\n}")
			view := h.m.View().Content
			checkFits(t, view, size[0], size[1])
			golden.RequireEqual(t, h.screen())
		})
	}
}
