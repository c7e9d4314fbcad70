package report_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"mcpwitness/fold"
	"mcpwitness/report"
)

// TestReportReadsTheUIsFold folds a recorded session the way the UI does
// (live, no file to read back from) and checks that the report says the
// same of every walk and call: the two read one fold.
func TestReportReadsTheUIsFold(t *testing.T) {
	path := demoSession(t)
	f := openFile(t, path)
	s, err := report.Summarize(f, nil)
	if err != nil {
		t.Fatal(err)
	}
	ui := fold.New(nil)
	for ev, err := range f.Events() {
		if err != nil {
			t.Fatal(err)
		}
		ui.Apply(ev)
	}
	var want, got []string
	for _, w := range ui.Walks() {
		first, last := w.Generations()
		want = append(want, fmt.Sprintf("walk %d %s pages %d items %d %q gens %d-%d held %v", w.ID, w.Method, len(w.Pages), w.Items, w.Incomplete, first, last, ui.Held(w)))
	}
	for _, c := range ui.Calls() {
		want = append(want, fmt.Sprintf("call %d %s outcome %d sent %v forced %v gen %d verdicts %v", c.ID, c.Tool, c.Outcome(), c.Sent, c.Forced, c.Generation, c.Verdicts))
	}
	for _, w := range s.Walks {
		first, last := w.Generations()
		got = append(got, fmt.Sprintf("walk %d %s pages %d items %d %q gens %d-%d held %v", w.ID, w.Method, len(w.Pages), w.Items, w.Incomplete, first, last, ui.Held(w)))
	}
	for _, c := range s.Calls {
		got = append(got, fmt.Sprintf("call %d %s outcome %d sent %v forced %v gen %d verdicts %v", c.ID, c.Tool, c.Outcome(), c.Sent, c.Forced, c.Generation, c.Verdicts))
	}
	if len(want) != 10 {
		t.Fatalf("the UI's fold has %d walks and calls, want 10", len(want))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the report and the UI disagree (-ui +report):\n%s", diff)
	}
}
