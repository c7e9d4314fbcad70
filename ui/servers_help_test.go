package ui

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"

	"mcpwitness/record"
)

// With several servers open, ? lists the root's keys: S (the server
// picker) and E (every server's events), on a server that is ready and on
// one that failed; with one server it does not.
func TestHelpListsTheServersKeys(t *testing.T) {
	failing := func(context.Context, *record.Log) (Backend, error) {
		return nil, errors.New(`cannot start "/nonexistent/server": program not found`)
	}
	h := newServersHarness(t, [][]string{{"alpha"}, {"broken"}},
		[]func(context.Context, *record.Log) (Backend, error){demoDial(t), failing})
	h.until("alpha listed and broken failed", func() bool {
		a, b := h.r.servers[0].m, h.r.servers[1].m
		return a.toolCount() > 0 && !a.ops.walking() && b.link == linkFailed
	})
	for _, i := range []int{0, 1} {
		if h.r.cur != i {
			h.key("S")
			h.key("down")
			h.key("enter")
		}
		h.key("?")
		if h.r.servers[i].m.mode != modeHelp {
			t.Fatalf("server %d: ? did not open the help", i+1)
		}
		help := h.screen()
		for _, want := range []*regexp.Regexp{regexp.MustCompile(`\bS +server picker `), regexp.MustCompile(`\bE +all servers' events `)} {
			if !want.MatchString(help) {
				t.Errorf("server %d: the help lacks /%s/:\n%s", i+1, want, help)
			}
		}
		h.key("?")
	}

	one, _ := demoHarness(t)
	one.key("?")
	if s := one.screen(); strings.Contains(s, "all servers' events") {
		t.Errorf("the help of one server lists E:\n%s", s)
	}
}
