package ui

import (
	"encoding/json"
	"fmt"
	"strings"

	"mcpwitness/sanitize"
)

// readTool reads what the UI shows of one raw tool definition.
func readTool(raw json.RawMessage) *toolEntry {
	var d struct {
		Name        string          `json:"name"`
		Title       string          `json:"title"`
		Description string          `json:"description"`
		Input       json.RawMessage `json:"inputSchema"`
		Output      json.RawMessage `json:"outputSchema"`
		Annotations json.RawMessage `json:"annotations"`
		Execution   json.RawMessage `json:"execution"`
		Meta        json.RawMessage `json:"_meta"`
	}
	t := &toolEntry{Raw: raw}
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Name, t.Bad = "(unreadable)", err.Error()
		t.Label = t.Name
		return t
	}
	t.Name, t.Title, t.Description = d.Name, d.Title, d.Description
	t.Input, t.Output, t.Annotations, t.Execution, t.Meta = d.Input, d.Output, d.Annotations, d.Execution, d.Meta
	if isNull(t.Output) {
		t.Output = nil
	}
	var ann struct {
		Title       string `json:"title"`
		ReadOnly    bool   `json:"readOnlyHint"`
		Destructive *bool  `json:"destructiveHint"`
		Idempotent  bool   `json:"idempotentHint"`
		OpenWorld   *bool  `json:"openWorldHint"`
	}
	if json.Unmarshal(d.Annotations, &ann) == nil {
		t.ReadOnly, t.Idempotent = ann.ReadOnly, ann.Idempotent
		// The spec's default for destructiveHint is true, but only when
		// the tool is not read-only; a badge says it only when declared.
		t.Destructive = ann.Destructive != nil && *ann.Destructive
		t.OpenWorld = ann.OpenWorld != nil && *ann.OpenWorld
		if t.Title == "" {
			t.Title = ann.Title
		}
	}
	var ex struct {
		TaskSupport string `json:"taskSupport"`
	}
	if json.Unmarshal(d.Execution, &ex) == nil {
		t.TaskSupport = ex.TaskSupport
	}
	if t.Name == "" {
		t.Name, t.Bad = "(no name)", "the definition has no name"
	}
	t.Label = sanitize.Line(t.Name)
	return t
}

// shortLevel abbreviates a log level to fit the events pane's kind column.
func shortLevel(l string) string {
	switch l {
	case "warning":
		return "warn"
	case "critical":
		return "crit"
	case "emergency":
		return "emerg"
	}
	return orDash(l)
}

func isNull(raw json.RawMessage) bool {
	s := strings.TrimSpace(string(raw))
	return s == "" || s == "null"
}

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}

// oneLine keeps the first line of s, marking that more was cut, with
// every control character and escape shown visibly (a carriage return
// inside the line too: it would overwrite what came before).
func oneLine(s string) string {
	s = strings.TrimRight(s, "\r\n")
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return sanitize.Line(strings.TrimSuffix(s[:i], "\r")) + " …"
	}
	return sanitize.Line(s)
}

// frameNote reads what a frame is about: the tool called, the cursor
// sent or named, a level, an error or isError; shown safely.
func frameNote(raw json.RawMessage) string { return sanitize.Line(readNote(raw)) }

func readNote(raw json.RawMessage) string {
	var f struct {
		Params struct {
			Name   string `json:"name"`
			Cursor string `json:"cursor"`
			Level  string `json:"level"`
		} `json:"params"`
		Result struct {
			IsError    bool   `json:"isError"`
			NextCursor string `json:"nextCursor"`
		} `json:"result"`
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &f) != nil {
		return ""
	}
	switch {
	case f.Error != nil:
		return fmt.Sprintf("error %d: %s", f.Error.Code, f.Error.Message)
	case f.Result.IsError:
		return "isError"
	case f.Params.Name != "":
		return f.Params.Name
	case f.Params.Cursor != "":
		return "cursor " + f.Params.Cursor
	case f.Result.NextCursor != "":
		return "next " + f.Result.NextCursor
	case f.Params.Level != "":
		return f.Params.Level
	}
	return ""
}
