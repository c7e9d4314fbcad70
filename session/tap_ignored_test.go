package session

import (
	"mcpwitness/record"
	"testing"
)

// A log message and a progress notification are recorded and kept from
// the SDK, which does nothing with them for a client with no handler of
// them; a notification it acts on (a list changed) goes on to it.
func TestTapKeepsIgnoredNotificationsFromTheSDK(t *testing.T) {
	t.Parallel()
	log := record.NewLog(&record.LogOptions{History: true})
	tp := newTap(log)
	for _, tt := range []struct {
		frame  string
		passed bool
	}{
		{`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hello"}}`, false},
		{`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1}}`, false},
		{`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`, true},
	} {
		if _, ok := tp.receive([]byte(tt.frame)); ok != tt.passed {
			t.Errorf("%s: passed on %v, want %v", tt.frame, ok, tt.passed)
		}
	}
	if !hasEvent(log, record.KindNotification, "hello") {
		t.Error("the log message was not recorded")
	}
	if n := len(wireFrames(log, record.Recv, "notifications/progress")); n != 1 {
		t.Errorf("%d progress frames recorded, want 1", n)
	}
}
