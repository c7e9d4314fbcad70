package render

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"charm.land/lipgloss/v2"

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

// Highlight styles the characters of s at byte offsets pos with hit, the
// rest with base. Offsets past s (cut off) are ignored.
func Highlight(s string, pos []int, base, hit lipgloss.Style) string {
	var b strings.Builder
	last := 0
	for _, i := range pos {
		if i < last || i >= len(s) {
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		b.WriteString(base.Render(s[last:i]))
		b.WriteString(hit.Render(s[i : i+size]))
		last = i + size
	}
	b.WriteString(base.Render(s[last:]))
	return b.String()
}
