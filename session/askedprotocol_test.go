package session

import (
	"mcpwitness/record"
	"testing"
)

// A server that settles on another version than --protocol asked for is
// said so: the asked version is kept beside the negotiated one (the
// header, the connect row and --json show both); one that agrees keeps
// nothing extra.
func TestAskedProtocolKeptWhenTheServerSettlesOnAnother(t *testing.T) {
	t.Parallel()
	// Streamable HTTP with sessions negotiates 2025-11-25 whatever is asked.
	s := dial(t, Target{URL: demoHTTP(t)}, &Options{Protocol: "2026-07-28"})
	if got := s.Info(); got.ProtocolVersion != "2025-11-25" || got.AskedProtocol != "2026-07-28" {
		t.Errorf("protocol %q asked %q, want 2025-11-25 asked for 2026-07-28", got.ProtocolVersion, got.AskedProtocol)
	}
	var connect *record.ServerInfo
	for _, ev := range s.Log().Events() {
		if ev.Kind == record.KindConnect {
			connect = ev.Server
		}
	}
	if connect == nil || connect.AskedProtocol != "2026-07-28" {
		t.Errorf("the connect event %+v does not keep the protocol asked for", connect)
	}
	s = dial(t, demoStdio(t), &Options{Protocol: "2025-11-25"})
	if got := s.Info(); got.ProtocolVersion != "2025-11-25" || got.AskedProtocol != "" {
		t.Errorf("protocol %q asked %q, want 2025-11-25 and nothing asked apart", got.ProtocolVersion, got.AskedProtocol)
	}
}
