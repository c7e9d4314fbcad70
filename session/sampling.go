//lint:file-ignore SA1019 servers on protocols before 2026-07-28 still ask for sampling; --sampling-reply answers them

package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// SamplingReply is the client's headless answer to sampling/createMessage
// (--sampling-reply). A non-nil one in [Options] makes the client declare
// sampling.
type SamplingReply struct {
	// Result is the answer given to every request.
	Result *mcp.CreateMessageResult
	// File names where Result came from; "" when it is a text reply.
	File string
	// Decline answers every request with the user-rejection error
	// (--sampling-decline), as a person declining in the UI does.
	Decline bool
}

// samplingModel is the model a text reply names.
const samplingModel = "mcpwitness-sampling-reply"

// ParseSamplingReply reads --sampling-reply's value: TEXT, answered as an
// assistant text message, or @FILE, a JSON CreateMessageResult.
func ParseSamplingReply(v string) (*SamplingReply, error) {
	file, ok := strings.CutPrefix(v, "@")
	if !ok {
		return &SamplingReply{Result: &mcp.CreateMessageResult{
			Role: "assistant", Model: samplingModel, StopReason: "endTurn",
			Content: &mcp.TextContent{Text: v},
		}}, nil
	}
	if file == "" {
		return nil, errors.New("--sampling-reply @FILE names no file")
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("--sampling-reply @%s: %w", file, err)
	}
	var res mcp.CreateMessageResult
	if err := json.Unmarshal(b, &res); err != nil {
		return nil, fmt.Errorf("--sampling-reply @%s is not a CreateMessageResult: %v", file, err)
	}
	var missing []string
	if res.Content == nil {
		missing = append(missing, "content")
	}
	if res.Model == "" {
		missing = append(missing, "model")
	}
	if res.Role == "" {
		missing = append(missing, "role")
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("--sampling-reply @%s is not a CreateMessageResult: it has no %s", file, strings.Join(missing, ", "))
	}
	if res.Role != "assistant" && res.Role != "user" {
		return nil, fmt.Errorf("--sampling-reply @%s is not a CreateMessageResult: role is %q, not \"assistant\" or \"user\"", file, res.Role)
	}
	return &SamplingReply{Result: &res, File: file}, nil
}

// text says how the reply answers.
func (r *SamplingReply) text() string {
	if r.File != "" {
		return "answered with " + r.File
	}
	if t, ok := r.Result.Content.(*mcp.TextContent); ok {
		return fmt.Sprintf("answered with an assistant text message (%d bytes)", len(t.Text))
	}
	return "answered"
}
