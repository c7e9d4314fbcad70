//lint:file-ignore SA1019 servers on protocols before 2026-07-28 still ask for roots and sampling; a person or a flag answers them

package session

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mcpwitness/internal/hostiletest"
	"mcpwitness/record"
)

// nextAsk reads sub until an "asked" event of method and returns its
// number (its ID is "ask-N") and the call it names.
func nextAsk(t *testing.T, sub *record.Subscription, method string) (seq, call int64) {
	t.Helper()
	timer := time.NewTimer(10 * time.Second)
	defer timer.Stop()
	for {
		select {
		case ev := <-sub.C():
			if ev.Kind != record.KindServerCall || ev.Method != method || !strings.HasPrefix(ev.Text, "asked") {
				continue
			}
			n, err := strconv.ParseInt(strings.TrimPrefix(ev.ID, "ask-"), 10, 64)
			if err != nil {
				t.Fatalf("asked event ID %q", ev.ID)
			}
			if ev.Call != nil {
				call = ev.Call.ID
			}
			return n, call
		case <-timer.C:
			t.Fatalf("no %s was asked", method)
		}
	}
}

// callAsync calls tool in the background; the channel gets its first text.
func callAsync(t *testing.T, s *Session, tool string) <-chan string {
	out := make(chan string, 1)
	go func() {
		r := s.Call(context.Background(), tool, nil, nil)
		var res struct {
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		}
		_ = json.Unmarshal(r.Result, &res)
		if len(res.Content) == 0 {
			out <- "no content: " + string(r.Result) + string(r.RPCError)
			return
		}
		out <- res.Content[0].Text
	}()
	return out
}

func receive(t *testing.T, c <-chan string) string {
	t.Helper()
	select {
	case s := <-c:
		return s
	case <-time.After(10 * time.Second):
		t.Fatal("the call did not return")
		return ""
	}
}

// With an Interactive answerer the client declares sampling and both
// elicitation modes, and each request waits for the person's reply, which
// the server gets as it was given: accept, decline, cancel, a sampling
// message, a sampling rejection.
func TestInteractiveAnswersEachRequestAsReplied(t *testing.T) {
	t.Parallel()
	ia := NewInteractive()
	s := askingSession(t, &Options{Answerer: ia})
	frames := wireFrames(s.Log(), record.Send, "initialize")
	if len(frames) != 1 || !strings.Contains(string(frames[0].Frame), `"elicitation":{"form":{},"url":{}}`) ||
		!strings.Contains(string(frames[0].Frame), `"sampling":{}`) {
		t.Fatalf("initialize declared %s", frames[0].Frame)
	}
	for _, tc := range []struct {
		tool, method string
		reply        Reply
		want         string
	}{
		{"ask", MethodElicit, Reply{Result: &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Grace"}}, Text: "accept"},
			`{"action":"accept","content":{"age":36,"name":"Grace"}}`},
		{"ask", MethodElicit, Reply{Result: &mcp.ElicitResult{Action: "decline"}, Text: "decline"}, `{"action":"decline"}`},
		{"ask", MethodElicit, Reply{Result: &mcp.ElicitResult{Action: "cancel"}, Text: "cancel"}, `{"action":"cancel"}`},
		{"sample", MethodSampling, Reply{Result: &mcp.CreateMessageResult{Role: "assistant", Model: "person",
			StopReason: "endTurn", Content: &mcp.TextContent{Text: "typed"}}, Text: "answered"}, `"text":"typed"`},
		{"sample", MethodSampling, Reply{Err: userRejected("the user declined")}, "User rejected sampling request: the user declined"},
	} {
		sub := s.Log().Subscribe()
		got := callAsync(t, s, tc.tool)
		seq, call := nextAsk(t, sub, tc.method)
		sub.Close()
		if call == 0 {
			t.Errorf("%s: the ask names no call", tc.tool)
		}
		if !s.Reply(seq, tc.reply) {
			t.Fatalf("%s: ask %d was not waiting", tc.tool, seq)
		}
		if g := receive(t, got); !strings.Contains(g, tc.want) {
			t.Errorf("%s: the server got %s, want %s", tc.tool, g, tc.want)
		}
		if s.Reply(seq, tc.reply) {
			t.Errorf("%s: ask %d still waits after its answer", tc.tool, seq)
		}
	}
}

// A request nobody answers is released by the server's cancel, by the
// request timeout and by the session's close, and each says so.
func TestUnansweredAsksAreReleased(t *testing.T) {
	t.Parallel()
	// giveUp serves a tool that asks, and gives up asking once release
	// closes.
	giveUp := func(release chan struct{}) *mcp.Server {
		srv := mcp.NewServer(&mcp.Implementation{Name: "asking", Version: "1"}, nil)
		srv.AddTool(&mcp.Tool{Name: "ask_then_give_up", InputSchema: map[string]any{"type": "object"}},
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				ctx, cancel := context.WithCancel(ctx)
				defer cancel()
				go func() {
					select {
					case <-release:
						cancel()
					case <-ctx.Done():
					}
				}()
				_, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "?", RequestedSchema: json.RawMessage(askSchema)})
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "gave up: " + errString(err)}}}, nil
			})
		return srv
	}
	release := make(chan struct{})
	srv := giveUp(make(chan struct{}))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	url := "http://" + ln.Addr().String() + "/mcp"

	unanswered := func(s *Session) []string {
		var out []string
		for _, text := range serverCalls(s.Log(), MethodElicit) {
			if strings.HasPrefix(text, "unanswered: ") {
				out = append(out, text)
			}
		}
		return out
	}

	// The server's cancel (notifications/cancelled) releases the wait.
	st, ct := mcp.NewInMemoryTransports()
	ss, err := giveUp(release).Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	s := dial(t, Target{Transport: ct, Name: "asking"}, &Options{Answerer: NewInteractive(), Protocol: "2025-11-25"})
	sub := s.Log().Subscribe()
	got := callAsync(t, s, "ask_then_give_up")
	seq, _ := nextAsk(t, sub, MethodElicit)
	sub.Close()
	close(release)
	if g := receive(t, got); !strings.HasPrefix(g, "gave up") {
		t.Errorf("the tool said %q", g)
	}
	waitFor(t, "the unanswered event", func() bool { return len(unanswered(s)) == 1 })
	if u := unanswered(s); u[0] != "unanswered: the server cancelled the request" {
		t.Errorf("event %q", u[0])
	}
	if s.Reply(seq, Reply{}) {
		t.Error("a request the server cancelled still waits")
	}

	// The request timeout releases it.
	s = shortTimeout(dial(t, Target{URL: url}, &Options{Answerer: NewInteractive(), Protocol: "2025-11-25"}), 300*time.Millisecond)
	sub = s.Log().Subscribe()
	s.Call(context.Background(), "ask_then_give_up", nil, nil)
	nextAsk(t, sub, MethodElicit)
	sub.Close()
	waitFor(t, "the unanswered event", func() bool { return len(unanswered(s)) == 1 })
	if u := unanswered(s); u[0] != "unanswered: no answer within 300ms" {
		t.Errorf("event %q", u[0])
	}

	// Closing the session releases it.
	s = dial(t, Target{URL: url}, &Options{Answerer: NewInteractive(), Protocol: "2025-11-25"})
	sub = s.Log().Subscribe()
	callAsync(t, s, "ask_then_give_up")
	nextAsk(t, sub, MethodElicit)
	sub.Close()
	s.Close()
	waitFor(t, "the unanswered event", func() bool { return len(unanswered(s)) == 1 })
	if u := unanswered(s); u[0] != "unanswered: the session closed before an answer" {
		t.Errorf("event %q", u[0])
	}
}

func errString(err error) string {
	if err == nil {
		return "no error"
	}
	return err.Error()
}

// A server that asks for what the client did not declare is refused, and
// the refusal is a finding.
func TestUndeclaredAsksAreFindings(t *testing.T) {
	t.Parallel()
	s := dial(t, hostile(t, hostiletest.ModeServerRequests), nil)
	askHostile(t, s, MethodElicit)
	askHostile(t, s, MethodSampling)
	askHostile(t, s, MethodListRoots)
	var n int
	for _, ev := range s.Log().Events() {
		if ev.Kind == record.KindServerCall && (ev.Method == MethodElicit || ev.Method == MethodSampling || ev.Method == MethodListRoots) {
			n++
			if ev.Level != LevelFinding || !strings.Contains(ev.Text, "declare") {
				t.Errorf("%s %q (level %q) is not a finding that says so", ev.Method, ev.Text, ev.Level)
			}
		}
	}
	if n != 3 {
		t.Errorf("%d events, want one finding each", n)
	}
}

// Changing the roots tells the server (notifications/roots/list_changed)
// and roots/list answers the new list.
func TestSetRootsTellsTheServer(t *testing.T) {
	t.Parallel()
	changed := make(chan struct{}, 4)
	st, ct := mcp.NewInMemoryTransports()
	srv := mcp.NewServer(&mcp.Implementation{Name: "roots", Version: "1"}, &mcp.ServerOptions{
		RootsListChangedHandler: func(context.Context, *mcp.RootsListChangedRequest) { changed <- struct{}{} },
	})
	ss, err := srv.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	s := dial(t, Target{Transport: ct, Name: "roots"}, &Options{EditRoots: true, Protocol: "2025-11-25", Roots: []string{"/tmp/a"}})
	if caps := ss.InitializeParams().Capabilities; caps.RootsV2 == nil || !caps.RootsV2.ListChanged {
		t.Fatalf("roots not declared with listChanged: %+v", caps.RootsV2)
	}
	if err := s.SetRoots([]string{"/tmp/a", "/srv/b"}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-changed:
	case <-time.After(10 * time.Second):
		t.Fatal("the server was not told the roots changed")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	res, err := ss.ListRoots(ctx, nil)
	if err != nil || len(res.Roots) != 2 || (res.Roots[0].URI != "file:///srv/b" && res.Roots[1].URI != "file:///srv/b") {
		t.Fatalf("roots/list after the change: %+v %v", res, err)
	}
	if err := s.SetRoots([]string{"/srv/b"}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-changed:
	case <-time.After(10 * time.Second):
		t.Fatal("the server was not told a root was removed")
	}
	if got := s.Roots(); len(got) != 1 || got[0] != "file:///srv/b" {
		t.Errorf("Roots() = %q", got)
	}
	// The same list again changes nothing and tells nothing.
	before := len(serverCalls(s.Log(), MethodRootsChange))
	if err := s.SetRoots([]string{"/srv/b"}); err != nil || len(serverCalls(s.Log(), MethodRootsChange)) != before {
		t.Errorf("an unchanged list was announced (%v)", err)
	}
}

// On protocol 2026-07-28 a server may ask inside a result (input
// requests, multi round-trip): the SDK retries the call with the answers,
// which come from the same answerer, and each ask is recorded with the call.
func TestInputRequestsAreAnsweredByTheSameAnswerer(t *testing.T) {
	t.Parallel()
	answered := make(chan string, 1)
	srv := mcp.NewServer(&mcp.Implementation{Name: "mrtr", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "ask_in_result", InputSchema: map[string]any{"type": "object"}},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if r, ok := req.Params.InputResponses["who"].(*mcp.ElicitResult); ok {
				b, _ := json.Marshal(r)
				answered <- string(b)
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, nil
			}
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{
				"who": &mcp.ElicitParams{Mode: "form", Message: "who?", RequestedSchema: map[string]any{
					"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}}},
			}}, nil
		})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	// The SDK serves 2026-07-28 over Streamable HTTP only stateless.
	hs := &http.Server{Handler: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Stateless: true})}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	s := dial(t, Target{URL: "http://" + ln.Addr().String() + "/mcp"}, &Options{Answerer: NewInteractive(), Protocol: "2026-07-28"})
	sub := s.Log().Subscribe()
	got := callAsync(t, s, "ask_in_result")
	seq, call := nextAsk(t, sub, MethodElicit)
	sub.Close()
	if call == 0 {
		t.Error("the input request names no call")
	}
	s.Reply(seq, Reply{Result: &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada"}}, Text: "accept"})
	// The server's handler, called again, holds the answer, and the call
	// reports the last answer, not the one that asked.
	want := `{"action":"accept","content":{"name":"Ada"}}`
	if g := receive(t, answered); g != want {
		t.Errorf("the server got %s", g)
	}
	if g := receive(t, got); g != want {
		t.Errorf("the call answered %s, want the retry's %s", g, want)
	}
	texts := serverCalls(s.Log(), MethodElicit)
	if len(texts) != 2 || texts[0] != "asked (an input request in a result)" || texts[1] != "accept" {
		t.Errorf("events %q", texts)
	}
	if rounds := serverCalls(s.Log(), "tools/call"); len(rounds) != 1 || rounds[0] != "round trip 1: the result asks for input (who)" {
		t.Errorf("round trip events %q", rounds)
	}
	var calls int
	for _, f := range wireFrames(s.Log(), record.Send, "tools/call") {
		calls++
		if calls == 2 && !strings.Contains(string(f.Frame), `"inputResponses"`) {
			t.Errorf("the retry carries no inputResponses: %s", f.Frame)
		}
	}
	if calls != 2 {
		t.Errorf("%d tools/call frames, want 2 (the call and its retry)", calls)
	}
}

// A reply that comes between the "asked" event and the answerer's wait
// (the UI may be that fast) is kept for the wait, and a second reply to
// the same request is refused.
func TestInteractiveKeepsAReplyThatComesFirst(t *testing.T) {
	t.Parallel()
	ia, s := NewInteractive(), &Session{}
	k := askKey{s, 1}
	ia.expect(k)
	if !ia.reply(k, Reply{Text: "early"}) {
		t.Fatal("the request was not waiting")
	}
	if ia.reply(k, Reply{Text: "again"}) {
		t.Error("a second reply was taken")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if r, err := ia.Answer(ctx, &Asked{Seq: 1, owner: s}); err != nil || r.Text != "early" {
		t.Errorf("Answer = %+v, %v; want the early reply", r, err)
	}
	if ia.reply(k, Reply{}) {
		t.Error("a request already answered took a reply")
	}
}
