package ui

import (
	"strings"
	"testing"

	"mcpwitness/record"
)

func TestHeaderShowsTheConfigHash(t *testing.T) {
	h := newHarness(t, options{})
	hash := strings.Repeat("0123456789abcdef", 4)
	h.feed(record.Event{Kind: record.KindConnect, T: t0, Server: &record.ServerInfo{Name: "srv", Version: "1.0", ProtocolVersion: "2025-06-18",
		Transport: "stdio", Target: "node server.js", ConfigHash: hash}})
	if first := strings.SplitN(h.screen(), "\n", 2)[0]; !strings.Contains(first, "config 0123456789ab · node server.js") {
		t.Errorf("header: %s", first)
	}
}
