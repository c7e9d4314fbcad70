package record

import (
	"encoding/json"
	"fmt"
)

// The methods of a [RequestInfo], besides the lists and tools/call.
const (
	MethodRead        = "resources/read"
	MethodGetPrompt   = "prompts/get"
	MethodComplete    = "completion/complete"
	MethodPing        = "ping"
	MethodSetLevel    = "logging/setLevel"
	MethodSubscribe   = "resources/subscribe"
	MethodUnsubscribe = "resources/unsubscribe"
	// MethodUpdated is the notification a server sends when a subscribed
	// resource changed; the tap records it as a [KindNotification].
	MethodUpdated = "notifications/resources/updated"
	// MethodToolsChanged is the notification a server sends when its tool
	// list changed; a call says when one came after the listing it was
	// checked against (see [CallInfo.ListChanged]).
	MethodToolsChanged = "notifications/tools/list_changed"
	// MethodPromptsChanged is the notification a server sends when its
	// prompt list changed; a prompt's get says when one came after the
	// listing its arguments were checked against (see the session's GetPrompt).
	MethodPromptsChanged = "notifications/prompts/list_changed"
)

// IsErrorResult reports whether result, the raw result of a tools/call,
// says isError: true.
func IsErrorResult(result json.RawMessage) bool {
	var v struct {
		IsError bool `json:"isError"`
	}
	return len(result) > 0 && json.Unmarshal(result, &v) == nil && v.IsError
}

// UpdatedURI returns the uri a notifications/resources/updated event
// names.
func UpdatedURI(ev Event) (string, bool) {
	if ev.Kind != KindNotification || ev.Method != MethodUpdated {
		return "", false
	}
	var p struct {
		URI string `json:"uri"`
	}
	if json.Unmarshal(ev.Data, &p) != nil || p.URI == "" {
		return "", false
	}
	return p.URI, true
}

// RPCErrorText renders a raw JSON-RPC error object as "message (code N)",
// or returns it as it is when it is not one.
func RPCErrorText(raw json.RawMessage) string {
	var e struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	if json.Unmarshal(raw, &e) != nil {
		return string(raw)
	}
	return fmt.Sprintf("%s (code %d)", e.Message, e.Code)
}

// ExtensionTasks is the identifier of the tasks extension.
const ExtensionTasks = "io.modelcontextprotocol/tasks"
