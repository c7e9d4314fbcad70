package fold

import (
	"testing"

	"mcpwitness/record"
)

// A restart's new connection makes the state live again; the closed row of
// the old connection stays.
func TestConnectAfterCloseIsLive(t *testing.T) {
	s := New(nil)
	srv := &record.ServerInfo{Name: "demo", Transport: "stdio"}
	s.Apply(record.Event{Kind: record.KindConnect, Server: srv})
	s.Apply(record.Event{Kind: record.KindClosed, Text: "server exited: exit status 3"})
	if !s.Closed() {
		t.Fatal("not closed after the closed event")
	}
	s.Apply(record.Event{Kind: record.KindConnect, Server: srv})
	if s.Closed() || s.ClosedWhy() != "" {
		t.Errorf("after a new connection: closed %v %q, want live", s.Closed(), s.ClosedWhy())
	}
}
