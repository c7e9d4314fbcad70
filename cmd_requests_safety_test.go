package main

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// evil holds what a terminal would act on: an escape sequence, a title
// change, a carriage-return overwrite, a bidi override and a zero-width
// space.
const evil = "\x1b[2J\x1b]0;owned\a\rOVER\u202eevil\u200b"

// evilLists is a server whose resources, templates, prompts, contents,
// messages and completions all carry evil strings.
func evilLists() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "evil" + evil, Version: "1"}, &mcp.ServerOptions{
		CompletionHandler: func(context.Context, *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
			return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: []string{"v" + evil}}}, nil
		},
	})
	// The SDK refuses a listed uri with controls in it; an answer's uri it
	// passes on.
	srv.AddResource(&mcp.Resource{URI: "evil://r", Name: "r" + evil, MIMEType: "text/plain" + evil},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "evil://r" + evil, MIMEType: "text/plain" + evil, Text: "body" + evil}}}, nil
		})
	srv.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "evil://t/{x}", Name: "t" + evil},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) { return nil, nil })
	srv.AddPrompt(&mcp.Prompt{Name: "p", Description: "d" + evil, Arguments: []*mcp.PromptArgument{{Name: "a" + evil, Required: true}}},
		func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{
				{Role: "user", Content: &mcp.TextContent{Text: "t" + evil}},
				{Role: "assistant", Content: &mcp.ResourceLink{URI: "evil://l" + evil, Name: "l" + evil}},
			}}, nil
		})
	return srv
}

func TestRequestCommandsNeverPrintServerStringsRaw(t *testing.T) {
	t.Parallel()
	url := serveHTTP(t, evilLists())
	for _, args := range [][]string{
		{"resources"},
		{"prompts"},
		{"read", "evil://r"},
		{"read", "evil://r" + evil},
		{"prompt", "p"},
		{"prompt", "p", "--force"},
		{"complete", "--prompt", "p", "a="},
		{"read", "evil://nothing"},
	} {
		_, out, stderr := runSafe(t, append(args, "--url", url)...)
		if out == "" {
			t.Errorf("%v printed nothing; stderr: %s", args, stderr)
		}
		assertSafe(t, args[0]+" stdout", out)
		assertSafe(t, args[0]+" stderr", stderr)
	}
}
