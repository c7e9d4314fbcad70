package demo

import "github.com/modelcontextprotocol/go-sdk/mcp"

// taskSupport returns the "execution.taskSupport" value the listed
// definition of the named tool carries, or "" when it carries no "execution".
func taskSupport(name string) string {
	switch name {
	case "render_video":
		return "required"
	case "transcribe_audio":
		return "optional"
	}
	return ""
}

// execution is the "execution" member of a listed tool.
type execution struct {
	TaskSupport string `json:"taskSupport"`
}

// listedTool is a tool as it goes on the wire: the SDK's [mcp.Tool] plus
// the "execution" member the SDK's struct lacks.
type listedTool struct {
	*mcp.Tool
	Execution *execution `json:"execution,omitempty"`
}

// listedTools is a tools/list answer as it goes on the wire. It embeds the
// SDK's result, so it is still an [mcp.Result] the SDK can annotate (result
// type, _meta, cache fields); its Tools field shadows the embedded one when
// marshalled.
type listedTools struct {
	*mcp.ListToolsResult
	Tools []listedTool `json:"tools"`
}

// withExecution returns lt with "execution" added to the tools that have
// one (see [taskSupport]).
func withExecution(lt *mcp.ListToolsResult) *listedTools {
	out := &listedTools{ListToolsResult: lt, Tools: make([]listedTool, len(lt.Tools))}
	for i, t := range lt.Tools {
		out.Tools[i].Tool = t
		if ts := taskSupport(t.Name); ts != "" {
			out.Tools[i].Execution = &execution{TaskSupport: ts}
		}
	}
	return out
}
