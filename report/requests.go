package report

import (
	"bytes"
	"fmt"
	"strings"

	"mcpwitness/finding"
	"mcpwitness/fold"
	"mcpwitness/record"
)

// requests writes the requests other than lists and calls: each with what
// it was about, whether it was sent, its verdicts with their failing
// instance paths, and its answer. A read, a get or a completion that broke
// the rules is evidence as much as a call is.
func (s *Summary) requests(b *bytes.Buffer) {
	if len(s.Requests) == 0 {
		return
	}
	b.WriteString("## Requests\n\n| # | Request | About | Sent | Verdicts | Answer | Failing instance paths |\n|---:|---|---|---|---|---|---|\n")
	for _, r := range s.Requests {
		about := "—"
		if r.About != "" {
			about = code(r.About)
		}
		fmt.Fprintf(b, "| %d | %s | %s | %s | %s | %s | %s |\n", r.ID, cell(code(r.Method)), cell(about), requestSent(r),
			cell(requestVerdicts(r)), cell(requestAnswer(r)), cell(failingPaths(&Call{Call: &fold.Call{Verdicts: r.Verdicts}}, 5)))
	}
	b.WriteString("\n")
}

// failedRequests counts the requests with a failed, refused or unchecked
// verdict.
func (s *Summary) failedRequests() int {
	n := 0
	for _, r := range s.Requests {
		for _, v := range r.Verdicts {
			if v.Status == finding.Fail || v.Status == finding.Refused || v.Status == finding.Unchecked {
				n++
				break
			}
		}
	}
	return n
}

func requestSent(r *fold.Request) string {
	switch {
	case !r.Done:
		return "—"
	case r.Forced:
		return "yes (forced)"
	case r.Sent:
		return "yes"
	}
	return "**no**"
}

// requestVerdicts is each verdict's status and check, "—" for none.
func requestVerdicts(r *fold.Request) string {
	if len(r.Verdicts) == 0 {
		return "—"
	}
	out := make([]string, len(r.Verdicts))
	for i := range r.Verdicts {
		out[i] = status(&r.Verdicts[i]) + " " + text(r.Verdicts[i].Check)
	}
	return strings.Join(out, ", ")
}

func requestAnswer(r *fold.Request) string {
	switch {
	case !r.Done:
		return "⏳ unfinished: the file ends before the request did"
	case !r.Sent && r.Err != "":
		return "— (not sent): " + text(r.Err)
	case !r.Sent:
		return "— (not sent)"
	case r.Cancelled:
		return "cancelled"
	case r.Err != "":
		return "no answer: " + text(r.Err)
	case len(r.RPCError) > 0:
		return "JSON-RPC error: " + text(record.RPCErrorText(r.RPCError))
	}
	return fmt.Sprintf("answered in %s", ms(r.Ms, true))
}
