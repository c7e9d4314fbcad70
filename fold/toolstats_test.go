package fold_test

import (
	"encoding/json"
	"testing"

	"mcpwitness/finding"
	"mcpwitness/fold"
	"mcpwitness/record"
)

// call adds the events of one call of tool: its start, its verdicts and
// its end.
func (b *evs) call(id int64, tool string, sent bool, vs ...finding.Verdict) {
	b.add(record.Event{Kind: record.KindCall, Method: "tools/call", Call: &record.CallInfo{ID: id, Tool: tool, State: record.PhaseStart}})
	for i := range vs {
		b.add(record.Event{Kind: record.KindVerdict, Method: "tools/call", Verdict: &vs[i],
			Call: &record.CallInfo{ID: id, Tool: tool, State: record.PhaseVerdict}})
	}
	b.add(record.Event{Kind: record.KindCall, Method: "tools/call", Call: &record.CallInfo{ID: id, Tool: tool, State: record.PhaseDone,
		Sent: sent, Result: json.RawMessage(`{"content":[]}`)}})
}

func TestToolStatsFollowTheCalls(t *testing.T) {
	var b evs
	b.call(1, "echo", true, finding.Verdict{Check: finding.OutputSchema, Status: finding.Pass})
	b.call(2, "echo", true, finding.Verdict{Check: finding.OutputSchema, Status: finding.Fail})
	b.call(3, "task", false, finding.Verdict{Check: finding.TaskSupport, Status: finding.Refused})
	s := fold.New(nil)
	var snap *fold.State
	for i, ev := range b.all {
		s.Apply(ev)
		if i == 2 { // the first call ended
			snap = s.Clone()
		}
	}
	for _, tt := range []struct {
		st   *fold.State
		tool string
		want fold.ToolStats
	}{
		{s, "echo", fold.ToolStats{Calls: 2, Ended: 2, Last: fold.OutcomeFail, LastID: 2}},
		{s, "task", fold.ToolStats{Calls: 1, Ended: 1, Last: fold.OutcomeRefused, LastID: 3}},
		{s, "none", fold.ToolStats{}},
		// A snapshot keeps what it had: later calls do not reach it.
		{snap, "echo", fold.ToolStats{Calls: 1, Ended: 1, Last: fold.OutcomePass, LastID: 1}},
	} {
		if got := tt.st.ToolStats(tt.tool); got != tt.want {
			t.Errorf("ToolStats(%s) = %+v, want %+v", tt.tool, got, tt.want)
		}
	}
}
