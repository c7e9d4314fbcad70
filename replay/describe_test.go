package replay

import (
	"testing"

	"mcpwitness/paging"
	"mcpwitness/record"
)

// The scrubber's status line counts a page's items in good English.
func TestDescribeAPageCountsItsItems(t *testing.T) {
	for count, want := range map[int]string{
		1:  "walk #2: page 3 arrived · 1 item",
		10: "walk #2: page 3 arrived · 10 items",
	} {
		ev := record.Event{Kind: record.KindPage, Method: "tools/list",
			Walk: &record.WalkInfo{ID: 2}, Page: &paging.Page{Number: 3, Count: count}}
		if got := Describe(ev); got != want {
			t.Errorf("Describe(page of %d) = %q, want %q", count, got, want)
		}
	}
}
