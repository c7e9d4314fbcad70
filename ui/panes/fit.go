package panes

import (
	"strings"

	"charm.land/bubbles/v2/textinput"

	"mcpwitness/render"
	"mcpwitness/themes"
)

// FitLines joins the first h lines, each fitted to w columns.
func FitLines(lines []string, w, h int) string {
	var b strings.Builder
	for i, l := range lines[:min(len(lines), h)] {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(render.Fit(l, w))
	}
	return b.String()
}

// StyleFields draws the inputs of a form or the editor in the styles
// sty, with a steady cursor.
func StyleFields(inputs []textinput.Model, sty *themes.Styles) {
	for i := range inputs {
		s := inputs[i].Styles()
		s.Focused.Text, s.Blurred.Text = sty.Text, sty.Text
		s.Focused.Placeholder, s.Blurred.Placeholder = sty.Subtle, sty.Subtle
		s.Cursor.Blink = false
		inputs[i].SetStyles(s)
	}
}
