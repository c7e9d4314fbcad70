package render

import (
	"encoding/json"
	"strings"

	"mcpwitness/sanitize"
)

// ShortLevel abbreviates a log level to fit the events pane's kind column.
func ShortLevel(l string) string {
	switch l {
	case "warning":
		return "warn"
	case "critical":
		return "crit"
	case "emergency":
		return "emerg"
	}
	return OrDash(l)
}

// IsNull reports whether raw is missing or JSON null.
func IsNull(raw json.RawMessage) bool {
	s := strings.TrimSpace(string(raw))
	return s == "" || s == "null"
}

// OrDash is s, or a dash for the empty string.
func OrDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}

// OneLine keeps the first line of s, marking that more was cut, with
// every control character and escape shown visibly (a carriage return
// inside the line too: it would overwrite what came before).
func OneLine(s string) string {
	s = strings.TrimRight(s, "\r\n")
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return sanitize.Line(strings.TrimSuffix(s[:i], "\r")) + " …"
	}
	return sanitize.Line(s)
}
