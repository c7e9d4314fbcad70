package render

import (
	"fmt"
	"strings"

	"mcpwitness/fold"
	"mcpwitness/sanitize"
	"mcpwitness/themes"
)

// Listing is where a tool's definition stands: whether the walk it came in
// has ended, whether a typical client holds its call checks for it
// (held), and whether a later change makes it stale.
type Listing struct {
	Done, Held, Stale bool
}

// ToolDoc builds the document of one tool: what it is, what a client does
// with a call to it, its recent calls, and its definition. Prose wraps to
// w; the schemas keep their lines whole, for a view that scrolls sideways.
func ToolDoc(t *fold.Tool, calls []string, k Listing, w int, s *themes.Styles, readOnly bool) []string {
	d := NewWideDoc(w, s)
	toolHead(d, t, k, s, readOnly)
	toolAbout(d, t, s, readOnly)
	if len(calls) > 0 {
		d.Heading(fmt.Sprintf("Calls (%d)", len(calls)))
		from := max(len(calls)-5, 0)
		for i := len(calls) - 1; i >= from; i-- {
			d.Text(s.Text, calls[i], 2)
		}
		if from > 0 {
			d.Text(s.Muted, fmt.Sprintf("… %d older; [ and ] step through them", from), 2)
		}
	}
	for _, sec := range []struct {
		name string
		raw  []byte
	}{{"Input schema", t.Input}, {"Output schema", t.Output}, {"Execution", t.Execution}, {"Annotations", t.Annotations}, {"_meta", t.Meta}} {
		if IsNull(sec.raw) {
			continue
		}
		d.Heading(sec.name)
		d.JSON(sec.raw, 2)
	}
	return d.Lines()
}

// toolHead says the tool's name, where it was listed and whether a typical
// client checks its calls, whether it is stale, and whether its
// definition could be read.
func toolHead(d *Doc, t *fold.Tool, k Listing, s *themes.Styles, readOnly bool) {
	head := s.Bold.Render(sanitize.Line(t.Name))
	if t.Title != "" && t.Title != t.Name {
		head += "  " + s.Muted.Render(sanitize.Line(t.Title))
	}
	d.Add(head)
	where := fmt.Sprintf("walk #%d · page %d · gen %d", t.Walk, t.Page, t.Gen)
	switch {
	case !k.Done:
		where += " · walk in progress"
	case k.Held:
		where += " · held: a typical client checks its calls too"
	default:
		where += " · own: only mcpwitness checks its calls; a typical client would not"
	}
	d.Text(s.Muted, where, 0)
	if k.Stale {
		stale := "stale: the server said its tool list changed after this walk"
		if !readOnly {
			stale += "; r walks again"
		}
		d.Text(s.BadgeStale, stale, 0)
	}
	if t.Bad != "" {
		d.Text(s.Fail, "✗ unreadable definition: "+t.Bad, 0)
	}
	unsafeText(d, t.Unsafe, s)
}

// unsafeText says which fields of an item hold hidden or unsafe
// characters, and what tag characters spell, one line each.
func unsafeText(d *Doc, unsafe []string, s *themes.Styles) {
	for _, u := range unsafe {
		d.Text(s.Warn, "⚠ hidden: "+u, 0)
	}
}

// toolAbout says what the tool is for, whether plain calls to it are
// refused, and what its annotations promise.
func toolAbout(d *Doc, t *fold.Tool, s *themes.Styles, readOnly bool) {
	if t.Description != "" {
		d.Blank()
		d.Text(s.Text, t.Description, 0)
	}
	if t.TaskSupport == "required" {
		d.Blank()
		text := "⊘ Plain calls are refused: execution.taskSupport is \"required\". A client must run it as a task, " +
			"so mcpwitness refuses a plain tools/call before anything is sent"
		if readOnly {
			text += "."
		} else {
			text += "; f sends it anyway (after asking)."
		}
		d.Text(s.Warn, text, 0)
	}
	var hints []string
	for _, h := range []struct {
		on   bool
		text string
	}{{t.ReadOnly, "read-only"}, {t.Destructive, "destructive"}, {t.Idempotent, "idempotent"}, {t.OpenWorld, "open-world"},
		{t.Output != nil, "output schema: answers are checked"}, {t.TaskSupport == "optional", "task support optional"}} {
		if h.on {
			hints = append(hints, h.text)
		}
	}
	if len(hints) > 0 {
		d.Blank()
		d.Text(s.Info, strings.Join(hints, " · "), 0)
	}
}
