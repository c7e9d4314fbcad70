package ui

import (
	"net/http/httptest"
	"strings"
	"testing"

	"mcpwitness/demo"
	"mcpwitness/session"
)

// Over Streamable HTTP the wire list shows each frame's exchange (status,
// time, JSON or SSE, the session id short) and the frame's view all of it.
func TestWireShowsHTTPExchanges(t *testing.T) {
	srv := httptest.NewServer(demo.Handler(nil))
	t.Cleanup(srv.Close)
	h := httpHarness(t, srv.URL)
	h.key("w")
	h.until("the wire pane", func() bool { return h.m.mode == modeWire })
	var id string
	fr := h.m.St.Frames()
	for n := fr.First(); n < fr.Total(); n++ {
		if f := fr.Abs(n); f.HTTP != nil && f.HTTP.SessionID != "" {
			id = f.HTTP.SessionID
		}
	}
	if id == "" {
		t.Fatal("no frame carries an HTTP exchange with a session id")
	}
	screen := h.screen()
	if want := "200 · "; !strings.Contains(screen, want) {
		t.Errorf("the wire list shows no status column %q:\n%s", want, screen)
	}
	if want := session.ShortSessionID(id); !strings.Contains(screen, want) {
		t.Errorf("the wire list does not show the session id short (%s):\n%s", want, screen)
	}
	if !strings.Contains(screen, " · JSON · ") && !strings.Contains(screen, " · SSE · ") {
		t.Errorf("the wire list does not say JSON or SSE:\n%s", screen)
	}
	// The selected (newest) frame's view has the whole exchange.
	h.until("the frame's view", func() bool { return !h.m.wire.Busy() })
	screen = h.screen()
	for _, want := range []string{"HTTP POST " + srv.URL, "Mcp-Session-Id: " + id, "Content-Type: "} {
		if !strings.Contains(screen, want) {
			t.Errorf("the frame's view lacks %q:\n%s", want, screen)
		}
	}
}
