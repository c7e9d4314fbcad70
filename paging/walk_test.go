package paging_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"mcpwitness/finding"
	"mcpwitness/paging"
)

func TestWalkComplete(t *testing.T) {
	srv := scripted(map[string]string{
		"":   page("tools", []string{"a", "b"}, "p2"),
		"p2": page("tools", []string{"c", "d"}, "p3"),
		"p3": page("tools", []string{"e"}, ""),
	})
	type req struct {
		n      int
		cursor string
	}
	var reqs []req
	var onPage []int
	opts := &paging.Options{
		OnRequest: func(n int, cursor string) { reqs = append(reqs, req{n, cursor}) },
		OnPage:    func(p paging.Page) { onPage = append(onPage, p.Number) },
	}
	r := paging.Walk(context.Background(), paging.Tools(), paging.NewCounter(), srv.fetch, opts)

	if r.Incomplete != paging.Complete || r.Err != nil || r.Error != "" {
		t.Fatalf("walk = %q, %v; want complete", r.Incomplete, r.Err)
	}
	if got, want := names(r), []string{"a", "b", "c", "d", "e"}; !reflect.DeepEqual(got, want) {
		t.Errorf("items = %q, want %q", got, want)
	}
	if r.Count() != 5 {
		t.Errorf("Count() = %d, want 5", r.Count())
	}
	if want := []req{{1, ""}, {2, "p2"}, {3, "p3"}}; !reflect.DeepEqual(reqs, want) {
		t.Errorf("OnRequest calls = %v, want %v", reqs, want)
	}
	if want := []int{1, 2, 3}; !reflect.DeepEqual(onPage, want) {
		t.Errorf("OnPage calls = %v, want %v", onPage, want)
	}
	wantNext := []string{"p2", "p3", ""}
	for i, p := range r.Pages {
		if p.NextCursor != wantNext[i] {
			t.Errorf("page %d: NextCursor %q, want %q", p.Number, p.NextCursor, wantNext[i])
		}
		if want := []string{"1", "2", "3"}[i]; p.RequestID != want {
			t.Errorf("page %d: RequestID %q, want %q", p.Number, p.RequestID, want)
		}
		if p.Generation != int64(i+1) {
			t.Errorf("page %d: Generation %d, want %d", p.Number, p.Generation, i+1)
		}
		if p.Ms != float64(p.Elapsed)/1e6 {
			t.Errorf("page %d: Ms %v does not match Elapsed %v", p.Number, p.Ms, p.Elapsed)
		}
	}
	if r.Generation != 3 {
		t.Errorf("Generation = %d, want 3", r.Generation)
	}
	if len(r.Findings) != 0 {
		t.Errorf("findings = %+v, want none", r.Findings)
	}
}

func TestWalkCursorRepeatedMessage(t *testing.T) {
	srv := scripted(map[string]string{
		"":  page("tools", []string{"a"}, "A"),
		"A": page("tools", []string{"b"}, "B"),
		"B": page("tools", []string{"c"}, "A"),
	})
	r := paging.Walk(context.Background(), paging.Tools(), nil, srv.fetch, nil)
	if r.Incomplete != paging.CursorRepeated {
		t.Fatalf("Incomplete = %q, want %q", r.Incomplete, paging.CursorRepeated)
	}
	if got, want := names(r), []string{"a", "b", "c"}; !reflect.DeepEqual(got, want) {
		t.Errorf("items = %q, want %q: the page that named the cursor is kept", got, want)
	}
	if r.Err != nil {
		t.Errorf("Err = %v, want nil: the walk stopped on purpose", r.Err)
	}
	f := r.Findings[0]
	if f.Check != paging.CheckCursorRepeated || f.Severity != finding.SeverityError || f.Page != 3 {
		t.Errorf("finding = %+v, want cursor-repeated error on page 3", f)
	}
	for _, s := range []string{`"A"`, "page 3", "page 2", "page 1"} {
		if !strings.Contains(f.Message, s) {
			t.Errorf("message %q does not name %s", f.Message, s)
		}
	}
}

func TestWalkLongCursorTruncated(t *testing.T) {
	long := strings.Repeat("x", 300)
	srv := scripted(map[string]string{
		"":   page("tools", []string{"a"}, long),
		long: page("tools", []string{"b"}, long),
	})
	r := paging.Walk(context.Background(), paging.Tools(), nil, srv.fetch, nil)
	if r.Incomplete != paging.CursorRepeated || len(r.Findings) != 1 {
		t.Fatalf("walk = %q %+v, want one cursor-repeated finding", r.Incomplete, r.Findings)
	}
	msg := r.Findings[0].Message
	if strings.Contains(msg, long) || !strings.Contains(msg, "…") || !strings.Contains(msg, "300 bytes") {
		t.Errorf("message %q does not shorten the 300-byte cursor", msg)
	}
	if len(msg) > 200 {
		t.Errorf("message is %d bytes long", len(msg))
	}
}

func TestWalkPageLimit(t *testing.T) {
	for _, tt := range []struct {
		opts *paging.Options
		want int
	}{
		{&paging.Options{MaxPages: 1}, 1},
		{&paging.Options{MaxPages: 7}, 7},
		{&paging.Options{}, paging.DefaultMaxPages},
		{&paging.Options{MaxPages: -3}, paging.DefaultMaxPages},
		{nil, paging.DefaultMaxPages},
	} {
		srv := endless()
		r := paging.Walk(context.Background(), paging.Tools(), nil, srv.fetch, tt.opts)
		if got := len(srv.cursors()); got != tt.want {
			t.Errorf("opts %+v: %d requests sent, want %d", tt.opts, got, tt.want)
		}
		if r.Incomplete != paging.PageLimit || len(r.Pages) != tt.want {
			t.Errorf("opts %+v: %q with %d pages, want page-limit with %d", tt.opts, r.Incomplete, len(r.Pages), tt.want)
		}
		if len(r.Findings) != 1 {
			t.Fatalf("findings = %+v, want one", r.Findings)
		}
		f := r.Findings[0]
		if f.Check != paging.CheckPageLimit || f.Severity != finding.SeverityError || f.Page != tt.want {
			t.Errorf("finding = %+v, want page-limit error on page %d", f, tt.want)
		}
		// The user reads how to get the rest.
		if !strings.Contains(f.Message, "raise --max-pages to read more") ||
			!strings.Contains(f.Message, fmt.Sprintf("stopped after %d page", tt.want)) {
			t.Errorf("finding message %q does not say the bound and that --max-pages raises it", f.Message)
		}
		if next := r.Pages[len(r.Pages)-1].NextCursor; !strings.Contains(f.Message, next) {
			t.Errorf("message %q does not name the cursor left %q", f.Message, next)
		}
	}
}

func TestWalkFetchError(t *testing.T) {
	boom := errors.New("connection reset")
	srv := &server{answer: func(_ context.Context, cursor string) (string, error) {
		switch cursor {
		case "":
			return page("tools", []string{"a"}, "p2"), nil
		case "p2":
			return page("tools", []string{"b"}, "p3"), nil
		}
		return "", boom
	}}
	c := paging.NewCounter()
	r := paging.Walk(context.Background(), paging.Tools(), c, srv.fetch, nil)
	if r.Incomplete != paging.Failed {
		t.Fatalf("Incomplete = %q, want %q", r.Incomplete, paging.Failed)
	}
	if !errors.Is(r.Err, boom) {
		t.Errorf("Err = %v, want it to wrap %v", r.Err, boom)
	}
	if !strings.Contains(r.Error, "tools/list page 3") {
		t.Errorf("Error %q does not name the page", r.Error)
	}
	if got, want := names(r), []string{"a", "b"}; !reflect.DeepEqual(got, want) {
		t.Errorf("items = %q, want %q", got, want)
	}
	if r.Generation != 2 {
		t.Errorf("Generation = %d, want 2 (the last accepted page)", r.Generation)
	}
	if gen, out := c.Snapshot(); gen != 3 || out != 0 {
		t.Errorf("counter = gen %d out %d, want gen 3 out 0: a failed request settles too", gen, out)
	}
}

func TestWalkNilAnswer(t *testing.T) {
	fetch := func(context.Context, string) (*paging.Answer, error) { return nil, nil }
	r := paging.Walk(context.Background(), paging.Tools(), nil, fetch, nil)
	if r.Incomplete != paging.Failed || r.Err == nil || !strings.Contains(r.Err.Error(), "no answer") {
		t.Errorf("walk = %q, %v; want failed with no answer", r.Incomplete, r.Err)
	}
}

// With DropItems the Result's pages keep their counts and cursors but not
// their items, which OnPage and Stop still get whole; the findings read
// from the items (duplicates) are made all the same.
func TestWalkDropItems(t *testing.T) {
	srv := scripted(map[string]string{
		"":   page("tools", []string{"a", "b"}, "p2"),
		"p2": page("tools", []string{"b", "c"}, ""),
	})
	var seen []string
	opts := &paging.Options{
		DropItems: true,
		OnPage: func(p paging.Page) {
			seen = append(seen, fmt.Sprint(len(p.Items), " items"))
		},
		Stop: func(p paging.Page) bool {
			seen = append(seen, strings.Join(p.Keys, ","))
			return false
		},
	}
	r := paging.Walk(context.Background(), paging.Tools(), nil, srv.fetch, opts)
	if r.Incomplete != paging.Complete || len(r.Pages) != 2 {
		t.Fatalf("walk = %q with %d pages, want complete with 2", r.Incomplete, len(r.Pages))
	}
	if want := []string{"2 items", "a,b", "2 items", "b,c"}; !reflect.DeepEqual(seen, want) {
		t.Errorf("OnPage and Stop saw %q, want %q", seen, want)
	}
	for _, p := range r.Pages {
		if p.Items != nil || p.Count != 2 {
			t.Errorf("page %d kept %d items, count %d; want none kept, count 2", p.Number, len(p.Items), p.Count)
		}
	}
	if r.Count() != 4 || r.Pages[0].NextCursor != "p2" {
		t.Errorf("Count() = %d, first nextCursor %q; want 4 and p2", r.Count(), r.Pages[0].NextCursor)
	}
	if len(r.Findings) != 1 || r.Findings[0].Check != paging.CheckDuplicateItem {
		t.Errorf("findings = %+v, want the duplicate b", r.Findings)
	}
}

func TestWalkDuplicates(t *testing.T) {
	srv := scripted(map[string]string{
		"":   page("tools", []string{"a", "b"}, "p2"),
		"p2": page("tools", []string{"b", "c", "c"}, "p3"),
		"p3": page("tools", []string{"a", "b", "c", "d"}, ""),
	})
	r := paging.Walk(context.Background(), paging.Tools(), nil, srv.fetch, nil)
	if r.Incomplete != paging.Complete {
		t.Fatalf("Incomplete = %q, want complete: duplicates are warnings", r.Incomplete)
	}
	want := []struct {
		page    int
		message string
	}{
		{2, `name "b" appears on page 1 (item 2) and again on page 2 (item 1)`},
		{2, `name "c" appears twice on page 2 (items 2 and 3)`},
		{3, `name "a" appears on page 1 (item 1) and again on page 3 (item 1)`},
	}
	if len(r.Findings) != len(want) {
		t.Fatalf("findings = %+v, want %d, each duplicate key once", r.Findings, len(want))
	}
	for i, w := range want {
		f := r.Findings[i]
		if f.Check != paging.CheckDuplicateItem || f.Severity != finding.SeverityWarning || f.Page != w.page || f.Message != w.message {
			t.Errorf("finding %d = %+v, want duplicate-item warning on page %d: %q", i, f, w.page, w.message)
		}
	}
	if r.Count() != 9 {
		t.Errorf("Count() = %d, want 9: duplicates are kept as sent", r.Count())
	}
}

func TestWalkItemsWithoutKey(t *testing.T) {
	srv := scripted(map[string]string{
		"": `{"tools":[{"name":"a"},5,{"title":"x"},{"name":3},null,[],{},{"name":"b"},"c"]}`,
	})
	r := paging.Walk(context.Background(), paging.Tools(), nil, srv.fetch, nil)
	if len(r.Findings) != 1 {
		t.Fatalf("findings = %+v, want one", r.Findings)
	}
	f := r.Findings[0]
	want := `page 1: 7 items without a string "name" (items 2, 3, 4, 5, 6, … 2 more)`
	if f.Check != paging.CheckItemWithoutKey || f.Message != want {
		t.Errorf("finding = %+v, want item-without-key %q", f, want)
	}
}

func TestWalkEmptyPageWithCursorMessage(t *testing.T) {
	srv := scripted(map[string]string{
		"":     page("tools", nil, "next"),
		"next": page("tools", []string{"a"}, ""),
	})
	r := paging.Walk(context.Background(), paging.Tools(), nil, srv.fetch, nil)
	want := finding.Finding{
		Check:    paging.CheckEmptyPageWithCursor,
		Severity: finding.SeverityWarning,
		Message:  `page 1 has no items but names nextCursor "next"`,
		Page:     1,
	}
	if len(r.Findings) != 1 || r.Findings[0] != want {
		t.Errorf("findings = %+v, want %+v", r.Findings, want)
	}
	if r.Incomplete != paging.Complete {
		t.Errorf("Incomplete = %q, want complete: the walk follows the cursor", r.Incomplete)
	}
}

func TestWalkTTL(t *testing.T) {
	srv := scripted(map[string]string{
		"":   `{"tools":[],"ttlMs":60000,"nextCursor":"p2"}`,
		"p2": `{"tools":[],"nextCursor":"p3"}`,
		"p3": `{"tools":[],"ttlMs":0,"nextCursor":"p4"}`,
		"p4": `{"tools":[],"ttlMs":1500.5}`,
	})
	r := paging.Walk(context.Background(), paging.Tools(), nil, srv.fetch, nil)
	want := []struct {
		ttl int
		has bool
	}{{60000, true}, {0, false}, {0, true}, {1500, true}}
	if len(r.Pages) != len(want) {
		t.Fatalf("%d pages, want %d", len(r.Pages), len(want))
	}
	for i, w := range want {
		if p := r.Pages[i]; p.TTLMs != w.ttl || p.HasTTL != w.has {
			t.Errorf("page %d: TTLMs %d HasTTL %v, want %d %v", p.Number, p.TTLMs, p.HasTTL, w.ttl, w.has)
		}
	}
}

func TestWalkGenerations(t *testing.T) {
	srv := scripted(map[string]string{
		"":   page("tools", []string{"a"}, "p2"),
		"p2": page("tools", []string{"b"}, "p3"),
		"p3": page("tools", []string{"c"}, ""),
	})
	c := paging.NewCounter()
	// Another list request on the same connection settles while the walk
	// is between pages 1 and 2.
	opts := &paging.Options{OnPage: func(p paging.Page) {
		if p.Number == 1 {
			c.Begin().Settle()
		}
	}}
	r := paging.Walk(context.Background(), paging.Tools(), c, srv.fetch, opts)
	var gens []int64
	for _, p := range r.Pages {
		gens = append(gens, p.Generation)
	}
	if want := []int64{1, 3, 4}; !reflect.DeepEqual(gens, want) {
		t.Errorf("page generations = %v, want %v", gens, want)
	}
	if r.Generation != 4 {
		t.Errorf("Generation = %d, want 4", r.Generation)
	}
}

func TestWalkOnChange(t *testing.T) {
	srv := scripted(map[string]string{
		"":   page("tools", []string{"a"}, "p2"),
		"p2": page("tools", []string{"b"}, ""),
	})
	c := paging.NewCounter()
	var seen [][2]int64
	c.SetOnChange(func(gen int64, out int) { seen = append(seen, [2]int64{gen, int64(out)}) })
	paging.Walk(context.Background(), paging.Tools(), c, srv.fetch, nil)
	if want := [][2]int64{{0, 1}, {1, 0}, {1, 1}, {2, 0}}; !reflect.DeepEqual(seen, want) {
		t.Errorf("OnChange saw %v, want %v", seen, want)
	}
}

func TestResultJSONCarriesError(t *testing.T) {
	fetch := func(context.Context, string) (*paging.Answer, error) { return nil, errors.New("server went away") }
	r := paging.Walk(context.Background(), paging.Tools(), nil, fetch, nil)
	if r.Error != "tools/list page 1: server went away" {
		t.Errorf("Error = %q", r.Error)
	}
	if r.Pages == nil || r.Findings == nil {
		t.Errorf("Pages %v, Findings %v: want empty, not nil, so they encode as []", r.Pages, r.Findings)
	}
}
