package demo

//lint:file-ignore SA1019 sampling and roots are deprecated as of protocol 2026-07-28 (SEP-2577), but still in use; asking for them is part of the demo.

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tools that ask the client something during a call: a sampling
// request, an elicitation form, an elicitation URL, the roots. Each asks
// through an input request in its result (multi round-trip): the SDK sends
// it as a request of its own to a client on a protocol before 2026-07-28
// and calls the tool again with the answer; a newer client answers it in
// a retried call.

// askID is the id of each tool's one input request.
const askID = "ask"

// addAskers adds the tools that ask the client.
func addAskers(s *mcp.Server) {
	obj := map[string]any{"type": "object"}
	s.AddTool(&mcp.Tool{Name: "ask_sampling", InputSchema: obj,
		Description: "Asks the client for an LLM completion (sampling/createMessage, with maxTokens) and answers with what it said."},
		asking(samplingRequest, samplingAnswer))
	s.AddTool(&mcp.Tool{Name: "ask_form", InputSchema: obj,
		Description: "Asks the user to fill a form (elicitation/create, form mode: a required name, an age, a colour from an enum with a default, a boolean) and answers with the action and content."},
		asking(formRequest, elicitAnswer))
	s.AddTool(&mcp.Tool{Name: "ask_url", InputSchema: obj,
		Description: "Asks the user to visit a URL (elicitation/create, URL mode), then says the interaction is complete (notifications/elicitation/complete)."},
		askURL)
	s.AddTool(&mcp.Tool{Name: "read_roots", InputSchema: obj,
		Description: "Asks the client for its roots (roots/list) and lists them."},
		asking(func(*mcp.CallToolRequest) mcp.InputRequest { return &mcp.ListRootsParams{} }, rootsAnswer))
}

// asking is a tool that asks once: ask builds the input request, answer
// reads the client's response.
func asking(ask func(*mcp.CallToolRequest) mcp.InputRequest, answer func(mcp.InputResponse) *mcp.CallToolResult) mcp.ToolHandler {
	return func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if resp, ok := req.Params.InputResponses[askID]; ok {
			return answer(resp), nil
		}
		return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{askID: ask(req)}}, nil
	}
}

func samplingRequest(*mcp.CallToolRequest) mcp.InputRequest {
	return &mcp.CreateMessageParams{
		SystemPrompt: "You are a terse assistant. Answer in one sentence.",
		MaxTokens:    200,
		Messages: []*mcp.SamplingMessage{{Role: "user",
			Content: &mcp.TextContent{Text: "In one sentence: why do MCP clients paginate tools/list?"}}},
		ModelPreferences: &mcp.ModelPreferences{Hints: []*mcp.ModelHint{{Name: "claude"}}, SpeedPriority: 0.8},
	}
}

func samplingAnswer(resp mcp.InputResponse) *mcp.CallToolResult {
	b, _ := json.Marshal(resp)
	var res struct {
		Model      string `json:"model"`
		StopReason string `json:"stopReason"`
		Content    struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	_ = json.Unmarshal(b, &res)
	return text("%s said (stop reason %s): %s", orNone(res.Model), orNone(res.StopReason), res.Content.Text)
}

// formSchema is the form ask_form asks for: flat, of primitive properties.
const formSchema = `{"type":"object","properties":{
	"name":{"type":"string","title":"Name","description":"who you are","minLength":1,"default":"Ada"},
	"age":{"type":"integer","title":"Age","minimum":0,"maximum":150},
	"colour":{"type":"string","title":"Favourite colour","enum":["red","green","blue"],"default":"green"},
	"subscribe":{"type":"boolean","title":"Subscribe","default":false}},
	"required":["name"]}`

func formRequest(*mcp.CallToolRequest) mcp.InputRequest {
	return &mcp.ElicitParams{Mode: "form", Message: "Tell the demo about yourself.", RequestedSchema: json.RawMessage(formSchema)}
}

func elicitAnswer(resp mcp.InputResponse) *mcp.CallToolResult {
	r, ok := resp.(*mcp.ElicitResult)
	if !ok {
		return toolError("the client answered %T, not an elicitation result", resp)
	}
	if r.Action != "accept" {
		return text("the user chose %s", r.Action)
	}
	b, _ := json.Marshal(r.Content)
	return text("the user accepted: %s", b)
}

func rootsAnswer(resp mcp.InputResponse) *mcp.CallToolResult {
	r, ok := resp.(*mcp.ListRootsResult)
	if !ok {
		return toolError("the client answered %T, not a roots list", resp)
	}
	if len(r.Roots) == 0 {
		return text("the client has no roots")
	}
	uris := make([]string, len(r.Roots))
	for i, root := range r.Roots {
		uris[i] = root.URI
	}
	return text("%d roots: %s", len(uris), strings.Join(uris, ", "))
}

// askURL asks the user to visit a URL; once they accept, it tells the
// client the interaction is complete.
func askURL(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if resp, ok := req.Params.InputResponses[askID]; ok {
		r, ok := resp.(*mcp.ElicitResult)
		if !ok || r.Action != "accept" {
			return elicitAnswer(resp), nil
		}
		if id := req.Params.RequestState; id != "" {
			_ = req.Session.NotifyElicitationComplete(ctx, &mcp.ElicitationCompleteParams{ElicitationID: id})
		}
		return text("the user accepted and visited the URL; the server said so (notifications/elicitation/complete)"), nil
	}
	id := rand.Text()
	return &mcp.CallToolResult{RequestState: id, InputRequests: mcp.InputRequestMap{askID: &mcp.ElicitParams{
		Mode: "url", Message: "Authorize the demo at its (pretend) provider.", ElicitationID: id,
		URL: fmt.Sprintf("https://example.com/mcpwitness-demo/authorize?state=%s", id)}}}, nil
}

// orNone shows an empty string as "none".
func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
