package paging_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"mcpwitness/paging"
)

// pagesOf builds accepted pages from item lists: each item is a name, or
// name=JSON for an item with more fields.
func pagesOf(lists ...[]string) []paging.Page {
	var out []paging.Page
	for i, list := range lists {
		p := paging.Page{Number: i + 1}
		for _, it := range list {
			name, def, ok := strings.Cut(it, "=")
			raw := fmt.Sprintf(`{"name":%q}`, name)
			if ok {
				raw = fmt.Sprintf(`{"name":%q,%s}`, name, def)
			}
			p.Items = append(p.Items, json.RawMessage(raw))
		}
		p.Count = len(p.Items)
		out = append(out, p)
	}
	return out
}

func keys[T any](list []T, key func(T) string) []string {
	out := []string{}
	for _, x := range list {
		out = append(out, key(x))
	}
	return out
}

func TestDiffWalksEqual(t *testing.T) {
	a := pagesOf([]string{`add="description":"x","inputSchema":{"type":"object","required":["a"]}`, "echo"}, []string{"sleep"})
	b := pagesOf([]string{`add="inputSchema":{"required":["a"],"type":"object"},"description":"x"`, "echo"}, []string{"sleep"})
	d := paging.DiffWalks(paging.Tools(), a, b)
	if !d.Equal() {
		t.Errorf("walks differing only in key order are not equal: %+v", d)
	}
}

func TestDiffWalksAddedRemovedChanged(t *testing.T) {
	a := pagesOf([]string{`add="description":"Add.","inputSchema":{"type":"object"}`, "echo", `gone="title":"G"`})
	b := pagesOf([]string{`add="description":"Add two.","inputSchema":{"type":"object","required":["a"]}`, `echo="annotations":{"readOnlyHint":true}`, "new"})
	d := paging.DiffWalks(paging.Tools(), a, b)
	want := &paging.Diff{
		Method:  "tools/list",
		Added:   []paging.Placed{{Key: "new", Place: paging.Place{Page: 1, Index: 3, Position: 3}}},
		Removed: []paging.Placed{{Key: "gone", Place: paging.Place{Page: 1, Index: 3, Position: 3}}},
		Changed: []paging.Changed{{Key: "add", Fields: []string{"description", "inputSchema"}}, {Key: "echo", Fields: []string{"annotations"}}},
		Moved:   []paging.Move{},
		Repaged: []paging.Move{},
	}
	if diff := cmp.Diff(want, d); diff != "" {
		t.Errorf("diff (-want +got):\n%s", diff)
	}
	if d.Equal() {
		t.Error("Equal() with items added, removed and changed")
	}
}

func TestDiffWalksOrder(t *testing.T) {
	// b moved to the end; everything after an insertion shifts a page.
	a := pagesOf([]string{"a", "b"}, []string{"c", "d"}, []string{"e"})
	b := pagesOf([]string{"x", "a"}, []string{"c", "d"}, []string{"e", "b"})
	d := paging.DiffWalks(paging.Tools(), a, b)
	if got := keys(d.Moved, func(m paging.Move) string { return m.Key }); !cmp.Equal(got, []string{"b"}) {
		t.Errorf("moved = %q, want only b: the fewest items that explain the new order", got)
	}
	if m := d.Moved[0]; m.Before != (paging.Place{Page: 1, Index: 2, Position: 2}) || m.After != (paging.Place{Page: 3, Index: 2, Position: 6}) {
		t.Errorf("b moved from %+v to %+v", m.Before, m.After)
	}
	if got := keys(d.Repaged, func(m paging.Move) string { return m.Key }); !cmp.Equal(got, []string{}) {
		t.Errorf("repaged = %q, want none: a, c, d and e kept their pages", got)
	}

	// One item more at the start pushes the last item of each page onto the next.
	a = pagesOf([]string{"a", "b"}, []string{"c", "d"})
	b = pagesOf([]string{"z", "a"}, []string{"b", "c"}, []string{"d"})
	d = paging.DiffWalks(paging.Tools(), a, b)
	if got := keys(d.Repaged, func(m paging.Move) string { return m.Key }); !cmp.Equal(got, []string{"b", "d"}) || len(d.Moved) != 0 {
		t.Errorf("repaged = %q, moved %d; want b and d on another page, nothing moved", got, len(d.Moved))
	}
}

func TestDiffWalksKeylessAndDuplicates(t *testing.T) {
	a := pagesOf([]string{"a", "a"})
	a[0].Items = append(a[0].Items, json.RawMessage(`{"title":"no name"}`), json.RawMessage(`7`))
	b := pagesOf([]string{"a"})
	if d := paging.DiffWalks(paging.Tools(), a, b); !d.Equal() {
		t.Errorf("keyless items and repeated keys should be left out: %+v", d)
	}
}

func TestJSONEqual(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{`{"a":1,"b":[1,2]}`, `{"b":[1,2],"a":1}`, true},
		{`1`, `1.0`, true},
		{`100`, `1e2`, true},
		{`12345678901234567890`, `12345678901234567891`, false},
		{`[1,2]`, `[2,1]`, false},
		{`{"a":null}`, `{}`, false},
		{`"1"`, `1`, false},
		{`{"a":1}`, ` {"a" : 1} `, true},
		{`not json`, `not json`, true},
		{`not json`, `{}`, false},
		{`{} {}`, `{}`, false},
	}
	for _, tc := range tests {
		if got := paging.JSONEqual(json.RawMessage(tc.a), json.RawMessage(tc.b)); got != tc.want {
			t.Errorf("JSONEqual(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}
