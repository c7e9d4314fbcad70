// Command caller is a floor of scripts/bench-call.sh: a minimal go-sdk
// client that calls one tool over stdio and prints its text content, as a
// bare SDK program would. With -list it first reads tools/list up to the
// page that lists the tool, as a client must to hold the definition it
// checks a call against. With -subscribe it also asks to hear of list
// changes, as mcpwitness does (a client that wants to know its definition
// went stale while it called): on 2026-07-28 the SDK then opens
// subscriptions/listen. It ends the session as the SDK does, closing the
// server's stdin and waiting for it to exit.
//
// Usage:
//
//	caller [-list] [-subscribe] [-protocol VERSION] -args JSON TOOL -- CMD [ARGS...]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	list := flag.Bool("list", false, "read tools/list up to the page that lists the tool first")
	subscribe := flag.Bool("subscribe", false, "ask to hear of tools, prompts and resources list changes")
	protocol := flag.String("protocol", "", "protocol version to ask for (empty: the SDK's latest)")
	argsJSON := flag.String("args", "{}", "the tool's arguments, a JSON object")
	flag.Parse()
	if flag.NArg() < 2 {
		fmt.Fprintln(os.Stderr, "usage: caller [-list] [-subscribe] [-protocol VERSION] -args JSON TOOL -- CMD [ARGS...]")
		os.Exit(2)
	}
	var args map[string]any
	if err := json.Unmarshal([]byte(*argsJSON), &args); err != nil {
		fmt.Fprintln(os.Stderr, "caller: -args:", err)
		os.Exit(2)
	}
	cmd := flag.Args()[1:]
	if cmd[0] == "--" {
		cmd = cmd[1:]
	}
	if len(cmd) == 0 {
		fmt.Fprintln(os.Stderr, "caller: no server command after the tool's name")
		os.Exit(2)
	}
	if err := call(context.Background(), *protocol, *list, *subscribe, flag.Arg(0), args, cmd); err != nil {
		fmt.Fprintln(os.Stderr, "caller:", err)
		os.Exit(1)
	}
}

// call connects to the server cmd names (subscribed to list changes if
// subscribe), optionally lists tools until name is listed, calls name with
// args and prints the text content it answers.
func call(ctx context.Context, protocol string, list, subscribe bool, name string, args map[string]any, cmd []string) error {
	transport := &mcp.CommandTransport{Command: exec.Command(cmd[0], cmd[1:]...)}
	var opts *mcp.ClientOptions
	if subscribe {
		opts = &mcp.ClientOptions{
			ToolListChangedHandler:     func(context.Context, *mcp.ToolListChangedRequest) {},
			PromptListChangedHandler:   func(context.Context, *mcp.PromptListChangedRequest) {},
			ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) {},
		}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "caller", Version: "0"}, opts)
	cs, err := client.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: protocol})
	if err != nil {
		return fmt.Errorf("connecting to %v: %w", cmd, err)
	}
	defer cs.Close()
	if list {
		if err := find(ctx, cs, name); err != nil {
			return err
		}
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return fmt.Errorf("calling %s: %w", name, err)
	}
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			fmt.Println(t.Text)
		}
	}
	return nil
}

// find reads tools/list pages until one lists name.
func find(ctx context.Context, cs *mcp.ClientSession, name string) error {
	params := &mcp.ListToolsParams{}
	for page := 1; ; page++ {
		res, err := cs.ListTools(ctx, params)
		if err != nil {
			return fmt.Errorf("tools/list page %d: %w", page, err)
		}
		if slices.ContainsFunc(res.Tools, func(t *mcp.Tool) bool { return t.Name == name }) {
			return nil
		}
		if res.NextCursor == "" {
			return fmt.Errorf("no page of tools/list lists %s", name)
		}
		params = &mcp.ListToolsParams{Cursor: res.NextCursor}
	}
}
