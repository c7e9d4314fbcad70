package render

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"mcpwitness/finding"
	"mcpwitness/fold"
	"mcpwitness/paging"
)

// VerdictMark is the symbol of a verdict status.
func VerdictMark(st finding.Status) string {
	switch st {
	case finding.Pass:
		return "✓"
	case finding.Fail:
		return "✗"
	case finding.Refused:
		return "⊘"
	case finding.Unchecked:
		return "?"
	case finding.Skipped:
		return "–"
	}
	return "·"
}

// CallSummary says in a few words how a call ended.
func CallSummary(c *fold.Call) string {
	switch o := c.Outcome(); o {
	case fold.OutcomeRunning:
		return "running"
	case fold.OutcomeCancelled:
		return "cancelled after " + Ms(c.Ms)
	case fold.OutcomeRefused:
		return "⊘ refused · nothing sent"
	case fold.OutcomeError:
		if len(c.RPCError) > 0 {
			return "✗ JSON-RPC error " + rpcErrorText(c.RPCError) + " · " + Ms(c.Ms)
		}
		return "✗ " + c.Err
	default:
		var fails []string
		for _, v := range c.Verdicts {
			if v.Status == finding.Fail || v.Status == finding.Unchecked {
				fails = append(fails, VerdictMark(v.Status)+" "+v.Check)
			}
		}
		word := map[fold.Outcome]string{fold.OutcomePass: "✓ pass", fold.OutcomeIsError: "! isError, checks pass"}[o]
		if len(fails) > 0 {
			word = strings.Join(fails, " ")
		}
		if c.Forced {
			word = "sent anyway · " + word
		}
		return word + " · " + Ms(c.Ms)
	}
}

func rpcErrorText(raw json.RawMessage) string {
	var e struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	if json.Unmarshal(raw, &e) != nil {
		return string(raw)
	}
	return fmt.Sprintf("%d: %s", e.Code, e.Message)
}

// WalkSummary says how a walk stands: "walking page 3…", "✓ 5 pages",
// "⚠ incomplete: cursor-repeated".
func WalkSummary(w *fold.Walk) string {
	switch {
	case w == nil:
		return "no walk yet"
	case !w.Done:
		return fmt.Sprintf("walking page %d…", max(w.Asking, len(w.Pages)+1))
	}
	return WalkEnd(len(w.Pages), w.Incomplete)
}

// WalkEnd says how a walk that read pages pages ended: "✓ 5 pages",
// "✓ stopped at page 2" (the client read no further, no finding),
// "⚠ incomplete: cursor-repeated".
func WalkEnd(pages int, incomplete paging.Incomplete) string {
	if incomplete == paging.Stopped {
		return fmt.Sprintf("✓ stopped at page %d", pages)
	}
	if incomplete != paging.Complete {
		return "⚠ incomplete: " + string(incomplete)
	}
	return fmt.Sprintf("✓ %d %s", pages, Plural(pages, "page", "pages"))
}

// Plural is one when n is 1, else many.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Ms formats a duration given in milliseconds: "0.4 ms", "12 ms", "1.2 s",
// and from a minute on in whole seconds: "1 min 30 s", "5 min", "2 h 5 min"
// (an hour or more leaves the seconds out).
func Ms(ms float64) string {
	switch {
	case ms < 10:
		return fmt.Sprintf("%.1f ms", ms)
	case ms < 1000:
		return fmt.Sprintf("%.0f ms", ms)
	case ms < 59950: // what would print as "60.0 s" is a minute
		return fmt.Sprintf("%.1f s", ms/1000)
	}
	secs := int64(math.Round(ms / 1000))
	h, m, s := secs/3600, secs/60%60, secs%60
	switch {
	case h > 0 && m > 0:
		return fmt.Sprintf("%d h %d min", h, m)
	case h > 0:
		return fmt.Sprintf("%d h", h)
	case s > 0:
		return fmt.Sprintf("%d min %d s", m, s)
	}
	return fmt.Sprintf("%d min", m)
}

// Dur formats d like [Ms].
func Dur(d time.Duration) string { return Ms(float64(d) / float64(time.Millisecond)) }

// TTL formats a page's ttlMs: "ttl 30 s", "ttl 1.5 s", "ttl 5 min".
func TTL(ms int) string {
	if ms%1000 == 0 && ms < 60000 {
		return fmt.Sprintf("ttl %d s", ms/1000)
	}
	return "ttl " + Ms(float64(ms))
}

// Size formats a byte count: "812 B", "4.3 kB", "1.2 MB".
func Size(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 1000*1000:
		return fmt.Sprintf("%.1f kB", float64(n)/1000)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}

// Clock formats t as a wall-clock time in loc.
func Clock(t time.Time, loc *time.Location) string {
	if t.IsZero() {
		return "–"
	}
	return t.In(loc).Format("15:04:05")
}

// ClockMs formats t with milliseconds.
func ClockMs(t time.Time, loc *time.Location) string {
	if t.IsZero() {
		return "–"
	}
	return t.In(loc).Format("15:04:05.000")
}

// Thousands writes n with separators: 45,678.
func Thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	out := make([]byte, 0, len(s)+len(s)/3)
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}

// OutcomeMark is the one-cell mark of what a call came to, as a tool's
// row shows its newest call: ✓ passed, ✗ failed (a check, the transport
// or JSON-RPC), ! the tool said isError with every check passing, ⊘
// refused or cancelled (no answer to check), ? unchecked, ⋯ running.
func OutcomeMark(o fold.Outcome) string {
	switch o {
	case fold.OutcomePass:
		return "✓"
	case fold.OutcomeFail, fold.OutcomeError:
		return "✗"
	case fold.OutcomeIsError:
		return "!"
	case fold.OutcomeRefused, fold.OutcomeCancelled:
		return "⊘"
	case fold.OutcomeUnchecked:
		return "?"
	}
	return "⋯"
}
