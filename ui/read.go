package ui

import (
	"encoding/json"
	"strings"

	"mcpwitness/sanitize"
)

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
