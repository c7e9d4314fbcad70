package paging_test

import (
	"context"
	"reflect"
	"slices"
	"testing"

	"mcpwitness/paging"
)

// TestWalkStop: a walk whose Options.Stop reports true for a page that
// names a cursor asks for no more pages and ends as stopped, not as a
// finding; on the last page Stop changes nothing.
func TestWalkStop(t *testing.T) {
	pages := map[string]string{
		"":   page("tools", []string{"a", "b"}, "p2"),
		"p2": page("tools", []string{"c", "d"}, "p3"),
		"p3": page("tools", []string{"e"}, ""),
	}
	cases := []struct {
		want       string
		incomplete paging.Incomplete
		sent       []string
		pages      int
	}{
		{"c", paging.Stopped, []string{"", "p2"}, 2},
		{"a", paging.Stopped, []string{""}, 1},
		{"e", paging.Complete, []string{"", "p2", "p3"}, 3},
		{"zz", paging.Complete, []string{"", "p2", "p3"}, 3},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			srv := scripted(pages)
			var asked []int
			opts := &paging.Options{Stop: func(p paging.Page) bool {
				asked = append(asked, p.Number)
				return slices.Contains(p.Keys, c.want)
			}}
			r := paging.Walk(context.Background(), paging.Tools(), nil, srv.fetch, opts)
			if r.Incomplete != c.incomplete || r.Err != nil || r.Error != "" {
				t.Fatalf("walk = %q, %v; want %q and no error", r.Incomplete, r.Err, c.incomplete)
			}
			if !reflect.DeepEqual(srv.sent, c.sent) {
				t.Errorf("cursors sent = %q, want %q", srv.sent, c.sent)
			}
			if len(r.Pages) != c.pages || len(asked) != c.pages {
				t.Errorf("%d pages accepted, Stop asked %v; want %d of each", len(r.Pages), asked, c.pages)
			}
			if len(r.Findings) != 0 {
				t.Errorf("findings = %+v, want none: stopping is the client's choice", r.Findings)
			}
		})
	}
}

// TestIncompleteFinding: every reason but complete and stopped is a
// problem to report.
func TestIncompleteFinding(t *testing.T) {
	for _, c := range []struct {
		i    paging.Incomplete
		want bool
	}{
		{paging.Complete, false}, {paging.Stopped, false},
		{paging.PageLimit, true}, {paging.CursorRepeated, true}, {paging.Aborted, true}, {paging.Failed, true},
	} {
		if got := c.i.Finding(); got != c.want {
			t.Errorf("%q.Finding() = %v, want %v", c.i, got, c.want)
		}
	}
}
