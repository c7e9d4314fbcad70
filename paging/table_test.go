package paging_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"mcpwitness/paging"
)

// walkCase is one scripted walk and what it must give.
type walkCase struct {
	name     string
	pages    map[string]string // cursor → raw result
	maxPages int
	method   paging.Method // tools/list when zero

	want      paging.Incomplete
	sent      []string // cursors the server was asked for
	counts    []int    // items per accepted page
	checks    []string // findings, in order
	errSubstr string   // in Result.Err when not ""
}

func TestWalkTable(t *testing.T) {
	tests := []walkCase{
		{
			name:   "one page",
			pages:  map[string]string{"": page("tools", []string{"a", "b"}, "")},
			sent:   []string{""},
			counts: []int{2},
		},
		{
			name: "three pages",
			pages: map[string]string{
				"":   page("tools", []string{"a", "b"}, "p2"),
				"p2": page("tools", []string{"c", "d"}, "p3"),
				"p3": page("tools", []string{"e"}, ""),
			},
			sent:   []string{"", "p2", "p3"},
			counts: []int{2, 2, 1},
		},
		{
			name:   "empty list",
			pages:  map[string]string{"": `{"tools":[]}`},
			sent:   []string{""},
			counts: []int{0},
		},
		{
			name:   "prompts",
			method: paging.Prompts(),
			pages: map[string]string{
				"":  page("prompts", []string{"a"}, "x"),
				"x": page("prompts", []string{"b"}, ""),
			},
			sent:   []string{"", "x"},
			counts: []int{1, 1},
		},
		{
			name: "bound equals the number of pages",
			pages: map[string]string{
				"":   page("tools", []string{"a"}, "p2"),
				"p2": page("tools", []string{"b"}, "p3"),
				"p3": page("tools", []string{"c"}, ""),
			},
			maxPages: 3,
			sent:     []string{"", "p2", "p3"},
			counts:   []int{1, 1, 1},
		},
		{
			name: "bound one short",
			pages: map[string]string{
				"":   page("tools", []string{"a"}, "p2"),
				"p2": page("tools", []string{"b"}, "p3"),
				"p3": page("tools", []string{"c"}, ""),
			},
			maxPages: 2,
			want:     paging.PageLimit,
			sent:     []string{"", "p2"},
			counts:   []int{1, 1},
			checks:   []string{"page-limit"},
		},
		{
			name: "loop A B A",
			pages: map[string]string{
				"":  page("tools", []string{"a"}, "A"),
				"A": page("tools", []string{"b"}, "B"),
				"B": page("tools", []string{"c"}, "A"),
			},
			want:   paging.CursorRepeated,
			sent:   []string{"", "A", "B"},
			counts: []int{1, 1, 1},
			checks: []string{"cursor-repeated"},
		},
		{
			name: "page names its own cursor",
			pages: map[string]string{
				"":  page("tools", []string{"a"}, "A"),
				"A": page("tools", []string{"b"}, "A"),
			},
			want:   paging.CursorRepeated,
			sent:   []string{"", "A"},
			counts: []int{1, 1},
			checks: []string{"cursor-repeated"},
		},
		{
			name: "loop with duplicates reports both",
			pages: map[string]string{
				"":  page("tools", []string{"a"}, "A"),
				"A": page("tools", []string{"a"}, "A"),
			},
			want:   paging.CursorRepeated,
			sent:   []string{"", "A"},
			counts: []int{1, 1},
			checks: []string{"duplicate-item", "cursor-repeated"},
		},
		{
			name: "empty page with cursor",
			pages: map[string]string{
				"":   page("tools", []string{"a"}, "p2"),
				"p2": page("tools", nil, "p3"),
				"p3": page("tools", []string{"b"}, ""),
			},
			sent:   []string{"", "p2", "p3"},
			counts: []int{1, 0, 1},
			checks: []string{"empty-page-with-cursor"},
		},
		{
			name:   "items missing",
			pages:  map[string]string{"": `{}`},
			sent:   []string{""},
			counts: []int{0},
			checks: []string{"missing-items"},
		},
		{
			name:   "items null",
			pages:  map[string]string{"": `{"tools":null}`},
			sent:   []string{""},
			counts: []int{0},
			checks: []string{"missing-items"},
		},
		{
			name: "items missing with a cursor",
			pages: map[string]string{
				"":   `{"nextCursor":"p2"}`,
				"p2": page("tools", []string{"a"}, ""),
			},
			sent:   []string{"", "p2"},
			counts: []int{0, 1},
			checks: []string{"missing-items", "empty-page-with-cursor"},
		},
		{
			name:   "nextCursor null ends",
			pages:  map[string]string{"": `{"tools":[{"name":"a"}],"nextCursor":null}`},
			sent:   []string{""},
			counts: []int{1},
		},
		{
			name:   "nextCursor empty string ends",
			pages:  map[string]string{"": `{"tools":[{"name":"a"}],"nextCursor":""}`},
			sent:   []string{""},
			counts: []int{1},
		},
		{
			name:   "items without a key",
			pages:  map[string]string{"": `{"tools":[{"name":"a"},5,{"title":"x"},{"name":3},null]}`},
			sent:   []string{""},
			counts: []int{5},
			checks: []string{"item-without-key"},
		},
		{
			name:   "resources keyed by uri",
			method: paging.Resources(),
			pages:  map[string]string{"": `{"resources":[{"uri":"a://1","name":"x"},{"uri":"a://2","name":"x"}]}`},
			sent:   []string{""},
			counts: []int{2},
		},
		{
			name:   "ttlMs not a number",
			pages:  map[string]string{"": `{"tools":[],"ttlMs":"soon"}`},
			sent:   []string{""},
			counts: []int{0},
			checks: []string{"invalid-ttl"},
		},
		{
			name:   "ttlMs negative",
			pages:  map[string]string{"": `{"tools":[],"ttlMs":-1}`},
			sent:   []string{""},
			counts: []int{0},
			checks: []string{"invalid-ttl"},
		},
		{
			name: "unknown cursor",
			pages: map[string]string{
				"": page("tools", []string{"a"}, "gone"),
			},
			want:      paging.Failed,
			sent:      []string{"", "gone"},
			counts:    []int{1},
			errSubstr: `tools/list page 2: invalid cursor "gone"`,
		},
	}
	malformed := []struct{ name, raw, errSubstr string }{
		{"result an array", `[]`, "tools/list page 2: result is an array, not a JSON object"},
		{"result a string", `"tools"`, "result is a string, not a JSON object"},
		{"result null", `null`, "result is null, not a JSON object"},
		{"result a number", `42`, "result is a number, not a JSON object"},
		{"result empty", ``, "tools/list page 2: result is empty"},
		{"result not JSON", `{"tools":[`, "tools/list page 2: result is not valid JSON"},
		{"items an object", `{"tools":{"name":"a"}}`, `tools/list page 2: "tools" is an object, not an array`},
		{"items a string", `{"tools":"a,b"}`, `"tools" is a string, not an array`},
		{"nextCursor a number", `{"tools":[],"nextCursor":3}`, "tools/list page 2: nextCursor is a number, not a string"},
		{"nextCursor an object", `{"tools":[],"nextCursor":{"page":3}}`, "nextCursor is an object, not a string"},
		{"nextCursor a boolean", `{"tools":[],"nextCursor":true}`, "nextCursor is a boolean, not a string"},
		{"items missing and nextCursor bad", `{"nextCursor":3}`, "nextCursor is a number, not a string"},
	}
	for _, m := range malformed {
		tests = append(tests, walkCase{
			name: "malformed: " + m.name,
			pages: map[string]string{
				"":   page("tools", []string{"a"}, "p2"),
				"p2": m.raw,
			},
			want:      paging.Failed,
			sent:      []string{"", "p2"},
			counts:    []int{1},
			errSubstr: m.errSubstr,
		})
	}

	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := tt.method
			if m.Name == "" {
				m = paging.Tools()
			}
			srv := scripted(tt.pages)
			c := paging.NewCounter()
			r := paging.Walk(context.Background(), m, c, srv.fetch, &paging.Options{MaxPages: tt.maxPages})

			if r.Incomplete != tt.want {
				t.Errorf("Incomplete = %q, want %q (err %v)", r.Incomplete, tt.want, r.Err)
			}
			if got := srv.cursors(); !reflect.DeepEqual(got, tt.sent) {
				t.Errorf("cursors sent = %q, want %q", got, tt.sent)
			}
			if got := counts(r); !reflect.DeepEqual(got, tt.counts) {
				t.Errorf("page counts = %v, want %v", got, tt.counts)
			}
			if got := checks(r); !reflect.DeepEqual(got, tt.checks) {
				t.Errorf("findings = %q, want %q\n%+v", got, tt.checks, r.Findings)
			}
			switch {
			case tt.errSubstr == "" && r.Err != nil:
				t.Errorf("Err = %v, want nil", r.Err)
			case tt.errSubstr != "" && (r.Err == nil || !strings.Contains(r.Err.Error(), tt.errSubstr)):
				t.Errorf("Err = %v, want it to contain %q", r.Err, tt.errSubstr)
			}
			if r.Err != nil && r.Error != r.Err.Error() {
				t.Errorf("Error = %q, want Err's text %q", r.Error, r.Err.Error())
			}
			if r.Method != m.Name {
				t.Errorf("Method = %q, want %q", r.Method, m.Name)
			}
			if gen, out := c.Snapshot(); out != 0 || gen != int64(len(tt.sent)) {
				t.Errorf("counter after the walk = gen %d out %d, want gen %d out 0", gen, out, len(tt.sent))
			}
			for i, p := range r.Pages {
				if p.Number != i+1 {
					t.Errorf("page %d has Number %d", i+1, p.Number)
				}
				if p.Count != len(p.Items) {
					t.Errorf("page %d: Count %d, len(Items) %d", p.Number, p.Count, len(p.Items))
				}
				if p.Cursor != tt.sent[i] {
					t.Errorf("page %d: Cursor %q, want %q", p.Number, p.Cursor, tt.sent[i])
				}
			}
		})
	}
}
