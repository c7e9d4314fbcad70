package session

import (
	"context"
	"strings"
	"testing"
	"time"

	"mcpwitness/internal/hostiletest"
	"mcpwitness/paging"
)

// Every line of a stdio server's stdout that is not JSON-RPC is counted,
// and the first one kept as it came: garbage writes two before each of
// its three tools/list answers.
func TestNotJSONRPCCountsStdoutNoise(t *testing.T) {
	t.Parallel()
	s := dial(t, hostile(t, hostiletest.ModeGarbage), nil)
	if n := s.NotJSONRPC(); n.Count != 0 {
		t.Fatalf("noise before any list: %+v", n)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, res := s.Walk(ctx, paging.Tools()); res.Incomplete != paging.Complete {
		t.Fatalf("walk %s: %v", res.Incomplete, res.Err)
	}
	if n := s.NotJSONRPC(); n.Count != 6 || n.First != "this is not json" {
		t.Errorf("noise %+v, want 6 lines, the first \"this is not json\"", n)
	}
	clean := dial(t, hostile(t, hostiletest.ModeNormal), nil)
	clean.Walk(ctx, paging.Tools())
	if n := clean.NotJSONRPC(); n.Count != 0 {
		t.Errorf("a clean server's noise: %+v", n)
	}
}

// A handshake that times out after the server printed text on stdout says
// what arrived instead of calling the server silent; a clean exit after we
// closed its stdin is no cause and is not reported.
func TestHandshakeTimeoutSaysWhatArrived(t *testing.T) {
	t.Parallel()
	tests := []struct {
		mode    string
		want    []string
		notWant []string
	}{
		{hostiletest.ModeChattyInit,
			[]string{`instead the server wrote 2 lines that are not JSON-RPC (the first: "` + hostiletest.ChattyInitLine + `") to stdout`},
			[]string{"stayed silent", "exit status 0"}},
		{hostiletest.ModeHangInit,
			[]string{"no answer to the handshake within 1.5s; the server stayed silent on stdout"},
			[]string{"exited", "exit status 0"}},
	}
	for _, tc := range tests {
		t.Run(tc.mode, func(t *testing.T) {
			t.Parallel()
			err := dialErr(t, hostile(t, tc.mode), 1500*time.Millisecond).Error()
			for _, w := range tc.want {
				if !strings.Contains(err, w) {
					t.Errorf("the error does not say %q:\n%s", w, err)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(err, w) {
					t.Errorf("the error says %q:\n%s", w, err)
				}
			}
		})
	}
}
