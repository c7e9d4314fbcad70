package ui

import (
	"strings"
	"testing"

	"mcpwitness/internal/hostiletest"
	"mcpwitness/sanitize"
)

// rowOf is the list row of screen that names name: the left of the first
// line that names it there.
func rowOf(screen, name string) string {
	for _, l := range strings.Split(screen, "\n") {
		left, _, _ := strings.Cut(l, "│")
		if strings.Contains(left, " "+name+" ") {
			return left
		}
	}
	return ""
}

// A tool or prompt whose text hides characters carries the hidden badge,
// explained in the help, and its detail says which field holds what, with
// the text tag characters spell; a tool with only emoji sequences does not.
func TestHiddenTextIsMarked(t *testing.T) {
	h, _, _ := hostileHarness(t, hostiletest.ModeHidden, 160, 40)
	screen := h.screen()
	noHidden(t, "the tools list", screen)
	for _, name := range []string{"read_file", `get\u200buser`} {
		if row := rowOf(screen, name); !strings.Contains(row, "hidden") {
			t.Errorf("the row of %s has no hidden badge: %q\n%s", name, row, screen)
		}
	}
	if row := rowOf(screen, "family"); row == "" || strings.Contains(row, "hidden") {
		t.Errorf("the row of family: %q, want it without the hidden badge\n%s", row, screen)
	}

	h.key("home")
	if sel := h.m.tools.Selected(); sel == nil || sel.Name != "read_file" {
		t.Fatalf("selected %v, want read_file", sel)
	}
	want := `hidden: tool "read_file" description holds 75 tag characters; hidden text: "` + hostiletest.HiddenInstruction + `"`
	if s := h.detailText(); !strings.Contains(s, want) {
		t.Errorf("the detail does not say %s:\n%s", want, s)
	}
	h.checkView("read_file's detail")
	noHidden(t, "read_file's detail", h.screen())

	h.allWalked(4)
	h.selectItem("4", "summarize", "summarize")
	if row := rowOf(h.screen(), "summarize"); !strings.Contains(row, "hidden") {
		t.Errorf("the prompt's row has no hidden badge: %q\n%s", row, h.screen())
	}

	noHidden(t, "the prompts tab", h.screen())

	h.key("?")
	if s := strings.Join(strings.Fields(h.screen()), " "); !strings.Contains(s, "hidden its name, description or schema text holds invisible") {
		t.Errorf("the help does not explain the hidden badge:\n%s", h.screen())
	}
}

// noHidden fails t when the stripped screen holds anything the sanitiser
// would show escaped: the server's hidden characters must reach it escaped.
func noHidden(t *testing.T, where, screen string) {
	t.Helper()
	if f := sanitize.Scan(screen, true); f.Any() {
		t.Errorf("%s holds %s:\n%s", where, f, screen)
	}
}
