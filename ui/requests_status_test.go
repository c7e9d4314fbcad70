package ui

import (
	"errors"
	"strings"
	"testing"

	"mcpwitness/record"
	"mcpwitness/session"
)

// A request that fails says so on the status line once: the session's
// error names the request already ("ping: …"), and a ping, which is about
// nothing, leaves no stray space ("ping : ping: …" before).
func TestFailedRequestStatusNamesTheRequestOnce(t *testing.T) {
	h, _ := demoHarness(t)
	for _, tc := range []struct {
		method, about, err, want string
	}{
		{record.MethodPing, "", "ping: no answer within 30s; the request was cancelled",
			"ping: no answer within 30s; the request was cancelled"},
		{record.MethodRead, "demo://readme", "resources/read demo://readme: no answer within 30s; the request was cancelled",
			"resources/read demo://readme: no answer within 30s; the request was cancelled"},
		{record.MethodSubscribe, "demo://clock", "the server is gone",
			"resources/subscribe demo://clock: the server is gone"},
	} {
		r := &session.RequestResult{Method: tc.method, About: tc.about, Sent: true, Err: errors.New(tc.err)}
		h.update(requestDoneMsg{method: tc.method, about: tc.about, res: r})
		if got := h.statusText(); !strings.Contains(got, tc.want) || strings.Count(got, tc.method) != 1 {
			t.Errorf("%s %s: status %q, want %q once", tc.method, tc.about, got, tc.want)
		}
	}
}
