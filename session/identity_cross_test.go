package session

import (
	"mcpwitness/record"
	"slices"
	"testing"
)

// A stdio server and an HTTP one differ in their transport (and in what
// both have, such as the protocol asked for), not in the parts only one
// transport has: "cwd" and "header-cmd" read as settings nobody made.
func TestDifferencesAcrossTransports(t *testing.T) {
	k := testKey(t, "a")
	stdio := Target{Command: []string{"node", "server.js"}, DigestKey: k}.Identify(identityOpts)
	http := Target{URL: "http://127.0.0.1:3001/mcp", DigestKey: k}.Identify(identityOpts)
	if got := stdio.Differences(http); !slices.Equal(got, []string{record.PartTransport}) {
		t.Errorf("stdio → http differ in %q, want only the transport", got)
	}
	newer := identityOpts
	newer.Protocol = "2025-11-25"
	if got := http.Differences(Target{Command: []string{"node", "server.js"}, DigestKey: k}.Identify(newer)); !slices.Equal(got, []string{record.PartProtocol, record.PartTransport}) {
		t.Errorf("http → stdio with another protocol differ in %q, want protocol and transport", got)
	}
	// On one transport a part only one side has is still named.
	withCwd := Target{Command: []string{"node", "server.js"}, Dir: "/srv", DigestKey: k}.Identify(identityOpts)
	if got := stdio.Differences(withCwd); !slices.Equal(got, []string{record.PartCwd}) {
		t.Errorf("stdio → stdio with --cwd differ in %q, want cwd", got)
	}
}
