package report

import (
	"fmt"
	"strings"
)

// walkFindings says through item each walk's findings and that the newest
// walk of a list may be out of date, unless check's findings (see
// [Summary.Findings]) said what check found of them.
func (s *Summary) walkFindings(item func(mark, check, where, msg string)) {
	if len(s.Findings) > 0 {
		return
	}
	for _, w := range s.Walks {
		for _, f := range w.Findings {
			where := fmt.Sprintf("%s walk %d", code(w.Method), w.ID)
			if f.Page > 0 {
				where += fmt.Sprintf(", page %d", f.Page)
			}
			item(severityMark(f.Severity), f.Check, where, f.Message)
		}
	}
	// The newest walk of a list the server said changed after it started:
	// nothing in the file has that list as it now is. (An older one was
	// followed by a newer walk.)
	newest := map[string]bool{}
	for i := len(s.Walks) - 1; i >= 0; i-- {
		w := s.Walks[i]
		if newest[w.Method] {
			continue
		}
		newest[w.Method] = true
		if w.Stale() {
			item("⚠️", "list-changed", fmt.Sprintf("%s walk %d", code(w.Method), w.ID),
				"the server said this list changed after the walk started, and no later walk read it: what it listed may be out of date")
		}
	}
}

// requestFindings says each request's findings through item.
func (s *Summary) requestFindings(item func(mark, check, where, msg string)) {
	for _, r := range s.Requests {
		for _, f := range r.Findings {
			item(severityMark(f.Severity), f.Check, fmt.Sprintf("request %d, %s", r.ID, code(strings.TrimSpace(r.Method+" "+r.About))), f.Message)
		}
	}
}
