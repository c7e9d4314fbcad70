package session

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"mcpwitness/internal/hostiletest"
	"mcpwitness/record"
)

// A server that asks faster than anyone answers: maxAwaiting of its
// requests wait for the person, each one past them is refused at once
// with an error that says why, and is recorded as refused. Once one is
// answered, the next is asked again.
func TestAFloodOfAsksIsBounded(t *testing.T) {
	t.Parallel()
	s := dial(t, hostile(t, hostiletest.ModeServerRequests), &Options{Answerer: NewInteractive(), Timeout: time.Minute})
	flood := func(count int) {
		t.Helper()
		args, _ := json.Marshal(map[string]any{"method": MethodSampling, "count": count})
		if r := s.Call(context.Background(), "flood", args, nil); r.Err != nil {
			t.Fatalf("flood: %v", r.Err)
		}
	}
	// counts waits for the asks and refusals to reach asked and refused.
	counts := func(asked, refused int) {
		t.Helper()
		deadline := time.Now().Add(time.Minute) // a hang guard
		for {
			var a, r int
			for _, ev := range s.Log().Events() {
				switch {
				case ev.Kind != record.KindServerCall || ev.Method != MethodSampling:
				case ev.Text == "asked":
					a++
				case strings.Contains(ev.Text, "already await an answer; this one is refused"):
					r++
				}
			}
			if a == asked && r == refused {
				return
			}
			if time.Now().After(deadline) || a > asked || r > refused {
				t.Fatalf("%d asked and %d refused, want %d and %d", a, r, asked, refused)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}

	const n = maxAwaiting + 36
	flood(n)
	counts(maxAwaiting, n-maxAwaiting)
	if got := s.asks.awaiting.Load(); got != maxAwaiting {
		t.Fatalf("%d asks await a reply, want %d", got, maxAwaiting)
	}

	var seq int64
	for _, ev := range s.Log().Events() {
		if ev.Kind == record.KindServerCall && ev.Text == "asked" {
			seq = askSeq(t, ev.ID)
			break
		}
	}
	if !s.Reply(seq, RejectSampling("a test")) {
		t.Fatal("the first ask takes no reply")
	}
	for deadline := time.Now().Add(time.Minute); s.asks.awaiting.Load() != maxAwaiting-1; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the answered ask still awaits")
		}
	}
	flood(1)
	counts(maxAwaiting+1, n-maxAwaiting)
}

// askSeq reads the number of an ask from its events' ID ("ask-N").
func askSeq(t *testing.T, id string) int64 {
	t.Helper()
	var n int64
	if _, err := fmt.Sscanf(id, "ask-%d", &n); err != nil {
		t.Fatalf("ask id %q: %v", id, err)
	}
	return n
}
