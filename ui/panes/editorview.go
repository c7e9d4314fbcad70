package panes

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"mcpwitness/render"
	"mcpwitness/sanitize"
	"mcpwitness/tooldef"
)

// View renders the editor in exactly h rows.
func (e *EditorPane) View() string {
	s := e.Sty
	mode := "form · ctrl+r raw JSON"
	if e.Raw {
		mode = "raw JSON"
		if e.canForm {
			mode += " · ctrl+r form"
		}
	}
	title := s.Title.Render("Call "+e.tool.Label) + "  " + s.Muted.Render(mode)
	check := e.CheckLines()
	if most := max(e.H/3, 1); len(check) > most {
		// A low screen keeps room for the fields.
		check = check[:most]
	}
	room := e.H - len(check) - 1
	lines := []string{render.Fit(title, e.w), ""}
	if e.Raw {
		lines = append(lines, e.rawLines()...)
	} else {
		lines = append(lines, e.FormWindow(room-len(lines))...)
	}
	if len(lines) > room {
		lines = lines[:max(room, 1)]
	}
	for len(lines) < room {
		lines = append(lines, "")
	}
	lines = append(lines, "")
	lines = append(lines, check...)
	return FitLines(lines, e.w, e.H)
}

// FormLineCount is how many lines the whole form takes: a line a field,
// and one more for the focused field's description.
func (e *EditorPane) FormLineCount() int {
	n := len(e.Fields)
	if e.focusDesc() {
		n++
	}
	return n
}

// focusDesc says whether the focused field shows its description.
func (e *EditorPane) focusDesc() bool {
	return e.Focus < len(e.Fields) && e.Fields[e.Focus].Desc != ""
}

// FormLines draws lines start to stop (excluded) of the whole form, and
// only those: a server's schema may have thousands of properties.
func (e *EditorPane) FormLines(start, stop int) []string {
	s := e.Sty
	if len(e.Fields) == 0 {
		return []string{" " + s.Muted.Render("This tool takes no arguments; ctrl+s sends {}.")}
	}
	lw := e.labelWidth()
	// The first field drawn: lines past the focused field's description
	// are one field behind.
	i := start
	if e.focusDesc() && start > e.Focus {
		i = start - 1
	}
	line := i
	if e.focusDesc() && i > e.Focus {
		line++
	}
	var out []string
	for ; i < len(e.Fields) && line < stop; i++ {
		f := e.Fields[i]
		label := sanitize.Line(f.Name)
		if f.Required {
			label += "*"
		}
		label = render.Fit(render.Trunc(label, lw), lw)
		ls := s.Label
		marker := "  "
		if i == e.Focus {
			ls = s.LabelFocused
			marker = s.Title.Render("▸ ")
		}
		var value string
		if f.Kind == tooldef.KindMulti {
			value = e.multiView(i)
		} else if f.Kind == tooldef.KindChoice {
			value = e.choiceView(i)
		} else {
			value = e.inputs[i].View()
		}
		if line >= start {
			out = append(out, marker+ls.Render(label)+"  "+value)
		}
		line++
		if i == e.Focus && f.Desc != "" {
			if line >= start && line < stop {
				out = append(out, strings.Repeat(" ", lw+4)+s.Muted.Render(render.Trunc(sanitize.Line(f.Desc), e.w-lw-5)))
			}
			line++
		}
	}
	return out
}

// FormWindow is the form's lines in at most room lines (three at least):
// the focused field and its description always among them, and a line
// saying how many fields are left out above or below. Cut from the top
// only, a long form (server-everything's elicitation of 13 fields in 24
// rows) hid the field being typed into. Only the lines shown are drawn.
func (e *EditorPane) FormWindow(room int) []string {
	n := e.FormLineCount()
	room = max(room, 3)
	if n <= room || len(e.Fields) == 0 {
		return e.FormLines(0, n)
	}
	end := min(e.Focus+1, n) // past the focused field's lines
	if e.focusDesc() && room > 3 {
		// With a mark above and below, three lines hold the field alone.
		end = min(end+1, n)
	}
	start := 0
	if end > room-1 {
		start = end - (room - 2)
	}
	stop := start + room
	if start > 0 {
		stop--
	}
	if stop < n {
		stop--
	}
	stop = min(stop, n)
	var out []string
	if start > 0 {
		out = append(out, e.Sty.Muted.Render(fmt.Sprintf("  … %s above", fmt.Sprintf("%d %s", start, render.Plural(start, "more field", "more fields")))))
	}
	out = append(out, e.FormLines(start, stop)...)
	if below := n - stop; below > 0 {
		out = append(out, e.Sty.Muted.Render(fmt.Sprintf("  … %s below", fmt.Sprintf("%d %s", below, render.Plural(below, "more field", "more fields")))))
	}
	return out
}

func (e *EditorPane) choiceView(i int) string {
	f, s := e.Fields[i], e.Sty
	cur := "–"
	if c := e.choice[i]; c >= 0 {
		cur = string(f.Choices[c])
		var str string
		if json.Unmarshal(f.Choices[c], &str) == nil {
			cur = str
		}
		if c < len(f.Titles) && f.Titles[c] != "" && f.Titles[c] != cur {
			cur = f.Titles[c] + " (" + cur + ")"
		}
	}
	pos := fmt.Sprintf("%d/%d", e.choice[i]+1, len(f.Choices))
	if e.choice[i] < 0 {
		pos = fmt.Sprintf("–/%d", len(f.Choices))
	}
	return s.Muted.Render("‹ ") + s.Choice.Render(sanitize.Line(cur)) + s.Muted.Render(" › "+pos)
}

// CheckLines renders the live check, wrapped, at most five lines.
func (e *EditorPane) CheckLines() []string {
	s := e.Sty
	d := render.NewDoc(e.w-1, s)
	if e.Note != "" {
		d.Text(s.Fail, "✗ "+e.Note, 0)
	}
	c := e.Checked
	switch {
	case c == nil:
		d.Text(s.Muted, "checking…", 0)
	case c.JsonErr != "":
		d.Text(s.Fail, "✗ "+c.JsonErr, 0)
		if bad := strings.Split(string(e.Args()), "\n"); c.jsonLine > 0 && c.jsonLine <= len(bad) {
			// The line it stops at, and where.
			num := fmt.Sprintf("  %d │ ", c.jsonLine)
			text := render.Trunc(sanitize.Line(bad[c.jsonLine-1]), max(e.w-len(num)-2, 8))
			d.Add(s.Muted.Render(num) + s.Text.Render(text))
			if c.jsonCol > 0 && c.jsonCol <= ansi.StringWidth(text) {
				d.Add(strings.Repeat(" ", ansi.StringWidth(num)+c.jsonCol-1) + s.Fail.Render("^"))
			}
		}
	case c.unchecked != "":
		d.Text(s.Warn, "? the "+e.schemaNoun()+" cannot be checked: "+c.unchecked, 0)
	case len(c.Errs) == 0 && e.Answer:
		d.Text(s.Pass, "✓ the answer matches the requested schema", 0)
	case len(c.Errs) == 0:
		d.Text(s.Pass, "✓ arguments match the input schema", 0)
	default:
		refused := "sending is refused unless forced"
		if e.Answer {
			refused = "accepting is refused"
		}
		d.Text(s.Fail, fmt.Sprintf("✗ %d %s against the %s; %s",
			len(c.Errs), render.Plural(len(c.Errs), "problem", "problems"), e.schemaNoun(), refused), 0)
		for _, se := range c.Errs {
			d.Segs([]render.Seg{{Text: "  ", Plain: true}, {Text: render.PathOrRoot(se.InstancePath), Style: s.Warn},
				{Text: "  " + se.Keyword + ": ", Style: s.Muted}, {Text: se.Message, Style: s.Text}}, 4)
		}
	}
	lines := d.Lines()
	if len(lines) > 5 {
		lines = append(lines[:4], s.Muted.Render("  …"))
	}
	return lines
}

// schemaBeside is the narrowest editor that shows the input schema beside
// the raw JSON rather than under it.
const schemaBeside = 90

// areaSize is the size of the raw JSON text area: the editor less its
// title and check, and less the input schema while it shows.
func (e *EditorPane) areaSize() (w, h int) {
	w, h = max(e.w-2, 10), max(e.H-e.reserved(), 3)
	switch {
	case e.hideSchema || e.tool == nil:
	case e.w >= schemaBeside:
		w = max(e.w*3/5-1, 10)
	default:
		h = max(h/2, 3)
	}
	return w, h
}

// schemaSize is the size of the input schema shown with the raw JSON,
// its title line included.
func (e *EditorPane) schemaSize() (w, h int) {
	aw, ah := e.areaSize()
	if e.w >= schemaBeside {
		return max(e.w-aw-3, 8), ah
	}
	return e.w - 2, max(e.H-e.reserved()-ah, 0)
}

// rawLines are the raw JSON, its syntax error's line marked, with the
// input schema beside or under it unless hidden.
func (e *EditorPane) rawLines() []string {
	area := e.markError(strings.Split(e.Area.View(), "\n"))
	if e.hideSchema {
		return area
	}
	s := e.Sty
	sw, sh := e.schemaSize()
	schema := []string{s.Subtle.Render("Input schema · " + e.Keys.Schema.Help().Key + " hides")}
	body := e.schemaLines
	if room, total := sh-1, len(body)+e.schemaLeft; total > room && room > 0 {
		body = append(append([]string(nil), body[:min(room-1, len(body))]...), s.Muted.Render(fmt.Sprintf("… %d more lines", total-min(room-1, len(body)))))
	}
	schema = append(schema, body...)
	if e.w < schemaBeside {
		return append(area, schema[:min(len(schema), sh)]...)
	}
	aw, _ := e.areaSize()
	out := make([]string, len(area))
	rule := s.Rule.Render("│")
	for i, l := range area {
		right := ""
		if i < len(schema) {
			right = schema[i]
		}
		out[i] = render.Fit(l, aw) + " " + rule + " " + render.Fit(right, sw)
	}
	return out
}

// lineNumber reads the line number a row of the text area starts with.
var lineNumber = regexp.MustCompile(`^\s*(\d+) `)

// markError marks, in the text area's rows, the line the JSON stops
// parsing at: its number gives way to ✗.
func (e *EditorPane) markError(rows []string) []string {
	c := e.Checked
	if c == nil || c.jsonLine == 0 {
		return rows
	}
	for i, row := range rows {
		m := lineNumber.FindStringSubmatch(ansi.Strip(row))
		if m == nil || m[1] != strconv.Itoa(c.jsonLine) {
			continue
		}
		gw := len(m[0])
		rows[i] = e.Sty.Fail.Render(fmt.Sprintf("%*s ", gw-1, "✗")) + ansi.Cut(row, gw, ansi.StringWidth(row))
	}
	return rows
}

// schemaNoun names the schema the editor checks against: a tool's input
// schema, or the schema an elicitation requested.
func (e *EditorPane) schemaNoun() string {
	if e.Answer {
		return "requested schema"
	}
	return "input schema"
}
