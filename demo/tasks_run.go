package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// taskRun is one running task as its tool's work sees it.
type taskRun struct {
	store *taskStore
	task  *demoTask
	peer  taskPeer
	token any // the call's progress token, nil when it gave none
	args  json.RawMessage
}

// status sets the task's status and message and tells the client.
func (r *taskRun) status(status, message string) {
	ts := r.store
	ts.mu.Lock()
	if terminal(r.task.status) {
		ts.mu.Unlock()
		return
	}
	ts.setLocked(r.task, status, message)
	w := r.task.wire()
	ts.mu.Unlock()
	if !r.task.ext {
		r.peer.notify("notifications/tasks/status", w)
	}
}

// progress reports progress on the call's token, if it gave one.
func (r *taskRun) progress(done, total int, message string) {
	if r.token == nil || r.task.ext {
		// The extension sends no progress for a task.
		return
	}
	r.peer.notify("notifications/progress", map[string]any{"progressToken": r.token, "progress": done, "total": total, "message": message})
}

// finish ends the task with res: completed, or failed when res is an
// error; a cancelled task stays cancelled.
func (r *taskRun) finish(res *mcp.CallToolResult, cancelled bool) {
	ts := r.store
	ts.mu.Lock()
	t := r.task
	if terminal(t.status) || cancelled {
		ts.mu.Unlock()
		return
	}
	t.result = res
	switch {
	case t.ext && t.failure != nil:
		ts.setLocked(t, "failed", t.failure.Message)
	case t.ext:
		// An isError result completes the task on the extension.
		ts.setLocked(t, "completed", "done")
	case res.IsError:
		ts.setLocked(t, "failed", resultText(res))
	default:
		ts.setLocked(t, "completed", "done")
	}
	close(t.done)
	w := t.wire()
	ts.mu.Unlock()
	if !t.ext {
		r.peer.notify("notifications/tasks/status", w)
	}
}

func resultText(res *mcp.CallToolResult) string {
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			return tc.Text
		}
	}
	return ""
}

// pause waits d, or reports false when ctx ends first.
func pause(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// taskWork is what a task tool does; nil means cancelled.
type taskWork func(ctx context.Context, r *taskRun) *mcp.CallToolResult

// taskRunner returns the work of the named tool as a task, nil when it
// runs only as a plain call. Each tool that declares taskSupport (see
// [taskSupport]) has one.
func taskRunner(name string) taskWork {
	switch name {
	case "render_video":
		return renderVideo
	case "transcribe_audio":
		return transcribeAudio
	}
	return nil
}

// renderVideo renders one scene per line of the storyboard, 400 ms each.
// At 2160p it fails after the first scene: the demo has no GPU encoder.
func renderVideo(ctx context.Context, r *taskRun) *mcp.CallToolResult {
	var in struct {
		Storyboard string `json:"storyboard"`
		Resolution string `json:"resolution"`
		FPS        int    `json:"fps"`
	}
	_ = json.Unmarshal(r.args, &in)
	if in.Resolution == "" {
		in.Resolution = "1080p"
	}
	if in.FPS == 0 {
		in.FPS = 30
	}
	var scenes []string
	for line := range strings.SplitSeq(in.Storyboard, "\n") {
		if s := strings.TrimSpace(line); s != "" {
			scenes = append(scenes, s)
		}
	}
	if len(scenes) == 0 {
		return toolError("render_video: the storyboard has no scenes; give one per line")
	}
	for i, scene := range scenes {
		msg := fmt.Sprintf("rendering scene %d of %d: %s", i+1, len(scenes), scene)
		r.status("working", msg)
		r.progress(i, len(scenes), msg)
		r.stepped(ctx, msg)
		if !pause(ctx, 400*time.Millisecond) {
			return nil
		}
		if in.Resolution == "2160p" {
			r.fail(rpcError(jsonrpc.CodeInternalError, "render_video failed at scene %d: 2160p needs a GPU encoder and this demo server has none; try 1080p", i+1))
			return toolError("render_video failed at scene %d: 2160p needs a GPU encoder and this demo server has none; try 1080p", i+1)
		}
	}
	r.progress(len(scenes), len(scenes), "encoded")
	return text("Rendered %d scenes at %s, %d fps: video://renders/%s.mp4", len(scenes), in.Resolution, in.FPS, r.task.id)
}

// transcribeAudio transcribes in three steps. Without a language it first
// asks the client which one (the task is input_required meanwhile); a
// client that cannot be asked, or declines, gets the detected one.
func transcribeAudio(ctx context.Context, r *taskRun) *mcp.CallToolResult {
	var in struct {
		URL      string `json:"url"`
		Language string `json:"language"`
	}
	_ = json.Unmarshal(r.args, &in)
	if in.Language == "" {
		in.Language = r.askLanguage(ctx)
		if ctx.Err() != nil {
			return nil
		}
	}
	steps := []string{"fetching audio", "detecting speech", "transcribing"}
	for i, step := range steps {
		r.status("working", step)
		r.progress(i, len(steps), step)
		r.stepped(ctx, step)
		if !pause(ctx, 300*time.Millisecond) {
			return nil
		}
	}
	return text("Transcript of %s [%s]:\n[00:00] Welcome, everyone, and thanks for joining.\n"+
		"[00:04] Today we look at how clients page through tool lists.\n[00:09] Let's begin.", in.URL, in.Language)
}

// stepped tells [Options.TaskStep], if set, that the work set its status
// to message, and waits for it to return.
func (r *taskRun) stepped(ctx context.Context, message string) {
	if r.store.step != nil {
		r.store.step(ctx, message)
	}
}

// askLanguage elicits the spoken language, "en (detected)" when the client
// cannot or will not say.
func (r *taskRun) askLanguage(ctx context.Context) string {
	r.status("input_required", "which language is spoken? (elicitation sent)")
	res, err := r.elicit(ctx, &mcp.ElicitParams{Mode: "form",
		Message: "transcribe_audio: which language is spoken in " + r.task.id + "?",
		RequestedSchema: json.RawMessage(`{"type":"object","properties":{"language":{"type":"string","title":"Language",` +
			`"enum":["en","de","fr","es","ja"],"default":"en"}},"required":["language"]}`),
	})
	r.status("working", "got an answer")
	if err != nil || res == nil || res.Action != "accept" {
		return "en (detected)"
	}
	if lang, ok := res.Content["language"].(string); ok && lang != "" {
		return lang
	}
	return "en (detected)"
}
