package main

import (
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	sjson "github.com/segmentio/encoding/json"

	"mcpwitness/checks"
)

// warmCall pays the first-use costs of what a call does once the server has
// answered, while the server is still starting (tens of milliseconds in
// which the client only waits), in the order the answers need them: the
// SDK's decoders of a JSON-RPC message and of the handshake's result
// (~0.1 ms each on their first use; the SDK decodes results with
// github.com/segmentio/encoding, whose decoders are cached by type), the
// schema library's decoders, built on its first compile (~0.5 ms, then ~50
// µs a schema), and the SDK's decoder of a tools/call result (~0.15 ms).
// All are caches by type, safe to fill from another goroutine; nothing here
// touches the session or what the call checks.
func warmCall() {
	_, _ = jsonrpc.DecodeMessage([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))
	var d mcp.DiscoverResult
	_ = sjson.Unmarshal([]byte(`{"capabilities":{},"serverInfo":{"name":"","version":""}}`), &d)
	var i mcp.InitializeResult
	_ = sjson.Unmarshal([]byte(`{"capabilities":{},"serverInfo":{"name":"","version":""}}`), &i)
	v := checks.NewValidator()
	_, _ = v.Validate(json.RawMessage(`{"type":"object","properties":{"n":{"type":"number"}},"required":["n"],"additionalProperties":false}`), json.RawMessage(`{"n":1}`))
	var r mcp.CallToolResult
	_ = json.Unmarshal([]byte(`{"content":[{"type":"text","text":""}],"structuredContent":{"n":1}}`), &r)
}
