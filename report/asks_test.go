package report

import (
	"testing"

	"mcpwitness/fold"
)

// The rows of one server request (asked, a finding, the answer) make one
// note; a new connection, which numbers its asks from 1 again, starts
// afresh.
func TestServerRequestRowsMakeOneNotePerRequest(t *testing.T) {
	var s Summary
	notes, unknown := map[string]int{}, map[string]int{}
	ask := func(id, method, text string) *fold.Row {
		return &fold.Row{Kind: fold.RowServerCall, Ask: id, Method: method, Text: text}
	}
	for _, r := range []*fold.Row{
		{Kind: fold.RowConnect},
		ask("ask-1", "sampling/createMessage", "asked"),
		ask("ask-2", "elicitation/create", "asked"),
		ask("ask-1", "sampling/createMessage", "finding: no maxTokens"),
		ask("ask-1", "sampling/createMessage", "answered with an assistant text message (9 bytes)"),
		ask("ask-2", "elicitation/create", "decline"),
		{Kind: fold.RowConnect},
		ask("ask-1", "sampling/createMessage", "asked"),
	} {
		s.note(r, notes, unknown)
	}
	want := []string{
		"asked · finding: no maxTokens · answered with an assistant text message (9 bytes)",
		"asked · decline",
		"asked",
	}
	if len(s.ServerRequests) != len(want) {
		t.Fatalf("%d notes, want %d: %+v", len(s.ServerRequests), len(want), s.ServerRequests)
	}
	for i, n := range s.ServerRequests {
		if n.Text != want[i] {
			t.Errorf("note %d says %q, want %q", i, n.Text, want[i])
		}
	}
}
