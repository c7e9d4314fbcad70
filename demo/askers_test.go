package demo

//lint:file-ignore SA1019 sampling and roots are deprecated as of protocol 2026-07-28 (SEP-2577), but still in use; asking for them is part of the demo.

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Each asking tool asks the client, and answers with what the client
// said, on a protocol with input requests in results (2026-07-28) and on
// one where the server sends its own requests (2025-11-25).
func TestAskersAskTheClient(t *testing.T) {
	for _, protocol := range []string{"2026-07-28", "2025-11-25"} {
		t.Run(protocol, func(t *testing.T) {
			completed := make(chan string, 1)
			c := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ClientOptions{
				Capabilities: &mcp.ClientCapabilities{
					RootsV2:     &mcp.RootCapabilities{},
					Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}, URL: &mcp.URLElicitationCapabilities{}},
				},
				ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					if req.Params.Mode == "url" {
						if !strings.HasPrefix(req.Params.URL, "https://example.com/") || req.Params.ElicitationID == "" {
							t.Errorf("URL elicitation %+v", req.Params)
						}
						return &mcp.ElicitResult{Action: "accept"}, nil
					}
					return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Grace", "age": 85, "colour": "blue"}}, nil
				},
				ElicitationCompleteHandler: func(_ context.Context, req *mcp.ElicitationCompleteNotificationRequest) {
					completed <- req.Params.ElicitationID
				},
				CreateMessageHandler: func(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
					if req.Params.MaxTokens <= 0 || req.Params.SystemPrompt == "" {
						t.Errorf("sampling request %+v", req.Params)
					}
					return &mcp.CreateMessageResult{Role: "assistant", Model: "m", StopReason: "endTurn", Content: &mcp.TextContent{Text: "because lists are long"}}, nil
				},
			})
			c.AddRoots(&mcp.Root{URI: "file:///srv/demo"})
			st, ct := mcp.NewInMemoryTransports()
			ss, err := New(nil).Connect(context.Background(), st, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer ss.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			cs, err := c.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: protocol})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			for tool, want := range map[string]string{
				"ask_form":     `the user accepted: {"age":85,"colour":"blue","name":"Grace","subscribe":false}`,
				"ask_sampling": "m said (stop reason endTurn): because lists are long",
				"ask_url":      "the user accepted and visited the URL",
				"read_roots":   "1 roots: file:///srv/demo",
			} {
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool})
				if err != nil {
					t.Fatalf("%s: %v", tool, err)
				}
				if got := res.Content[0].(*mcp.TextContent).Text; !strings.HasPrefix(got, want) {
					t.Errorf("%s answered %q, want %q…", tool, got, want)
				}
			}
			select {
			case id := <-completed:
				if id == "" {
					t.Error("the completion names no elicitation")
				}
			case <-ctx.Done():
				t.Error("no notifications/elicitation/complete")
			}
		})
	}
}
