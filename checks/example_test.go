package checks_test

import (
	"encoding/json"
	"fmt"

	"mcpwitness/checks"
)

// A client checks a tool call twice: Before decides whether the call may be
// sent at all, After judges the answer against the tool's output schema.
func Example() {
	v := checks.NewValidator() // one per connection

	// The tool as the server listed it in tools/list.
	def := json.RawMessage(`{
		"name": "quote",
		"inputSchema": {"type": "object", "required": ["sku"], "properties": {"sku": {"type": "string"}}},
		"outputSchema": {
			"type": "object",
			"required": ["lines"],
			"properties": {"lines": {"type": "array", "items": {
				"type": "object", "properties": {"price": {"type": "number", "minimum": 0}}}}}
		}
	}`)

	before := v.Before("quote", def, json.RawMessage(`{"sku": "A-1"}`))
	for _, vd := range before {
		fmt.Printf("%s: %s (%s)\n", vd.Check, vd.Status, vd.Message)
	}
	if checks.Blocks(before) {
		return // a refusal or bad arguments: nothing is sent
	}

	// The "result" of the tools/call answer.
	result := json.RawMessage(`{
		"content": [{"type": "text", "text": "2 lines"}],
		"structuredContent": {"lines": [{"price": 3}, {"price": -1}]}
	}`)
	for _, vd := range v.After("quote", def, result) {
		fmt.Printf("%s: %s (%s)\n", vd.Check, vd.Status, vd.Message)
		for _, e := range vd.Errors {
			fmt.Printf("  %s %s: %s\n", e.InstancePath, e.Keyword, e.Message)
		}
	}

	// A tool that requires task-based execution is refused before sending.
	task := json.RawMessage(`{"name": "render", "execution": {"taskSupport": "required"}}`)
	fmt.Println(checks.Blocks(v.Before("render", task, nil)))

	// Output:
	// task-support: pass (no execution.taskSupport; plain calls are allowed)
	// input-schema: pass (arguments match the input schema)
	// structured-content: pass (structured content present)
	// output-schema: fail (Structured content does not match the tool's output schema: /lines/1/price: -1 should be at least 0)
	//   /lines/1/price minimum: -1 should be at least 0
	// true
}
