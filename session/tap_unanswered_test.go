package session

import (
	"mcpwitness/record"
	"strconv"
	"testing"
	"time"
)

// The tap remembers at most maxUnanswered requests awaiting an answer: a
// server that never answers cannot grow its memory without bound. An
// answer to one of the newest is still matched to its request; one to a
// request forgotten is a stray. Requests answered at once leave nothing.
func TestTapForgetsTheOldestUnanswered(t *testing.T) {
	t.Parallel()
	tp := newTap(record.NewLog(nil))
	now := time.Now()
	n := maxUnanswered + 10
	for i := 1; i <= n; i++ {
		tp.book(record.Send, "tools/call", strconv.Itoa(i), now)
	}
	if len(tp.sent) != maxUnanswered {
		t.Fatalf("%d requests remembered, want %d", len(tp.sent), maxUnanswered)
	}
	if m, lat, _, stray := tp.book(record.Recv, "", strconv.Itoa(n), now.Add(time.Second)); stray || m != "tools/call" || lat != time.Second {
		t.Errorf("the newest request's answer: method %q, latency %v, stray %v", m, lat, stray)
	}
	if _, _, _, stray := tp.book(record.Recv, "", "1", now); !stray {
		t.Error("an answer to a forgotten request is not a stray")
	}
	if _, _, _, stray := tp.book(record.Recv, "", "11", now); stray {
		t.Error("the oldest request remembered was forgotten")
	}

	for i := n + 1; i <= n+100_000; i++ {
		id := strconv.Itoa(i)
		tp.book(record.Send, "tools/list", id, now)
		tp.book(record.Recv, "", id, now)
	}
	if len(tp.sent) != maxUnanswered-2 {
		t.Errorf("%d requests remembered after answered ones, want %d", len(tp.sent), maxUnanswered-2)
	}
	if max := 2*len(tp.sent) + maxUnanswered + 1; len(tp.sentOrder) > max {
		t.Errorf("the order of requests holds %d, over %d", len(tp.sentOrder), max)
	}
}

// An id sent again (a buggy peer may reuse one) is remembered by its
// newest request, and in that request's place among the oldest.
func TestTapIDSentAgain(t *testing.T) {
	t.Parallel()
	tp := newTap(record.NewLog(nil))
	now := time.Now()
	tp.book(record.Send, "ping", "1", now)
	for i := 2; i <= maxUnanswered; i++ {
		tp.book(record.Send, "tools/call", strconv.Itoa(i), now)
	}
	tp.book(record.Send, "tools/list", "1", now)
	tp.book(record.Send, "tools/call", "last", now)
	if m, _, _, stray := tp.book(record.Recv, "", "1", now); stray || m != "tools/list" {
		t.Errorf("the answer to id 1: method %q, stray %v", m, stray)
	}
	if _, _, _, stray := tp.book(record.Recv, "", "2", now); !stray {
		t.Error("the oldest request was not the one forgotten")
	}
}
