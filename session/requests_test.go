package session

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mcpwitness/checks"
	"mcpwitness/demo"
	"mcpwitness/finding"
	"mcpwitness/internal/hostiletest"
	"mcpwitness/paging"
	"mcpwitness/record"
)

// listedItem walks m and returns the raw item whose key is key.
func listedItem(t *testing.T, s *Session, m paging.Method, key string) json.RawMessage {
	t.Helper()
	_, res := s.Walk(context.Background(), m)
	for _, p := range res.Pages {
		for _, item := range p.Items {
			var named map[string]any
			_ = json.Unmarshal(item, &named)
			if named[m.KeyField] == key {
				return item
			}
		}
	}
	t.Fatalf("%s lists no %q (%q, %v)", m.Name, key, res.Incomplete, res.Err)
	return nil
}

func requestVerdict(r *RequestResult, check string) finding.Verdict {
	for _, v := range r.Verdicts {
		if v.Check == check {
			return v
		}
	}
	return finding.Verdict{Check: check, Status: "missing"}
}

func TestReadResourceVerdicts(t *testing.T) {
	t.Parallel()
	s := demoInMemory(t, nil)
	ctx := context.Background()
	r := s.ReadResource(ctx, "demo://readme")
	if r.Err != nil || !r.Sent || len(r.Result) == 0 || r.RequestID == "" {
		t.Fatalf("read: %+v", r)
	}
	if v := requestVerdict(r, checks.ResourceContents); v.Status != finding.Pass {
		t.Errorf("readme: %+v", v)
	}
	r = s.ReadResource(ctx, demo.BrokenResourceURI)
	if v := requestVerdict(r, checks.ResourceContents); v.Status != finding.Fail || !strings.Contains(v.Message, "both") {
		t.Errorf("broken: %+v", v)
	}
	// The start, the verdict and the end are recorded, the end with the raw answer.
	var kinds []string
	for _, ev := range s.Log().Events() {
		if ev.Request != nil && ev.Request.ID == r.ID {
			kinds = append(kinds, string(ev.Kind)+"/"+string(ev.Request.State))
			if ev.Request.State == record.PhaseDone && !strings.Contains(string(ev.Request.Result), "somewhere-else") {
				t.Errorf("the end holds %s, not the raw answer", ev.Request.Result)
			}
		}
	}
	if got := strings.Join(kinds, " "); got != "request/start verdict/verdict request/done" {
		t.Errorf("events %s", got)
	}
}

func TestReadAlwaysReachesTheWire(t *testing.T) {
	t.Parallel()
	// The server says its reads may be cached for a minute; a read still asks.
	srv := mcp.NewServer(&mcp.Implementation{Name: "cached", Version: "1"}, &mcp.ServerOptions{
		SetCacheable: func(_ context.Context, _ mcp.Request, c *mcp.Cacheable) { c.TTLMs = 60000 },
	})
	srv.AddResource(&mcp.Resource{URI: "demo://readme", Name: "readme"}, func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, Text: "hi"}}}, nil
	})
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	s := dial(t, Target{Transport: ct, Name: "demo"}, &Options{Protocol: "2026-07-28"})
	for range 2 {
		if r := s.ReadResource(context.Background(), "demo://readme"); r.Err != nil {
			t.Fatal(r.Err)
		}
	}
	if got := len(wireFrames(s.Log(), record.Send, record.MethodRead)); got != 2 {
		t.Errorf("%d reads on the wire, want 2", got)
	}
}

func TestGetPromptRefusesAMissingRequiredArgument(t *testing.T) {
	t.Parallel()
	s := demoInMemory(t, nil)
	ctx := context.Background()
	def := listedItem(t, s, paging.Prompts(), "code_review")
	r := s.GetPrompt(ctx, "code_review", map[string]string{"language": "Go"}, &PromptOptions{Definition: def})
	if !r.Refused() || r.Sent {
		t.Fatalf("refused=%v sent=%v verdicts=%+v", r.Refused(), r.Sent, r.Verdicts)
	}
	if n := len(wireFrames(s.Log(), record.Send, record.MethodGetPrompt)); n != 0 {
		t.Errorf("%d prompts/get sent for a refused request", n)
	}
	r = s.GetPrompt(ctx, "code_review", map[string]string{"language": "Go"}, &PromptOptions{Definition: def, Force: true})
	if !r.Sent || !r.Forced || len(r.RPCError) == 0 {
		t.Errorf("forced: sent=%v forced=%v rpcError=%s", r.Sent, r.Forced, r.RPCError)
	}
	r = s.GetPrompt(ctx, "code_review", map[string]string{"code": "x := 1"}, &PromptOptions{Definition: def})
	if requestVerdict(r, checks.PromptArguments).Status != finding.Pass || requestVerdict(r, checks.PromptMessages).Status != finding.Pass {
		t.Errorf("valid prompt: %+v", r.Verdicts)
	}
}

func TestBadAnswersFailTheirVerdicts(t *testing.T) {
	t.Parallel()
	s := dial(t, hostile(t, hostiletest.ModeBadAnswers), nil)
	ctx := context.Background()
	for _, tc := range []struct {
		r     *RequestResult
		check string
	}{
		{s.ReadResource(ctx, "hostile://r/1/1"), checks.ResourceContents},
		{s.GetPrompt(ctx, "prompt_1_1", map[string]string{"x": "1"}, nil), checks.PromptMessages},
		{s.Complete(ctx, CompleteRef{Prompt: "prompt_1_1"}, "x", "", nil), checks.CompletionValues},
	} {
		if v := requestVerdict(tc.r, tc.check); v.Status != finding.Fail {
			t.Errorf("%s: %+v (err %v)", tc.r.Method, v, tc.r.Err)
		}
		if len(tc.r.Result) == 0 {
			t.Errorf("%s: the raw answer was not kept", tc.r.Method)
		}
	}
}

func TestCompleteVerdicts(t *testing.T) {
	t.Parallel()
	s := demoInMemory(t, nil)
	ctx := context.Background()
	r := s.Complete(ctx, CompleteRef{Template: "demo://weather/{city}"}, "city", "os", nil)
	if v := requestVerdict(r, checks.CompletionValues); v.Status != finding.Pass || !strings.Contains(string(r.Result), "oslo") {
		t.Errorf("weather: %+v %s", v, r.Result)
	}
	r = s.Complete(ctx, CompleteRef{Template: demo.NumbersTemplate}, "n", "", nil)
	if v := requestVerdict(r, checks.CompletionValues); v.Status != finding.Fail || !strings.Contains(v.Message, "must not exceed 100") {
		t.Errorf("numbers: %+v", v)
	}
}

func TestPingAndLogLevel(t *testing.T) {
	t.Parallel()
	s := demoInMemory(t, &Options{Protocol: "2025-11-25"})
	ctx := context.Background()
	if r := s.Ping(ctx); r.Err != nil || r.Elapsed <= 0 || r.RequestID == "" {
		t.Errorf("ping: %+v", r)
	}
	if r := s.SetLogLevel(ctx, "warning"); r.Err != nil || len(r.RPCError) > 0 {
		t.Errorf("setLevel warning: %+v", r)
	}
	sent := wireFrames(s.Log(), record.Send, record.MethodSetLevel)
	if len(sent) == 0 || !strings.Contains(string(sent[len(sent)-1].Frame), `"warning"`) {
		t.Errorf("no logging/setLevel warning on the wire")
	}
	r := s.SetLogLevel(ctx, "loud")
	if r.Err == nil || r.Sent || !strings.Contains(r.Err.Error(), "debug, info") {
		t.Errorf("setLevel loud: %+v", r)
	}
	// From 2026-07-28 the method is gone: nothing is sent, and the error says why.
	s = demoInMemory(t, &Options{Protocol: "2026-07-28"})
	if r := s.SetLogLevel(ctx, "warning"); r.Err == nil || r.Sent || len(wireFrames(s.Log(), record.Send, record.MethodSetLevel)) != 0 {
		t.Errorf("setLevel on 2026-07-28: %+v", r)
	}
}

func TestCancelARequest(t *testing.T) {
	t.Parallel()
	log := record.NewLog(&record.LogOptions{History: true})
	sub := log.Subscribe()
	defer sub.Close()
	s := dial(t, hostile(t, hostiletest.ModeHangRequests), &Options{Log: log, Timeout: time.Minute})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for ev := range sub.C() {
			if ev.Kind == record.KindWire && ev.Dir == record.Send && ev.Method == record.MethodRead {
				cancel()
				return
			}
		}
	}()
	r := s.ReadResource(ctx, "hostile://r/1/1")
	if !r.Sent || !r.Cancelled || r.Err == nil {
		t.Fatalf("sent=%v cancelled=%v err=%v", r.Sent, r.Cancelled, r.Err)
	}
}

func TestRequestTimesOut(t *testing.T) {
	t.Parallel()
	s := shortTimeout(dial(t, hostile(t, hostiletest.ModeHangRequests), nil), 300*time.Millisecond)
	r := s.GetPrompt(context.Background(), "prompt_1_1", map[string]string{"x": "1"}, nil)
	if r.Err == nil || !strings.Contains(r.Err.Error(), "no answer within") || r.Cancelled {
		t.Errorf("err=%v cancelled=%v", r.Err, r.Cancelled)
	}
}

func TestSubscribeRecordsUpdates(t *testing.T) {
	t.Parallel()
	log := record.NewLog(&record.LogOptions{History: true})
	sub := log.Subscribe()
	defer sub.Close()
	s := demoInMemory(t, &Options{Log: log})
	ctx := context.Background()
	if r := s.Subscribe(ctx, demo.ClockURI); r.Err != nil || len(r.RPCError) > 0 {
		t.Fatalf("subscribe: %+v", r)
	}
	deadline := time.After(30 * time.Second)
	for updated := false; !updated; {
		select {
		case ev := <-sub.C():
			if uri, ok := record.UpdatedURI(ev); ok {
				if uri != demo.ClockURI {
					t.Errorf("updated %q", uri)
				}
				updated = true
			}
		case <-deadline:
			t.Fatal("no notifications/resources/updated recorded")
		}
	}
	if r := s.Unsubscribe(ctx, demo.ClockURI); r.Err != nil || len(r.RPCError) > 0 {
		t.Errorf("unsubscribe: %+v", r)
	}
}

// TestLogLevelTravelsInTheMetaOnNewProtocols: on 2026-07-28 there is no
// logging/setLevel; the level asked for goes in each call's _meta instead.
func TestLogLevelTravelsInTheMetaOnNewProtocols(t *testing.T) {
	t.Parallel()
	s := demoInMemory(t, nil)
	ctx := context.Background()
	if s.Info().ProtocolVersion < newProtocol {
		t.Fatalf("the demo spoke %s", s.Info().ProtocolVersion)
	}
	metaLevel := func() string {
		t.Helper()
		s.Call(ctx, "add", json.RawMessage(`{"a":1,"b":2}`), nil)
		level := ""
		for _, ev := range s.Log().Events() {
			if ev.Kind == record.KindWire && ev.Dir == record.Send && ev.Method == "tools/call" {
				var f struct {
					Params struct {
						Meta map[string]any `json:"_meta"`
					} `json:"params"`
				}
				_ = json.Unmarshal(ev.Frame, &f)
				//lint:ignore SA1019 the test reads the key calls still send on 2026-07-28
				level, _ = f.Params.Meta[mcp.MetaKeyLogLevel].(string)
			}
		}
		return level
	}
	if got := metaLevel(); got != "debug" {
		t.Errorf("before any level was set, a call asks for %q", got)
	}
	r := s.SetLogLevel(ctx, "warning")
	if r.Sent || r.Err == nil || !strings.Contains(r.Err.Error(), "calls from now on ask for warning") {
		t.Errorf("set level: sent %v, err %v", r.Sent, r.Err)
	}
	if got := metaLevel(); got != "warning" {
		t.Errorf("after the level was set to warning, a call asks for %q", got)
	}
}

// Calls and the other requests are numbered apart: a call after reads and
// a ping is still call #1, as a user counting calls expects (the report's
// table and the terminal's "Call #N" show this number).
func TestCallsAreNumberedApartFromRequests(t *testing.T) {
	t.Parallel()
	s := demoInMemory(t, nil)
	ctx := context.Background()
	r1 := s.ReadResource(ctx, "demo://readme")
	r2 := s.ReadResource(ctx, demo.BrokenResourceURI)
	if r1.ID != 1 || r2.ID != 2 {
		t.Fatalf("reads numbered %d, %d, want 1, 2", r1.ID, r2.ID)
	}
	c := s.Call(ctx, "add", json.RawMessage(`{"a":1,"b":2}`), nil)
	if c.Err != nil || c.ID != 1 {
		t.Fatalf("first call after two reads: id %d, err %v; want call #1", c.ID, c.Err)
	}
	if r3 := s.ReadResource(ctx, "demo://readme"); r3.ID != 3 {
		t.Errorf("read after the call numbered %d, want 3", r3.ID)
	}
	if c2 := s.Call(ctx, "add", json.RawMessage(`{"a":2,"b":2}`), nil); c2.ID != 2 {
		t.Errorf("second call numbered %d, want 2", c2.ID)
	}
}

// A complete prompts walk forgets the prompts it no longer lists, as one of
// tools forgets tools: a server that names new prompts on each walk does
// not grow what the session keeps of them.
func TestPromptsWalkForgetsWhatItNoLongerLists(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := mcp.NewServer(&mcp.Implementation{Name: "prompts", Version: "1"}, nil)
	handler := func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "hi"}}}}, nil
	}
	srv.AddPrompt(&mcp.Prompt{Name: "first"}, handler)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	s := dial(t, Target{Transport: ct, Name: "prompts"}, nil)
	marked := func() []string {
		s.mu.Lock()
		defer s.mu.Unlock()
		return slices.Sorted(maps.Keys(s.promptMarks))
	}
	if _, res := s.Walk(ctx, paging.Prompts()); res.Err != nil {
		t.Fatal(res.Err)
	}
	if got := marked(); !slices.Equal(got, []string{"first"}) {
		t.Fatalf("after the first walk the session keeps %v, want [first]", got)
	}
	srv.RemovePrompts("first")
	srv.AddPrompt(&mcp.Prompt{Name: "second"}, handler)
	if _, res := s.Walk(ctx, paging.Prompts()); res.Err != nil {
		t.Fatal(res.Err)
	}
	if got := marked(); !slices.Equal(got, []string{"second"}) {
		t.Errorf("after the second walk the session keeps %v, want [second]", got)
	}
}
