package demo_test

import (
	"context"
	"fmt"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mcpwitness/demo"
)

// A client connected in memory reads the first page of tools: ten of them,
// and a cursor to the next page.
func Example() {
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := demo.New(nil).Connect(ctx, st, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()

	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(res.Tools), "tools, more to come:", res.NextCursor != "")
	for _, t := range res.Tools {
		fmt.Println(t.Name)
	}
	// Output:
	// 10 tools, more to come: true
	// add
	// add_duration
	// ask_form
	// ask_sampling
	// ask_url
	// base64_decode
	// base64_encode
	// change_case
	// color_convert
	// convert_units
}
