package session

import (
	"fmt"

	"mcpwitness/sanitize"
)

// Noise is what a server sent that is not a JSON-RPC message: on stdio,
// lines of its stdout that are not JSON or not a JSON object or batch.
type Noise struct {
	// Count is how many such frames or lines arrived; First is the first,
	// as it came (not yet sanitised).
	Count int
	First string
}

// noted records raw, a frame from the server that is not JSON-RPC, in the
// tap's [Noise].
func (t *tap) noted(raw []byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.noise.Count == 0 {
		t.noise.First = string(raw)
	}
	t.noise.Count++
}

// NotJSONRPC returns what the server sent so far that is not JSON-RPC: on
// stdio, the lines of its stdout that are not JSON-RPC messages, which a
// client drops or dies of.
func (s *Session) NotJSONRPC() Noise {
	s.tap.mu.Lock()
	defer s.tap.mu.Unlock()
	return s.tap.noise
}

// Text says what n holds in a sentence's words, counting them as unit
// ("line" on stdio, "frame" elsewhere), the first sanitised and cut:
// `2 lines that are not JSON-RPC (the first: "Server starting…")`. It is ""
// when n holds nothing.
func (n Noise) Text(unit string) string {
	if n.Count == 0 {
		return ""
	}
	first := n.First
	if len(first) > stderrQuote {
		first = cutUTF8(first, stderrQuote) + "…"
	}
	return fmt.Sprintf("%s that %s not JSON-RPC (the first: %q)", plural(n.Count, unit), isAre(n.Count), sanitize.Line(first))
}

// isAre is the verb that goes with n things.
func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}
