//lint:file-ignore SA1019 these tests play a server that asks for roots and sampling, deprecated but still sent by servers on older protocols

package session

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mcpwitness/checks"
	"mcpwitness/internal/hostiletest"
	"mcpwitness/paging"
	"mcpwitness/record"
)

// sdkServer dials a bare go-sdk server in-process and returns the session
// and the server's side of it.
func sdkServer(t *testing.T, opts *Options) (*Session, *mcp.ServerSession) {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	srv := mcp.NewServer(&mcp.Implementation{Name: "bare", Version: "1"}, nil)
	ss, err := srv.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	if opts == nil {
		opts = &Options{}
	}
	// Servers may send their own requests outside a request's handling only
	// before protocol 2026-07-28.
	opts.Protocol = "2025-11-25"
	return dial(t, Target{Transport: ct, Name: "bare"}, opts), ss
}

// serverCalls returns the texts of the log's server-request events for method.
func serverCalls(l *record.Log, method string) []string {
	var out []string
	for _, ev := range l.Events() {
		if ev.Kind == record.KindServerCall && ev.Method == method {
			out = append(out, ev.Text)
		}
	}
	return out
}

func TestClientDeclaresOnlyWhatItAnswers(t *testing.T) {
	t.Parallel()
	s, ss := sdkServer(t, nil)
	caps := ss.InitializeParams().Capabilities
	if caps.RootsV2 != nil || caps.Sampling != nil || caps.Elicitation != nil {
		b, _ := json.Marshal(caps)
		t.Fatalf("with no roots the client declared %s; want no roots, sampling or elicitation", b)
	}
	// The handshake on the wire says the same.
	for _, ev := range wireFrames(s.Log(), record.Send, "initialize") {
		var f struct {
			Params struct {
				Capabilities map[string]json.RawMessage `json:"capabilities"`
			} `json:"params"`
		}
		if err := json.Unmarshal(ev.Frame, &f); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"roots", "sampling", "elicitation"} {
			if _, ok := f.Params.Capabilities[name]; ok {
				t.Errorf("initialize declares %q: %s", name, ev.Frame)
			}
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	res, err := ss.ListRoots(ctx, nil)
	if err != nil || len(res.Roots) != 0 {
		t.Fatalf("roots/list with no roots: %v, %v", res, err)
	}
	// Roots were not declared: the request is a finding.
	if got := serverCalls(s.Log(), "roots/list"); len(got) != 1 || got[0] != "answered with no roots; roots were not declared" {
		t.Errorf("roots/list event: %q, want [answered with no roots; roots were not declared]", got)
	}
}

func TestClientDeclaresRootsWhenGiven(t *testing.T) {
	t.Parallel()
	s, ss := sdkServer(t, &Options{Roots: []string{"/tmp/a", "file:///tmp/b"}})
	caps := ss.InitializeParams().Capabilities
	if caps.RootsV2 == nil || caps.Sampling != nil || caps.Elicitation != nil {
		b, _ := json.Marshal(caps)
		t.Fatalf("with two roots the client declared %s; want roots only", b)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	res, err := ss.ListRoots(ctx, nil)
	if err != nil || len(res.Roots) != 2 || res.Roots[0].URI != "file:///tmp/a" {
		t.Fatalf("roots/list: %+v, %v", res, err)
	}
	if got := serverCalls(s.Log(), "roots/list"); len(got) != 1 || got[0] != "answered with 2 roots" {
		t.Errorf("roots/list event: %q, want [answered with 2 roots]", got)
	}
}

// A server that samples anyway gets the specification's user-rejection
// code, never 0.
func TestSamplingIsRejectedWithTheSpecCode(t *testing.T) {
	t.Parallel()
	s, ss := sdkServer(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := ss.CreateMessage(ctx, &mcp.CreateMessageParams{MaxTokens: 5,
		Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "hi"}}}})
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) {
		t.Fatalf("sampling/createMessage: got %v (%T), want a JSON-RPC error", err, err)
	}
	if werr.Code != -1 {
		t.Errorf("sampling/createMessage answered code %d (%q), want -1 (user rejected)", werr.Code, werr.Message)
	}
	got := serverCalls(s.Log(), "sampling/createMessage")
	if len(got) != 1 || !strings.HasPrefix(got[0], "declined: User rejected sampling request") {
		t.Errorf("sampling event: %q", got)
	}
}

// askHostile calls the server-requests mode's tool "ask", which sends method
// to us and answers our raw answer.
func askHostile(t *testing.T, s *Session, method string) string {
	t.Helper()
	args, _ := json.Marshal(map[string]string{"method": method})
	r := s.Call(context.Background(), "ask", args, nil)
	if r.Err != nil || len(r.Result) == 0 {
		t.Fatalf("ask %s: %v %s", method, r.Err, r.RPCError)
	}
	var res struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	if err := json.Unmarshal(r.Result, &res); err != nil || len(res.Content) != 1 {
		t.Fatalf("ask %s: result %s", method, r.Result)
	}
	return res.Content[0].Text
}

// Over real stdio: what the client declared at initialize, and how it
// answers each request a server may send.
func TestServerRequestsOverStdio(t *testing.T) {
	t.Parallel()
	s := dial(t, hostile(t, hostiletest.ModeServerRequests), nil)
	r := s.Call(context.Background(), "capabilities", nil, nil)
	var res struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	if err := json.Unmarshal(r.Result, &res); err != nil || len(res.Content) != 1 {
		t.Fatalf("capabilities: %s %v", r.Result, r.Err)
	}
	var caps map[string]json.RawMessage
	if err := json.Unmarshal([]byte(res.Content[0].Text), &caps); err != nil {
		t.Fatalf("capabilities: %q: %v", res.Content[0].Text, err)
	}
	for _, name := range []string{"roots", "sampling", "elicitation"} {
		if _, ok := caps[name]; ok {
			t.Errorf("the client declared %q with nothing to answer it: %s", name, res.Content[0].Text)
		}
	}

	var answer struct {
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal([]byte(askHostile(t, s, "sampling/createMessage")), &answer); err != nil || answer.Error == nil {
		t.Fatalf("sampling/createMessage was not answered with an error: %+v %v", answer, err)
	}
	if answer.Error.Code != -1 {
		t.Errorf("sampling/createMessage answered code %d, want -1 (user rejected)", answer.Error.Code)
	}

	answer.Error, answer.Result = nil, nil
	if err := json.Unmarshal([]byte(askHostile(t, s, "roots/list")), &answer); err != nil || answer.Error != nil {
		t.Fatalf("roots/list: %+v %v", answer, err)
	}
	// Roots were not declared: the request is a finding.
	if got := serverCalls(s.Log(), "roots/list"); len(got) != 1 || got[0] != "answered with no roots; roots were not declared" {
		t.Errorf("roots/list event: %q, want [answered with no roots; roots were not declared]", got)
	}

	askHostile(t, s, "elicitation/create")
	got := serverCalls(s.Log(), "elicitation/create")
	if len(got) != 1 || strings.Contains(got[0], "headless") || !strings.Contains(got[0], "did not declare elicitation") {
		t.Errorf("elicitation event: %q", got)
	}
}

// strayEvents returns the texts of the log's events about ignored answers.
func strayEvents(l *record.Log) []string {
	var out []string
	for _, ev := range l.Events() {
		if ev.Kind == record.KindError && strings.HasPrefix(ev.Text, "ignored ") {
			out = append(out, ev.Text)
		}
	}
	return out
}

// Answers that match no request in flight are recorded, said to be ignored
// and kept from the SDK; the walk and the call take the right answer.
func TestStrayAnswersAreIgnoredOverStdio(t *testing.T) {
	t.Parallel()
	s := dial(t, hostile(t, hostiletest.ModeStrayAnswers), nil)
	for range 3 {
		_, res := s.Walk(context.Background(), paging.Tools())
		if res.Incomplete != paging.Complete {
			t.Fatalf("walk: %s %v", res.Incomplete, res.Err)
		}
		want := []string{"tool_1_1", "tool_1_2", "tool_2_1", "tool_2_2", "tool_3_1", "tool_3_2"}
		if got := toolNames(res.Items()); !slices.Equal(got, want) {
			t.Fatalf("walk read %q, want %q", got, want)
		}
	}
	r := s.Call(context.Background(), "tool_1_1", nil, nil)
	if r.Err != nil || !strings.Contains(string(r.Result), `"ok"`) || strings.Contains(string(r.Result), "wrong") {
		t.Fatalf("call: err %v, result %s, rpc error %s", r.Err, r.Result, r.RPCError)
	}

	// 9 list answers and 1 call answer, each after 4 strays.
	got := strayEvents(s.Log())
	if len(got) != 40 {
		t.Errorf("%d stray answers reported, want 40: %q", len(got), got)
	}
	for _, want := range []string{`"id": null`, "id 424242", "no id"} {
		if !slices.ContainsFunc(got, func(s string) bool { return strings.Contains(s, want) }) {
			t.Errorf("no stray answer reported with %s", want)
		}
	}
	if !slices.ContainsFunc(got, func(s string) bool { return strings.Contains(s, ".5:") }) {
		t.Errorf("no stray answer reported with id N.5: %q", got)
	}
	// The strays themselves are still on the record, raw.
	raw := 0
	for _, ev := range s.Log().Events() {
		if ev.Kind == record.KindWire && ev.Dir == record.Recv && (string(ev.Frame) == "{}" || strings.Contains(string(ev.Frame), "424242")) {
			raw++
		}
	}
	if raw != 20 {
		t.Errorf("%d of the 20 {} and id-424242 frames recorded as wire events", raw)
	}
}

// An aborted walk is no rejection by the SDK: the page's answer that
// arrives as the walk is cancelled is not reported as one.
func TestAbortedWalkIsNoSDKRejection(t *testing.T) {
	t.Parallel()
	log := record.NewLog(&record.LogOptions{History: true})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Cancel as the answer to page 1 is seen, before the SDK gets it.
	log.AddSink(func(ev record.Event) {
		if ev.Kind == record.KindWire && ev.Dir == record.Recv && ev.Method == "tools/list" {
			cancel()
		}
	})
	s := dial(t, hostile(t, hostiletest.ModeNormal), &Options{Log: log})
	_, res := s.Walk(ctx, paging.Tools())
	if res.Incomplete != paging.Aborted {
		t.Fatalf("walk: %s %v, want aborted", res.Incomplete, res.Err)
	}
	for _, ev := range log.Events() {
		if ev.Kind == record.KindError && strings.Contains(ev.Text, "rejected") {
			t.Errorf("an abort was logged as a rejection: %q", ev.Text)
		}
	}
}

// rawServer answers initialize and tools/list by hand over pipes, writing
// before each tools/list answer a stray answer with an id never sent, and
// listing a tool whose schema nests 300 levels deep.
func rawServer(t *testing.T) Target {
	t.Helper()
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	t.Cleanup(func() { fromServer.Close(); fromClient.Close() })
	go func() {
		defer fromServer.Close()
		sc := bufio.NewScanner(toServer)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var req struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			if json.Unmarshal(sc.Bytes(), &req) != nil || len(req.ID) == 0 || req.Method == "" {
				continue
			}
			var out string
			switch req.Method {
			case "initialize":
				out = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"raw","version":"1"}}`
			case "tools/list":
				fmt.Fprintln(fromServer, `{"jsonrpc":"2.0","id":424242,"result":{"tools":[]}}`)
				out = `{"tools":[{"name":"plain","inputSchema":{"type":"object"}},{"name":"deep","inputSchema":` +
					strings.Repeat(`{"type":"object","properties":{"a":`, 150) + `{}` + strings.Repeat(`}}`, 150) + `}]}`
			default:
				out = `{}`
			}
			fmt.Fprintf(fromServer, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", req.ID, out)
		}
	}()
	return Target{Transport: &mcp.IOTransport{Reader: toClient, Writer: fromClient}, Name: "raw"}
}

// The in-memory path (a connection wrapper, not the stdio reader) also keeps
// stray answers from the SDK and passes deep frames on cut.
func TestStrayAndDeepInMemory(t *testing.T) {
	t.Parallel()
	s := dial(t, rawServer(t), &Options{Protocol: "2025-11-25"})
	_, res := s.Walk(context.Background(), paging.Tools())
	if res.Incomplete != paging.Complete {
		t.Fatalf("walk: %s %v", res.Incomplete, res.Err)
	}
	if got := toolNames(res.Items()); !slices.Equal(got, []string{"plain", "deep"}) {
		t.Errorf("walk read %q", got)
	}
	if got := strayEvents(s.Log()); len(got) != 1 || !strings.Contains(got[0], "id 424242") {
		t.Errorf("stray answers reported: %q", got)
	}
	def, _, _ := s.Tool("deep")
	if d := checks.Depth(def); d > maxFrameDepth {
		t.Errorf("tool deep kept %d levels, want at most %d", d, maxFrameDepth)
	}
}

// A batch from the server is passed on without its stray answers.
func TestBatchLosesItsStrays(t *testing.T) {
	t.Parallel()
	tp := newTap(record.NewLog(nil))
	tp.frame(record.Send, []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	fwd, ok := tp.receive([]byte(`[{"jsonrpc":"2.0","id":1.5,"result":{}},{"jsonrpc":"2.0","id":1,"result":{}},{}]`))
	if !ok || string(fwd) != `[{"jsonrpc":"2.0","id":1,"result":{}}]` {
		t.Errorf("passed on %s (%v)", fwd, ok)
	}
	if fwd, ok := tp.receive([]byte(`[{"jsonrpc":"2.0","id":9,"result":{}}]`)); ok {
		t.Errorf("a batch of strays passed on: %s", fwd)
	}
}
