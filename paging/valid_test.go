package paging_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"mcpwitness/paging"
)

// TestValidAnswerReadsAsBefore: an answer the fetcher vouches is valid JSON
// (Answer.Valid) is read as one it does not: the same pages, items, errors
// and findings; only the validation is left out.
func TestValidAnswerReadsAsBefore(t *testing.T) {
	for name, second := range map[string]string{
		"good page":           page("tools", []string{"b", "a"}, ""),
		"result an array":     `[]`,
		"result null":         `null`,
		"result a number":     `42`,
		"items an object":     `{"tools":{"name":"a"}}`,
		"items missing":       `{"nextCursor":"x"}`,
		"nextCursor a number": `{"tools":[],"nextCursor":3}`,
		"bad ttl":             `{"tools":[{"name":"c"}],"ttlMs":-1}`,
		"spaces":              " \n{ \"tools\" : [ { \"name\" : \"c\" } , 5 ] } ",
	} {
		t.Run(name, func(t *testing.T) {
			walk := func(valid bool) *paging.Result {
				pages := map[string]string{"": page("tools", []string{"a"}, "p2"), "p2": second}
				fetch := func(ctx context.Context, cursor string) (*paging.Answer, error) {
					raw, ok := pages[cursor]
					if !ok {
						return nil, context.Canceled
					}
					return &paging.Answer{Result: json.RawMessage(raw), RequestID: cursor, Valid: valid}, nil
				}
				return paging.Walk(context.Background(), paging.Tools(), paging.NewCounter(), fetch, nil)
			}
			checked, vouched := walk(false), walk(true)
			type view struct {
				Incomplete paging.Incomplete
				Err        string
				Pages      []paging.Page
				Findings   any
			}
			see := func(r *paging.Result) view {
				v := view{Incomplete: r.Incomplete, Findings: r.Findings}
				for _, p := range r.Pages {
					p.Elapsed, p.Ms = 0, 0 // times differ run by run
					v.Pages = append(v.Pages, p)
				}
				if r.Err != nil {
					v.Err = r.Err.Error()
				}
				return v
			}
			if diff := cmp.Diff(see(checked), see(vouched)); diff != "" {
				t.Errorf("a vouched answer reads otherwise (-checked +vouched):\n%s", diff)
			}
		})
	}
}
