package session

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mcpwitness/demo"
	"mcpwitness/finding"
	"mcpwitness/internal/hostiletest"
	"mcpwitness/paging"
	"mcpwitness/record"
)

func verdict(r *CallResult, check string) finding.Verdict {
	for _, v := range r.Verdicts {
		if v.Check == check {
			return v
		}
	}
	return finding.Verdict{Check: check, Status: "missing"}
}

func walked(t testing.TB, s *Session) {
	t.Helper()
	if _, res := s.Walk(context.Background(), paging.Tools()); res.Incomplete != paging.Complete {
		t.Fatalf("walk: %q %v", res.Incomplete, res.Err)
	}
}

func TestCallVerdictsOnTheDemoServer(t *testing.T) {
	t.Parallel()
	s := demoInMemory(t, nil)
	walked(t, s)
	ctx := context.Background()
	tests := []struct {
		tool string
		args string
		want map[string]finding.Status
	}{
		{"add", `{"a":2,"b":3}`, map[string]finding.Status{
			finding.TaskSupport: finding.Pass, finding.InputSchema: finding.Pass,
			finding.StructuredContent: finding.Pass, finding.OutputSchema: finding.Pass}},
		{"forecast_broken", `{"city":"Oslo"}`, map[string]finding.Status{
			finding.StructuredContent: finding.Pass, finding.OutputSchema: finding.Fail}},
		{"summary_no_structured", `{"text":"hello world"}`, map[string]finding.Status{
			finding.StructuredContent: finding.Fail, finding.OutputSchema: finding.Skipped}},
		{"fail_always", `{}`, map[string]finding.Status{
			finding.StructuredContent: finding.Skipped, finding.OutputSchema: finding.Skipped}},
		{"unresolved_ref", `{}`, map[string]finding.Status{
			finding.OutputSchema: finding.Unchecked}},
		{"add", `{"a":"two"}`, map[string]finding.Status{
			finding.InputSchema: finding.Fail}},
	}
	for _, tc := range tests {
		t.Run(tc.tool, func(t *testing.T) {
			r := s.Call(ctx, tc.tool, json.RawMessage(tc.args), nil)
			if r.Err != nil {
				t.Fatalf("call: %v", r.Err)
			}
			for check, want := range tc.want {
				if got := verdict(r, check); got.Status != want {
					t.Errorf("%s = %s (%s), want %s", check, got.Status, got.Message, want)
				}
			}
		})
	}

	r := s.Call(ctx, "forecast_broken", json.RawMessage(`{"city":"Oslo"}`), nil)
	v := verdict(r, finding.OutputSchema)
	if len(v.Errors) == 0 || !strings.HasPrefix(v.Message, "Structured content does not match the tool's output schema") {
		t.Errorf("output-schema failure without paths or wording: %+v", v)
	}
	for _, e := range v.Errors {
		if !strings.HasPrefix(e.InstancePath, "/") {
			t.Errorf("instance path %q is not absolute", e.InstancePath)
		}
	}
	if r := s.Call(ctx, "fail_always", nil, nil); !r.IsError() {
		t.Error("fail_always did not answer isError")
	}
}

func TestRefusedCallSendsNothing(t *testing.T) {
	t.Parallel()
	var rec bytes.Buffer
	log := record.NewLog(&record.LogOptions{History: true})
	r0, err := record.NewRecorder(&rec, record.NewHeader("test", record.TargetInfo{}), nil)
	if err != nil {
		t.Fatal(err)
	}
	log.AddSink(r0.Write)
	s := demoInMemory(t, &Options{Log: log})
	walked(t, s)
	task := taskRequiredTool(t, s)

	r := s.Call(context.Background(), task, nil, nil)
	if r.Sent {
		t.Fatal("a task-required tool was sent without --force")
	}
	v := verdict(r, finding.TaskSupport)
	if v.Status != finding.Refused || !strings.HasPrefix(v.Message, `Tool "`+task+`" requires task-based execution.`) {
		t.Errorf("task-support verdict = %+v", v)
	}
	if n := len(wireFrames(log, record.Send, "tools/call")); n != 0 {
		t.Fatalf("%d tools/call frames on the wire for a refused call", n)
	}
	if strings.Contains(rec.String(), `"method":"tools/call"`) && strings.Contains(rec.String(), `"dir":"send"`) {
		for _, line := range strings.Split(rec.String(), "\n") {
			if strings.Contains(line, `"kind":"wire"`) && strings.Contains(line, `"tools/call"`) {
				t.Fatalf("the record holds a tools/call frame: %s", line)
			}
		}
	}

	forced := s.Call(context.Background(), task, nil, &CallOptions{Force: true})
	if !forced.Sent || !forced.Forced {
		t.Fatal("--force did not send the call")
	}
	if n := len(wireFrames(log, record.Send, "tools/call")); n != 1 {
		t.Errorf("%d tools/call frames after a forced call, want 1", n)
	}
}

func taskRequiredTool(t *testing.T, s *Session) string {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	for name, d := range s.tools {
		var def struct {
			Execution struct {
				TaskSupport string `json:"taskSupport"`
			} `json:"execution"`
		}
		if json.Unmarshal(d.raw, &def) == nil && def.Execution.TaskSupport == "required" {
			return name
		}
	}
	t.Fatal("the demo server lists no task-required tool")
	return ""
}

func TestCallOfAnUnlistedToolIsAProbe(t *testing.T) {
	t.Parallel()
	s := demoInMemory(t, nil)
	walked(t, s)
	r := s.Call(context.Background(), "no_such_tool", nil, nil)
	if !r.Sent || r.Listed {
		t.Fatalf("sent=%v listed=%v, want sent and not listed", r.Sent, r.Listed)
	}
	if len(r.Findings) == 0 || r.Findings[0].Check != "not-listed" {
		t.Errorf("findings = %+v, want not-listed", r.Findings)
	}
	for _, v := range r.Verdicts {
		if v.Status != finding.Skipped {
			t.Errorf("%s = %s for an unlisted tool, want skipped", v.Check, v.Status)
		}
	}
}

func TestServerDyingMidCallIsExplained(t *testing.T) {
	t.Parallel()
	// The timeout is far longer than noticing an exit takes: an error that
	// came from waiting it out says so, and fails below.
	s := dial(t, hostile(t, "die-on-call"), &Options{Timeout: time.Minute})
	walked(t, s)
	r := s.Call(context.Background(), "tool_1_1", nil, nil)
	if r.Err == nil {
		t.Fatal("no error from a server that died mid-call")
	}
	msg := r.Err.Error()
	if !strings.Contains(msg, "exited") || !strings.Contains(msg, "crashing on purpose") || strings.Contains(msg, "no answer within") {
		t.Errorf("error does not say the server exited and quote its stderr: %s", msg)
	}
}

func TestServerNeverAnsweringTimesOut(t *testing.T) {
	t.Parallel()
	s := dial(t, hostile(t, "hang-call"), nil)
	walked(t, s)
	shortTimeout(s, 1500*time.Millisecond)
	r := s.Call(context.Background(), "tool_1_1", nil, nil)
	if r.Err == nil || !strings.Contains(r.Err.Error(), "no answer within 1.5s") {
		t.Fatalf("error = %v, want a timeout naming 1.5s", r.Err)
	}
	// The SDK sends the cancellation off the caller's path: wait for it.
	deadline := time.Now().Add(time.Minute)
	for len(wireFrames(s.Log(), record.Send, "notifications/cancelled")) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("no notifications/cancelled sent after the timeout")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestCancelACall(t *testing.T) {
	t.Parallel()
	log := record.NewLog(&record.LogOptions{History: true})
	sub := log.Subscribe()
	defer sub.Close()
	s := dial(t, hostile(t, "hang-call"), &Options{Log: log, Timeout: time.Minute})
	walked(t, s)
	// Cancel once the call is on the wire, so it is in flight.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for ev := range sub.C() {
			if ev.Kind == record.KindWire && ev.Dir == record.Send && ev.Method == "tools/call" {
				cancel()
				return
			}
		}
	}()
	r := s.Call(ctx, "tool_1_1", nil, nil)
	if !r.Sent || !r.Cancelled || r.Err == nil || !strings.Contains(r.Err.Error(), "cancelled") {
		t.Fatalf("sent=%v cancelled=%v err=%v", r.Sent, r.Cancelled, r.Err)
	}
	// The server is told; the SDK sends it off the caller's path.
	deadline := time.Now().Add(time.Minute)
	for len(wireFrames(log, record.Send, "notifications/cancelled")) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("no notifications/cancelled sent after the cancel")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestCallNotificationsBecomeEvents(t *testing.T) {
	t.Parallel()
	for _, proto := range []string{"", "2025-11-25"} {
		t.Run("protocol "+proto, func(t *testing.T) {
			s := demoInMemory(t, &Options{Protocol: proto})
			walked(t, s)
			logs := s.Call(context.Background(), "log_burst", nil, nil)
			slow := s.Call(context.Background(), "slow_count", json.RawMessage(`{"steps":3,"delay_ms":5}`), nil)
			if logs.Err != nil || slow.Err != nil {
				t.Fatal(logs.Err, slow.Err)
			}
			var messages, progress int
			for _, ev := range s.Log().Events() {
				switch {
				case ev.Kind == record.KindNotification && ev.Method == "notifications/message" && ev.Level != "":
					messages++
				case ev.Kind == record.KindProgress && ev.Progress.CallID == slow.ID:
					progress++
				}
			}
			if messages == 0 {
				t.Error("no log message events")
			}
			if progress != 3 {
				t.Errorf("%d progress events for slow_count, want 3", progress)
			}
		})
	}
}

// A walk during a call marks it listedDuringCall; a walk that changes the
// called tool's definition marks it stale. The called tool answers only once
// the test lets it, so the walk happens while the call is in flight however
// slow the machine is.
func TestCallStaleAndListedDuringCall(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	srv := demo.New(nil)
	started, release := make(chan struct{}), make(chan struct{})
	srv.AddTool(&mcp.Tool{Name: "gate", Description: "answers when the test releases it",
		InputSchema: map[string]any{"type": "object"}}, func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		close(started)
		select {
		case <-release:
		case <-ctx.Done():
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "released"}}}, nil
	})
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	s := dial(t, Target{Transport: ct}, nil)
	walked(t, s)

	quiet := s.Call(ctx, "add", json.RawMessage(`{"a":1,"b":2}`), nil)
	if quiet.Stale || quiet.ListedDuring {
		t.Fatalf("a call with no walk around it: stale=%v listedDuringCall=%v", quiet.Stale, quiet.ListedDuring)
	}

	done := make(chan *CallResult, 1)
	go func() { done <- s.Call(ctx, "gate", nil, nil) }()
	select {
	case <-started:
	case r := <-done:
		t.Fatalf("the call ended before the server saw it: %v", r.Err)
	case <-time.After(time.Minute):
		t.Fatal("the server never received the call")
	}
	srv.AddTool(&mcp.Tool{Name: "gate", Description: "redefined while a call was in flight",
		InputSchema: map[string]any{"type": "object"}}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{}, nil
	})
	walked(t, s)
	close(release)
	r := <-done
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	if !r.ListedDuring || !r.Stale {
		t.Errorf("stale=%v listedDuringCall=%v, want both", r.Stale, r.ListedDuring)
	}
}

// A server that answers a call after the client cancelled it does not undo
// the cancellation: the call stays cancelled, as a client ignores such an
// answer, and the answer is still on the record.
func TestAnAnswerAfterCancelKeepsTheCallCancelled(t *testing.T) {
	t.Parallel()
	log := record.NewLog(&record.LogOptions{History: true})
	sub := log.Subscribe()
	defer sub.Close()
	s := dial(t, hostile(t, "answer-on-cancel"), &Options{Log: log, Timeout: time.Minute})
	walked(t, s)
	sent := make(chan struct{}, 1)
	go func() {
		for ev := range sub.C() {
			if ev.Kind == record.KindWire && ev.Dir == record.Send && ev.Method == "tools/call" {
				sent <- struct{}{}
			}
		}
	}()
	const calls = 20
	for i := range calls {
		ctx, cancel := context.WithCancel(context.Background())
		go func() { <-sent; cancel() }()
		r := s.Call(ctx, "tool_1_1", nil, nil)
		cancel()
		if !r.Cancelled || r.Err == nil || len(r.Result) > 0 {
			t.Fatalf("call %d: cancelled=%v err=%v result=%s", i+1, r.Cancelled, r.Err, r.Result)
		}
	}
	deadline := time.Now().Add(time.Minute)
	for len(wireFrames(log, record.Recv, "tools/call")) < calls {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d late answers recorded", len(wireFrames(log, record.Recv, "tools/call")), calls)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A call says when the server sent notifications/tools/list_changed after
// the listing its definition came from and before its answer, in the order
// the server wrote them: tool_1_2 is answered before its notification,
// tool_1_1 after its own; a new listing takes the changes in.
func TestCallSaysTheToolListChanged(t *testing.T) {
	t.Parallel()
	s := dial(t, hostile(t, hostiletest.ModeListChanged, "-page-size", "3"), &Options{Timeout: time.Minute})
	walked(t, s)
	ctx := context.Background()
	if r := s.Call(ctx, "tool_1_2", nil, nil); r.Err != nil || r.ListChanged {
		t.Fatalf("a call answered before the notification: err=%v listChanged=%v", r.Err, r.ListChanged)
	}
	// tool_1_2's notification came after its answer and before this one's.
	if r := s.Call(ctx, "tool_1_3", nil, nil); r.Err != nil || !r.ListChanged || r.Stale {
		t.Fatalf("a call after the server said its list changed: err=%v listChanged=%v stale=%v, want listChanged only", r.Err, r.ListChanged, r.Stale)
	}
	walked(t, s)
	if r := s.Call(ctx, "tool_1_3", nil, nil); r.Err != nil || r.ListChanged {
		t.Fatalf("a call checked against a listing newer than every notification: err=%v listChanged=%v", r.Err, r.ListChanged)
	}
	r := s.Call(ctx, "tool_1_1", nil, nil)
	if r.Err != nil || !r.ListChanged {
		t.Fatalf("a call whose answer followed a notification: err=%v listChanged=%v", r.Err, r.ListChanged)
	}
	var done *record.CallInfo
	for _, ev := range s.Log().Events() {
		if ev.Kind == record.KindCall && ev.Call.State == record.PhaseDone && ev.Call.ID == r.ID {
			done = ev.Call
		}
	}
	if done == nil || !done.ListChanged {
		t.Errorf("the call's done event does not say listChanged: %+v", done)
	}
}
