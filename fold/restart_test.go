package fold

import (
	"testing"

	"mcpwitness/session"
)

// A restart's new connection makes the state live again; the closed row of
// the old connection stays.
func TestConnectAfterCloseIsLive(t *testing.T) {
	s := New(nil)
	srv := &session.ServerInfo{Name: "demo", Transport: "stdio"}
	s.Apply(session.Event{Kind: session.KindConnect, Server: srv})
	s.Apply(session.Event{Kind: session.KindClosed, Text: "server exited: exit status 3"})
	if !s.Closed() {
		t.Fatal("not closed after the closed event")
	}
	s.Apply(session.Event{Kind: session.KindConnect, Server: srv})
	if s.Closed() || s.ClosedWhy() != "" {
		t.Errorf("after a new connection: closed %v %q, want live", s.Closed(), s.ClosedWhy())
	}
}
