package paging_test

import (
	"context"
	"encoding/json"
	"fmt"

	"mcpwitness/paging"
)

func ExampleWalk() {
	// A server with three pages of tools whose last page points back at the
	// second: a client that trusts nextCursor would ask forever.
	pages := map[string]string{
		"":   `{"tools":[{"name":"add"},{"name":"echo"}],"nextCursor":"c2","ttlMs":60000}`,
		"c2": `{"tools":[{"name":"sleep"}],"nextCursor":"c3"}`,
		"c3": `{"tools":[{"name":"echo"}],"nextCursor":"c2"}`,
	}
	fetch := func(ctx context.Context, cursor string) (*paging.Answer, error) {
		return &paging.Answer{Result: json.RawMessage(pages[cursor])}, nil
	}

	c := paging.NewCounter()
	r := paging.Walk(context.Background(), paging.Tools(), c, fetch, &paging.Options{
		OnPage: func(p paging.Page) {
			fmt.Printf("page %d: %d items, cursor %q, next %q, gen %d\n", p.Number, p.Count, p.Cursor, p.NextCursor, p.Generation)
		},
	})
	fmt.Println("walk:", r.Incomplete, "after", len(r.Pages), "pages,", r.Count(), "items")
	for _, f := range r.Findings {
		fmt.Printf("%s %s: %s\n", f.Severity, f.Check, f.Message)
	}
	gen, out := c.Snapshot()
	fmt.Printf("gen %d · out %d · held %v\n", gen, out, c.Held(r))
	// Output:
	// page 1: 2 items, cursor "", next "c2", gen 1
	// page 2: 1 items, cursor "c2", next "c3", gen 2
	// page 3: 1 items, cursor "c3", next "c2", gen 3
	// walk: cursor-repeated after 3 pages, 4 items
	// warning duplicate-item: name "echo" appears on page 1 (item 2) and again on page 3 (item 1)
	// error cursor-repeated: page 3 names nextCursor "c2", already sent to ask for page 2 (named by page 1); the walk stopped there to avoid a loop
	// gen 3 · out 0 · held false
}
