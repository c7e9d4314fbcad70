package demo

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func BenchmarkNew(b *testing.B) {
	for _, bc := range []struct {
		name string
		opts *Options
	}{{"default", nil}, {"filler10000", &Options{Filler: 10000, PageSize: 100}}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				New(bc.opts)
			}
		})
	}
}

// BenchmarkListToolsPage measures one tools/list page of 100 from a server
// holding 10,000 filler tools, in memory.
func BenchmarkListToolsPage(b *testing.B) {
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := New(&Options{Filler: 10000, PageSize: 100}).Connect(ctx, st, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "0"}, nil).Connect(ctx, ct, legacy)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := cs.ListTools(ctx, nil); err != nil {
			b.Fatal(err)
		}
	}
}
