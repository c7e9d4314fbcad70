package panes

import (
	"encoding/json"
	"strings"

	"mcpwitness/render"
	"mcpwitness/sanitize"
	"mcpwitness/tooldef"
)

// insertSkeleton puts in place of the value on the cursor's line (a
// property, "name": value) the skeleton of that property's schema: its
// required members, defaults and first enum values ([tooldef.Skeleton]).
// The property is found in the input schema by the names of the members
// that enclose the line, read from the indentation.
func (e *EditorPane) insertSkeleton() {
	lines := strings.Split(e.Area.Value(), "\n")
	row := e.Area.Line()
	if row >= len(lines) {
		return
	}
	path, ok := propertyPath(lines, row)
	if !ok {
		e.Note = `put the cursor on a property's line ("name": …) to insert its skeleton`
		return
	}
	sub := e.tool.Input
	for _, name := range path {
		s := tooldef.ReadSchema(sub)
		if s.MainType() == "array" && len(s.Items) > 0 {
			s = tooldef.ReadSchema(s.Items)
		}
		sub = nil
		for _, p := range s.Props() {
			if p.Name == name {
				sub = p.Schema
			}
		}
		if sub == nil {
			e.Note = "the input schema has no property " + sanitize.Line(strings.Join(path, "."))
			return
		}
	}
	skel := strings.TrimSpace(string(tooldef.Skeleton(sub)))
	if s := tooldef.ReadSchema(sub); s.MainType() == "array" && len(s.Items) > 0 {
		skel = "[\n  " + strings.ReplaceAll(strings.TrimSpace(string(tooldef.Skeleton(s.Items))), "\n", "\n  ") + "\n]"
	}
	line := lines[row]
	colon := strings.Index(line, ":")
	indent := line[:len(line)-len(strings.TrimLeft(line, " "))]
	comma := ""
	if strings.HasSuffix(strings.TrimSpace(line), ",") {
		comma = ","
	}
	lines[row] = line[:colon+1] + " " + strings.ReplaceAll(render.SafeJSON(skel), "\n", "\n"+indent) + comma
	e.Area.SetValue(strings.Join(lines, "\n"))
	e.Area.MoveToBegin()
	for range row {
		e.Area.CursorDown()
	}
	e.Area.CursorEnd()
	e.Note = ""
}

// propertyPath names the property on line row of pretty JSON and the
// members enclosing it, outermost first: each is the nearest line above,
// less indented, that opens an object or array as a member's value.
func propertyPath(lines []string, row int) ([]string, bool) {
	name, ok := memberName(lines[row])
	if !ok {
		return nil, false
	}
	path := []string{name}
	depth := indentOf(lines[row])
	for i := row - 1; i >= 0 && depth > 0; i-- {
		d := indentOf(lines[i])
		t := strings.TrimSpace(lines[i])
		if d >= depth || !strings.HasSuffix(t, "{") && !strings.HasSuffix(t, "[") {
			continue
		}
		depth = d
		if n, ok := memberName(lines[i]); ok {
			path = append([]string{n}, path...)
		}
	}
	return path, true
}

// memberName is the name of the member a line of pretty JSON starts.
func memberName(line string) (string, bool) {
	t := strings.TrimSpace(line)
	if !strings.HasPrefix(t, `"`) {
		return "", false
	}
	end := strings.Index(t[1:], `":`)
	if end < 0 {
		return "", false
	}
	var name string
	if json.Unmarshal([]byte(t[:end+2]), &name) != nil {
		return "", false
	}
	return name, true
}

func indentOf(line string) int { return len(line) - len(strings.TrimLeft(line, " \t")) }
