package fold_test

import (
	"encoding/json"
	"testing"

	"mcpwitness/fold"
)

func TestReadTool(t *testing.T) {
	for _, tt := range []struct {
		raw, name, label, title, bad, task string
		output, destructive                bool
	}{
		{raw: `{"name":"a\u001b[2J","inputSchema":{"type":"object"},"outputSchema":{"type":"object"},"execution":{"taskSupport":"required"},"annotations":{"title":"From hints","destructiveHint":true}}`,
			name: "a\x1b[2J", label: "a␛[2J", title: "From hints", task: "required", output: true, destructive: true},
		{raw: `{"name":"b","title":"Own","outputSchema":null,"annotations":{"title":"From hints"}}`, name: "b", label: "b", title: "Own"},
		{raw: `{"inputSchema":{}}`, name: "(no name)", label: "(no name)", bad: "the definition has no name"},
		{raw: `[1]`, name: "(unreadable)", label: "(unreadable)", bad: "the tool definition is not a JSON object"},
		{raw: `{"name":5}`, name: "(unreadable)", label: "(unreadable)", bad: "the tool definition's name is a number, not a string"},
	} {
		got := fold.ReadTool(json.RawMessage(tt.raw))
		if got.Name != tt.name || got.Label != tt.label || got.Title != tt.title || got.Bad != tt.bad ||
			got.TaskSupport != tt.task || (got.Output != nil) != tt.output || got.Destructive != tt.destructive {
			t.Errorf("ReadTool(%s) = name %q label %q title %q bad %q task %q output %s destructive %v; want %q %q %q %q %q %v %v",
				tt.raw, got.Name, got.Label, got.Title, got.Bad, got.TaskSupport, got.Output, got.Destructive,
				tt.name, tt.label, tt.title, tt.bad, tt.task, tt.output, tt.destructive)
		}
	}
}
