// Command lister is the floor of scripts/bench.sh: a minimal go-sdk client
// that lists every page of tools/list from a stdio server and says how many
// tools and pages it read, as a bare SDK program would, nothing more.
//
// Usage:
//
//	lister [-protocol VERSION] -- CMD [ARGS...]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	protocol := flag.String("protocol", "", "protocol version to ask for (empty: the SDK's latest)")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: lister [-protocol VERSION] -- CMD [ARGS...]")
		os.Exit(2)
	}
	tools, pages, err := list(context.Background(), *protocol, flag.Args())
	if err != nil {
		fmt.Fprintln(os.Stderr, "lister:", err)
		os.Exit(1)
	}
	fmt.Printf("%d tools in %d pages\n", tools, pages)
}

// list connects to the server args names over stdio and reads every page.
func list(ctx context.Context, protocol string, args []string) (tools, pages int, err error) {
	transport := &mcp.CommandTransport{Command: exec.Command(args[0], args[1:]...)}
	client := mcp.NewClient(&mcp.Implementation{Name: "lister", Version: "0"}, nil)
	cs, err := client.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: protocol})
	if err != nil {
		return 0, 0, fmt.Errorf("connecting to %v: %w", args, err)
	}
	defer cs.Close()
	params := &mcp.ListToolsParams{}
	for {
		res, err := cs.ListTools(ctx, params)
		if err != nil {
			return tools, pages, fmt.Errorf("page %d: %w", pages+1, err)
		}
		pages++
		tools += len(res.Tools)
		if res.NextCursor == "" {
			return tools, pages, nil
		}
		params = &mcp.ListToolsParams{Cursor: res.NextCursor}
	}
}
