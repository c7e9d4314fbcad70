package main

import (
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mcpwitness/checks"
)

// warmCall pays the first-use costs of what a call does once the server has
// answered, while the server is still starting (tens of milliseconds in
// which the client only waits): the schema library builds its decoders on
// its first compile (~0.5 ms, then ~50 µs a schema), and the SDK its
// decoder of a tools/call result on the first one (~0.15 ms). Both are
// caches by type, safe to fill from another goroutine; nothing here
// touches the session or what the call checks.
func warmCall() {
	v := checks.NewValidator()
	_, _ = v.Validate(json.RawMessage(`{"type":"object","properties":{"n":{"type":"number"}},"required":["n"],"additionalProperties":false}`), json.RawMessage(`{"n":1}`))
	var r mcp.CallToolResult
	_ = json.Unmarshal([]byte(`{"content":[{"type":"text","text":""}],"structuredContent":{"n":1}}`), &r)
}
