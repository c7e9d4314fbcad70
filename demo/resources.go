package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const readme = `# mcpwitness demo server

This server exists to be inspected. Each tool below shows one thing a client
checks, or one notification it receives:

| tool | what it shows |
|------|---------------|
| add, weather, word_count | structuredContent that matches the output schema |
| forecast_broken | structuredContent that does not (see each instance path) |
| summary_no_structured | an output schema, but no structuredContent |
| unresolved_ref | an output schema that cannot be checked ($ref to nowhere) |
| fail_always | a tool error (isError: true) |
| render_video | execution.taskSupport "required": a client refuses a plain call |
| transcribe_audio | execution.taskSupport "optional" |
| slow_count | notifications/progress, and cancellation |
| toggle_tools | notifications/tools/list_changed |
| log_burst | notifications/message at every level |

The tool list comes in pages of ten. Follow every cursor.

The resources come in three pages too: a city catalogue, this readme, the
notepad, and two that show something:

| resource | what it shows |
|----------|---------------|
| demo://broken/contents | a read that breaks the rules (another uri, both text and blob) |
| demo://clock | notifications/resources/updated every second while subscribed |

Template variables and prompt arguments complete (completion/complete);
demo://cities/{country}/{city} completes cities within the country chosen,
and demo://numbers/{n} answers 150 values, over the limit of 100.
`

const changelog = `1.0.0  paged tools, resources and prompts; task-support annotations;
       broken and unresolvable output schemas on purpose
0.9.0  slow_count reports progress and honours cancellation
0.8.0  toggle_tools and list_changed notifications
0.7.0  first release: add, weather, echo
`

// addResources adds the demo's resources and its one resource template.
func addResources(s *mcp.Server, st *state) {
	s.AddResource(&mcp.Resource{
		URI:         "demo://readme",
		Name:        "readme",
		Title:       "About the demo server",
		Description: "What each demo tool shows, as a Markdown table.",
		MIMEType:    "text/markdown",
		Size:        int64(len(readme)),
	}, staticResource(readme))
	s.AddResource(&mcp.Resource{
		URI:         "demo://changelog",
		Name:        "changelog",
		Description: "Release notes of the demo server.",
		MIMEType:    "text/plain",
		Size:        int64(len(changelog)),
	}, staticResource(changelog))
	s.AddResource(&mcp.Resource{
		URI:         "demo://config.json",
		Name:        "config.json",
		Title:       "Server configuration",
		Description: "The demo server's settings and uptime, as JSON.",
		MIMEType:    "application/json",
	}, st.readConfig)
	s.AddResource(&mcp.Resource{
		URI:         "demo://notepad",
		Name:        "notepad",
		Description: "The notes written with note_add, one per line.",
		MIMEType:    "text/plain",
	}, st.readNotepad)
	s.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: "demo://weather/{city}",
		Name:        "weather-report",
		Title:       "Weather report",
		Description: "A plain-text weather report for any city (simulated, stable per city).",
		MIMEType:    "text/plain",
	}, readWeather)
}

// staticResource returns a handler that answers every read with body.
func staticResource(body string) mcp.ResourceHandler {
	return func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, Text: body}}}, nil
	}
}

// readConfig answers a read of demo://config.json: the server's settings
// and uptime, as JSON.
func (st *state) readConfig(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	b, err := json.MarshalIndent(map[string]any{
		"name":    Name,
		"version": Version,
		"started": st.started.UTC().Format(time.RFC3339),
		"uptime":  time.Since(st.started).Round(time.Second).String(),
		"features": map[string]bool{
			"paging": true, "progress": true, "cancellation": true, "listChanged": true, "logging": true,
		},
	}, "", "  ")
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, Text: string(b)}}}, nil
}

// readNotepad answers a read of demo://notepad: the notes, one per line.
func (st *state) readNotepad(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	var b strings.Builder
	for _, n := range st.notesCopy() {
		fmt.Fprintf(&b, "%d\t%s\t%s\n", n.ID, n.At, n.Text)
	}
	if b.Len() == 0 {
		b.WriteString("(no notes yet: add one with note_add)\n")
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, Text: b.String()}}}, nil
}

// readWeather answers a read of demo://weather/{city}: a simulated report,
// stable per city. A URI naming no city is not found.
func readWeather(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	raw := strings.TrimPrefix(req.Params.URI, "demo://weather/")
	city, err := url.PathUnescape(raw)
	if err != nil || city == "" || strings.Contains(city, "/") {
		return nil, mcp.ResourceNotFoundError(req.Params.URI)
	}
	c, cond, hum := fakeWeather(city)
	body := fmt.Sprintf("Weather for %s\nTemperature: %.1f°C\nConditions: %s\nHumidity: %d%%\n", city, c, cond, hum)
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, Text: body}}}, nil
}

// addPrompts adds the demo's prompts, each with arguments.
func addPrompts(s *mcp.Server) {
	s.AddPrompt(&mcp.Prompt{
		Name:        "code_review",
		Title:       "Code review",
		Description: "Ask for a careful review of a piece of code.",
		Arguments: []*mcp.PromptArgument{
			{Name: "code", Description: "The code to review", Required: true},
			{Name: "language", Description: "Programming language, e.g. Go"},
			{Name: "focus", Description: "What to look at most: correctness, performance, readability or security"},
		},
	}, codeReviewPrompt)
	s.AddPrompt(&mcp.Prompt{
		Name:        "summarize",
		Title:       "Summarise",
		Description: "Summarise a text in a chosen style.",
		Arguments: []*mcp.PromptArgument{
			{Name: "text", Description: "The text to summarise", Required: true},
			{Name: "style", Description: "bullets or paragraph (default bullets)"},
		},
	}, summarizePrompt)
	s.AddPrompt(&mcp.Prompt{
		Name:        "explain_error",
		Title:       "Explain an error",
		Description: "Explain an error message and how to fix it.",
		Arguments: []*mcp.PromptArgument{
			{Name: "message", Description: "The error message, verbatim", Required: true},
			{Name: "context", Description: "What you were doing when it happened"},
		},
	}, explainErrorPrompt)
}

// codeReviewPrompt asks for a review of the code argument, in its language, with the focus asked for.
func codeReviewPrompt(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	a, err := promptArgs(req, "code")
	if err != nil {
		return nil, err
	}
	lang := or(a["language"], "the code's language")
	focus := or(a["focus"], "correctness first, then readability")
	return userPrompt("Review of "+lang+" code",
		fmt.Sprintf("Review this %s code. Focus on %s. Name each problem, say why it matters and suggest a fix.\n\n```\n%s\n```", lang, focus, a["code"])), nil
}

// summarizePrompt asks for a summary of the text argument, as bullets or a paragraph.
func summarizePrompt(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	a, err := promptArgs(req, "text")
	if err != nil {
		return nil, err
	}
	style := "as at most five bullet points"
	if a["style"] == "paragraph" {
		style = "as one short paragraph"
	}
	return userPrompt("Summary request", fmt.Sprintf("Summarise the following %s.\n\n%s", style, a["text"])), nil
}

// explainErrorPrompt asks what the message argument means and what to try, with its context if given.
func explainErrorPrompt(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	a, err := promptArgs(req, "message")
	if err != nil {
		return nil, err
	}
	ctx := ""
	if a["context"] != "" {
		ctx = "\n\nContext: " + a["context"]
	}
	return userPrompt("Error explanation",
		fmt.Sprintf("Explain this error in plain words, name its most likely cause and the first thing to try.\n\n%s%s", a["message"], ctx)), nil
}

// promptArgs returns the prompt's arguments, or an invalid-params error
// naming the first required one that is missing.
func promptArgs(req *mcp.GetPromptRequest, required ...string) (map[string]string, error) {
	a := req.Params.Arguments
	for _, name := range required {
		if strings.TrimSpace(a[name]) == "" {
			return nil, &jsonrpc.Error{
				Code:    jsonrpc.CodeInvalidParams,
				Message: fmt.Sprintf("prompt %q: missing required argument %q", req.Params.Name, name),
			}
		}
	}
	return a, nil
}

// userPrompt returns a prompt result holding one user message.
func userPrompt(description, body string) *mcp.GetPromptResult {
	return &mcp.GetPromptResult{
		Description: description,
		Messages:    []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: body}}},
	}
}

// or returns s, or def when s is empty.
func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
