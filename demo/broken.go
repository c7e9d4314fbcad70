package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// addBrokenTools adds the tools whose answers a careful client must not
// trust: structured content that breaks the tool's own output schema,
// no structured content at all, and an output schema that cannot be
// checked. They use [mcp.Server.AddTool], which, unlike [mcp.AddTool], lets
// a handler answer whatever it likes.
func addBrokenTools(s *mcp.Server) {
	addForecastBroken(s)
	addSummaryNoStructured(s)
	addUnresolvedRef(s)
}

const forecastOutput = `{
  "type": "object",
  "properties": {
    "city": {"type": "string"},
    "temperature": {"type": "number", "description": "Current temperature, °C"},
    "humidity": {"type": "integer", "minimum": 0, "maximum": 100},
    "days": {
      "type": "array",
      "items": {
        "type": "object",
        "properties": {
          "date": {"type": "string", "format": "date"},
          "high": {"type": "number"},
          "low": {"type": "number"},
          "conditions": {"type": "string"}
        },
        "required": ["date", "high", "low"]
      }
    }
  },
  "required": ["city", "temperature", "days"]
}`

func addForecastBroken(s *mcp.Server) {
	s.AddTool(&mcp.Tool{
		Name: "forecast_broken",
		Description: "Three-day forecast for a city whose answers break its own output schema, on purpose: " +
			"temperature is a string (/temperature), humidity is out of range (/humidity), " +
			"day 2's high is text (/days/1/high) and day 3 has no low (/days/2).",
		InputSchema: json.RawMessage(`{
  "type": "object",
  "properties": {
    "city": {"type": "string", "description": "City name", "minLength": 1}
  },
  "required": ["city"]
}`),
		OutputSchema: json.RawMessage(forecastOutput),
	}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		in, err := arguments[struct {
			City string `json:"city"`
		}](req)
		if err != nil {
			return toolError("forecast_broken: reading arguments: %v", err), nil
		}
		if in.City == "" {
			in.City = "Lisbon"
		}
		c, cond, _ := fakeWeather(in.City)
		day := func(n int) string { return time.Now().UTC().AddDate(0, 0, n).Format(time.DateOnly) }
		out := map[string]any{
			"city":        in.City,
			"temperature": fmt.Sprintf("%.1f°C", c), // should be a number
			"humidity":    140,                      // above the maximum of 100
			"days": []any{
				map[string]any{"date": day(1), "high": c + 3, "low": c - 4, "conditions": cond},
				map[string]any{"date": day(2), "high": "warm", "low": c - 3}, // high should be a number
				map[string]any{"date": day(3), "high": c + 1},                // low is required
			},
		}
		return &mcp.CallToolResult{
			Content:           []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("Forecast for %s: %.1f°C now, %s tomorrow.", in.City, c, cond)}},
			StructuredContent: out,
		}, nil
	})
}

func addSummaryNoStructured(s *mcp.Server) {
	s.AddTool(&mcp.Tool{
		Name: "summary_no_structured",
		Description: "Summarise a text in one sentence. Declares an output schema but answers with text only, " +
			"no structuredContent, which a client must reject.",
		InputSchema: json.RawMessage(`{
  "type": "object",
  "properties": {
    "text": {"type": "string", "description": "The text to summarise"}
  },
  "required": ["text"]
}`),
		OutputSchema: json.RawMessage(`{
  "type": "object",
  "properties": {
    "summary": {"type": "string"},
    "wordCount": {"type": "integer", "minimum": 0}
  },
  "required": ["summary", "wordCount"]
}`),
	}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		in, err := arguments[struct {
			Text string `json:"text"`
		}](req)
		if err != nil {
			return toolError("summary_no_structured: reading arguments: %v", err), nil
		}
		return text("Summary (%d words in): %s", len(strings.Fields(in.Text)), firstSentence(in.Text)), nil
	})
}

// firstSentence returns the first sentence of s, or a placeholder when s
// has no words.
func firstSentence(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return "(nothing to summarise)"
	}
	if i := strings.IndexAny(s, ".!?"); i >= 0 {
		return s[:i+1]
	}
	return s
}

func addUnresolvedRef(s *mcp.Server) {
	// The SDK accepts this schema: Server.AddTool only checks that it
	// marshals to JSON, and never resolves it.
	s.AddTool(&mcp.Tool{
		Name: "unresolved_ref",
		Description: "Monthly usage report. Its output schema refers to #/$defs/missing, which does not exist, " +
			"so a client cannot check the answer: the verdict is unchecked, not a pass.",
		InputSchema: json.RawMessage(`{
  "type": "object",
  "properties": {
    "month": {"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}$", "description": "Month as YYYY-MM; the current month when absent"}
  }
}`),
		OutputSchema: json.RawMessage(`{
  "type": "object",
  "properties": {
    "month": {"type": "string"},
    "report": {"$ref": "#/$defs/missing"},
    "generatedAt": {"type": "string", "format": "date-time"}
  },
  "required": ["month", "report"],
  "$defs": {
    "usage": {
      "type": "object",
      "properties": {"requests": {"type": "integer"}, "errors": {"type": "integer"}}
    }
  }
}`),
	}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		in, err := arguments[struct {
			Month string `json:"month"`
		}](req)
		if err != nil {
			return toolError("unresolved_ref: reading arguments: %v", err), nil
		}
		now := time.Now().UTC()
		if in.Month == "" {
			in.Month = now.Format("2006-01")
		}
		return &mcp.CallToolResult{
			Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("Usage for %s: 48213 requests, 112 errors.", in.Month)}},
			StructuredContent: map[string]any{
				"month":       in.Month,
				"report":      map[string]any{"requests": 48213, "errors": 112},
				"generatedAt": now.Format(time.RFC3339),
			},
		}, nil
	})
}
