package demo

import (
	"context"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// addFillerTools adds n generated tools, filler_00001 to filler_<n>, for
// benchmarks that need long lists. They share one schema and one handler,
// so that even ten thousand of them cost little to build.
func addFillerTools(s *mcp.Server, n int) {
	if n <= 0 {
		return
	}
	// The smallest schema, as a *jsonschema.Schema rather than raw JSON:
	// Server.AddTool re-encodes and decodes every input schema it is given
	// (to look for x-mcp-header) and decodes raw JSON once more, and each
	// decode allocates tens of kilobytes, so this is what makes ten thousand
	// tools affordable.
	schema := &jsonschema.Schema{Type: "object"}
	handler := func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text("%s: %s", req.Params.Name, req.Params.Arguments), nil
	}
	for i := 1; i <= n; i++ {
		s.AddTool(&mcp.Tool{
			Name:        fmt.Sprintf("filler_%05d", i),
			Description: fmt.Sprintf("Generated filler tool %d of %d, for paging benchmarks. Echoes its arguments.", i, n),
			InputSchema: schema,
		}, handler)
	}
}
