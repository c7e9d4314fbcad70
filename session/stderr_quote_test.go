package session

import (
	"fmt"
	"strings"
	"testing"
)

// The quote of a crash's stderr counts the lines it leaves out between the
// cause and the tail in good English: Node's "Cannot find module" left one
// out and said "… (1 more lines)".
func TestStderrQuoteCountsTheLinesLeftOut(t *testing.T) {
	for skipped, want := range map[int]string{1: "… (1 more line)\n", 3: "… (3 more lines)\n"} {
		var l stderrLog
		l.add("Error: Cannot find module '/nonexist.js'")
		for i := range skipped + stderrTail {
			l.add(fmt.Sprintf("    at frame %d", i))
		}
		if got := l.text(); !strings.Contains(got, want) {
			t.Errorf("%d left out: %q does not say %q", skipped, got, want)
		}
	}
}
