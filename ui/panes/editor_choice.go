package panes

import (
	"bytes"
	"encoding/json"
	"fmt"

	"mcpwitness/sanitize"
	"mcpwitness/tooldef"
)

// The fields of the editor's form that are chosen rather than typed: a
// choice (an enum, a const, a boolean, titled consts) and a multi-select
// (an array of them).

// choosing says whether a field is edited by choosing, not typing.
func choosing(f tooldef.Field) bool {
	return f.Kind == tooldef.KindChoice || f.Kind == tooldef.KindMulti
}

// pickedOf marks the choices of a multi-select field that the JSON array
// v holds (none when v is not one).
func pickedOf(f tooldef.Field, v json.RawMessage) []bool {
	picked := make([]bool, len(f.Choices))
	var vs []json.RawMessage
	_ = json.Unmarshal(v, &vs)
	for j, c := range f.Choices {
		for _, x := range vs {
			if bytes.Equal(bytes.TrimSpace(c), bytes.TrimSpace(x)) {
				picked[j] = true
			}
		}
	}
	return picked
}

// pickedJSON is the array of the choices picked in multi-select field i,
// or nil when none is and the field is not required.
func (e *EditorPane) pickedJSON(i int) json.RawMessage {
	f := e.Fields[i]
	var b bytes.Buffer
	b.WriteByte('[')
	n := 0
	for j, on := range e.picks[i] {
		if !on {
			continue
		}
		if n > 0 {
			b.WriteByte(',')
		}
		b.Write(bytes.TrimSpace(f.Choices[j]))
		n++
	}
	if n == 0 && !f.Required {
		return nil
	}
	b.WriteByte(']')
	return b.Bytes()
}

// choose takes a key on a field that is chosen: ←/→ (and space) cycle a
// choice, backspace clears one not required; ←/→ move along a
// multi-select's choices and space picks or unpicks the one shown.
func (e *EditorPane) choose(f tooldef.Field, k string) {
	if f.Kind == tooldef.KindMulti {
		n, at := len(f.Choices), e.choice[e.Focus]
		switch k {
		case "right":
			e.choice[e.Focus] = (at + 1) % n
		case "left":
			e.choice[e.Focus] = (at + n - 1) % n
		case "space":
			e.picks[e.Focus][at] = !e.picks[e.Focus][at]
		}
		return
	}
	n := len(f.Choices)
	switch {
	case k == "right" || k == "space":
		e.choice[e.Focus] = (e.choice[e.Focus] + 1) % n
	case k == "left" && e.choice[e.Focus] < 0:
		e.choice[e.Focus] = n - 1
	case k == "left":
		e.choice[e.Focus] = (e.choice[e.Focus] + n - 1) % n
	case k == "backspace" && !f.Required:
		e.choice[e.Focus] = -1
	}
}

// multiView draws a multi-select field: the choice under its cursor,
// checked or not, where the cursor is, and how many are picked.
func (e *EditorPane) multiView(i int) string {
	f, s := e.Fields[i], e.Sty
	at := e.choice[i]
	cur := string(f.Choices[at])
	var str string
	if json.Unmarshal(f.Choices[at], &str) == nil {
		cur = str
	}
	if at < len(f.Titles) && f.Titles[at] != "" && f.Titles[at] != cur {
		cur = f.Titles[at] + " (" + cur + ")"
	}
	mark, picked := "☐ ", 0
	if e.picks[i][at] {
		mark = "☑ "
	}
	for _, on := range e.picks[i] {
		if on {
			picked++
		}
	}
	return s.Muted.Render("‹ ") + s.Choice.Render(mark+sanitize.Line(cur)) +
		s.Muted.Render(fmt.Sprintf(" › %d/%d · %d picked · space picks", at+1, len(f.Choices), picked))
}
