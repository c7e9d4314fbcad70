//lint:file-ignore SA1019 servers on protocols before 2026-07-28 still ask for sampling; --sampling-reply answers them

package session

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"mcpwitness/record"
)

// askSchema is a flat form: two properties with defaults, one without.
const askSchema = `{"type":"object","properties":{
	"name":{"type":"string","default":"Ada"},
	"age":{"type":"integer","default":36,"minimum":0},
	"nickname":{"type":"string"}},"required":["name"]}`

// askingServer serves, over Streamable HTTP on 127.0.0.1 port 0, a go-sdk
// server whose tools ask the client during the call: "ask" elicits
// askSchema, "nested" elicits a schema with an object property, "ask_url"
// a URL, "sample"
// asks for a message with maxTokens and "sample_unbounded" without. Each
// answers with what the client said, as JSON text, or the error.
func askingServer(t *testing.T) string {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "asking", Version: "1"}, nil)
	answer := func(v any, err error) (*mcp.CallToolResult, error) {
		if err != nil {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}, nil
		}
		b, _ := json.Marshal(v)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, nil
	}
	elicit := func(schema string) mcp.ToolHandler {
		return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return answer(req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "who?", RequestedSchema: json.RawMessage(schema)}))
		}
	}
	sample := func(maxTokens int64) mcp.ToolHandler {
		return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return answer(req.Session.CreateMessage(ctx, &mcp.CreateMessageParams{MaxTokens: maxTokens,
				Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "hi"}}}}))
		}
	}
	obj := map[string]any{"type": "object"}
	srv.AddTool(&mcp.Tool{Name: "ask", InputSchema: obj}, elicit(askSchema))
	srv.AddTool(&mcp.Tool{Name: "nested", InputSchema: obj}, elicit(`{"type":"object","properties":{"where":{"type":"object","properties":{"city":{"type":"string"}}}}}`))
	srv.AddTool(&mcp.Tool{Name: "sample", InputSchema: obj}, sample(100))
	srv.AddTool(&mcp.Tool{Name: "ask_url", InputSchema: obj}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return answer(req.Session.Elicit(ctx, &mcp.ElicitParams{Mode: "url", Message: "Sign in.", URL: "https://example.com/sign-in", ElicitationID: "e1"}))
	})
	srv.AddTool(&mcp.Tool{Name: "sample_unbounded", InputSchema: obj}, sample(0))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	return "http://" + ln.Addr().String() + "/mcp"
}

// askingSession dials askingServer on a protocol where servers still send
// their own requests during a call.
func askingSession(t *testing.T, opts *Options) *Session {
	t.Helper()
	if opts == nil {
		opts = &Options{}
	}
	opts.Protocol = "2025-11-25"
	return dial(t, Target{URL: askingServer(t)}, opts)
}

// callText calls tool and returns its first text content and whether it
// was an error.
func callText(t *testing.T, s *Session, tool string) (string, bool) {
	t.Helper()
	r := s.Call(context.Background(), tool, nil, nil)
	if r.Err != nil {
		t.Fatalf("%s: %v", tool, r.Err)
	}
	var res struct {
		IsError bool `json:"isError"`
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	if err := json.Unmarshal(r.Result, &res); err != nil || len(res.Content) == 0 {
		t.Fatalf("%s answered %s (%v)", tool, r.Result, err)
	}
	return res.Content[0].Text, res.IsError
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestElicitAnswersEachWay(t *testing.T) {
	t.Parallel()
	good := writeFile(t, "good.json", `{"name":"Grace","age":85}`)
	bad := writeFile(t, "bad.json", `{"name":"Grace","age":-1}`)
	for _, tc := range []struct {
		flag, want, event string
	}{
		{"decline", `{"action":"decline"}`, "decline"},
		{"cancel", `{"action":"cancel"}`, "cancel"},
		{"accept-defaults", `{"action":"accept","content":{"age":36,"name":"Ada"}}`, "accept with the defaults of age, name"},
		{"@" + good, `{"action":"accept","content":{"age":85,"name":"Grace"}}`, "accept with " + good + ": age, name"},
		{"@" + bad, `{"action":"decline"}`, "decline: " + bad + " does not match the requested schema: /age:"},
	} {
		t.Run(strings.TrimPrefix(filepath.Base(tc.flag), "@"), func(t *testing.T) {
			a, err := ParseElicit(tc.flag)
			if err != nil {
				t.Fatal(err)
			}
			s := askingSession(t, &Options{Elicit: a})
			got, isErr := callText(t, s, "ask")
			if isErr || got != tc.want {
				t.Errorf("the server got %s (error %v), want %s", got, isErr, tc.want)
			}
			texts := serverCalls(s.Log(), "elicitation/create")
			if len(texts) != 2 || texts[0] != "asked" || !strings.HasPrefix(texts[1], tc.event) {
				t.Errorf("events %q, want asked then %q…", texts, tc.event)
			}
		})
	}
}

func TestElicitNestedSchemaIsAFinding(t *testing.T) {
	t.Parallel()
	a, _ := ParseElicit("decline")
	s := askingSession(t, &Options{Elicit: a})
	if got, _ := callText(t, s, "nested"); got != `{"action":"decline"}` {
		t.Errorf("the server got %s", got)
	}
	var findings []string
	for _, ev := range s.Log().Events() {
		if ev.Kind == record.KindServerCall && ev.Level == LevelFinding {
			findings = append(findings, ev.Text)
		}
	}
	want := `finding: requestedSchema is not a flat object of primitive properties: property "where" has type "object", not a primitive`
	if len(findings) != 1 || findings[0] != want {
		t.Errorf("findings %q, want %q", findings, want)
	}
	// A flat schema has none.
	callText(t, s, "ask")
	if n := len(serverCalls(s.Log(), "elicitation/create")); n != 5 {
		t.Errorf("%d elicitation events after a flat request, want 5 (asked, finding, answer, asked, answer)", n)
	}
}

func TestSamplingReplyAnswers(t *testing.T) {
	t.Parallel()
	file := writeFile(t, "reply.json", `{"role":"assistant","model":"m1","stopReason":"maxTokens","content":{"type":"text","text":"from file"}}`)
	for _, tc := range []struct{ flag, want string }{
		{"hello there", `"text":"hello there"`},
		{"@" + file, `"model":"m1"`},
	} {
		r, err := ParseSamplingReply(tc.flag)
		if err != nil {
			t.Fatal(err)
		}
		s := askingSession(t, &Options{Sampling: r})
		got, isErr := callText(t, s, "sample")
		if isErr || !strings.Contains(got, tc.want) || !strings.Contains(got, `"role":"assistant"`) {
			t.Errorf("%s: the server got %s (error %v)", tc.flag, got, isErr)
		}
		texts := serverCalls(s.Log(), "sampling/createMessage")
		if len(texts) != 2 || texts[0] != "asked" || !strings.HasPrefix(texts[1], "answered with") {
			t.Errorf("%s: events %q", tc.flag, texts)
		}
		// No maxTokens is a finding; the answer is still given.
		if got, isErr := callText(t, s, "sample_unbounded"); isErr || !strings.Contains(got, tc.want) {
			t.Errorf("%s unbounded: the server got %s", tc.flag, got)
		}
		texts = serverCalls(s.Log(), "sampling/createMessage")
		if len(texts) != 5 || !strings.Contains(texts[3], "finding: sampling/createMessage has no maxTokens") {
			t.Errorf("%s: events %q", tc.flag, texts)
		}
	}
}

func TestAnswersDeclareTheirCapabilities(t *testing.T) {
	t.Parallel()
	a, _ := ParseElicit("cancel")
	r, _ := ParseSamplingReply("x")
	for _, tc := range []struct {
		opts             *Options
		elicit, sampling bool
	}{
		{&Options{}, false, false},
		{&Options{Elicit: a}, true, false},
		{&Options{Sampling: r}, false, true},
	} {
		s := askingSession(t, tc.opts)
		frames := wireFrames(s.Log(), record.Send, "initialize")
		if len(frames) != 1 {
			t.Fatalf("%d initialize frames", len(frames))
		}
		var f struct {
			Params struct {
				Capabilities map[string]json.RawMessage `json:"capabilities"`
			} `json:"params"`
		}
		_ = json.Unmarshal(frames[0].Frame, &f)
		_, e := f.Params.Capabilities["elicitation"]
		_, smp := f.Params.Capabilities["sampling"]
		if e != tc.elicit || smp != tc.sampling {
			t.Errorf("elicit=%v sampling=%v declared %s", tc.opts.Elicit != nil, tc.opts.Sampling != nil, frames[0].Frame)
		}
		if e && !strings.Contains(string(f.Params.Capabilities["elicitation"]), `"form"`) {
			t.Errorf("elicitation declared without form mode: %s", f.Params.Capabilities["elicitation"])
		}
	}
}

func TestBadAnswerFilesNameTheCause(t *testing.T) {
	t.Parallel()
	notObject := writeFile(t, "list.json", `[1]`)
	noModel := writeFile(t, "nomodel.json", `{"role":"assistant","content":{"type":"text","text":"x"}}`)
	for _, tc := range []struct {
		err  error
		want string
	}{
		{second(ParseElicit("maybe")), `--elicit wants decline, cancel, accept-defaults or @FILE, not "maybe"`},
		{second(ParseElicit("@/nonexistent/answer.json")), "--elicit @/nonexistent/answer.json: open /nonexistent/answer.json: no such file or directory"},
		{second(ParseElicit("@" + notObject)), "--elicit @" + notObject + " is not a JSON object"},
		{second(ParseSamplingReply("@/nonexistent/r.json")), "--sampling-reply @/nonexistent/r.json: open"},
		{second(ParseSamplingReply("@" + noModel)), "--sampling-reply @" + noModel + " is not a CreateMessageResult: it has no model"},
		{second(ParseSamplingReply("@" + notObject)), "--sampling-reply @" + notObject + " is not a CreateMessageResult"},
	} {
		if tc.err == nil || !strings.HasPrefix(tc.err.Error(), tc.want) {
			t.Errorf("got %v, want %q…", tc.err, tc.want)
		}
	}
}

func second[T any](_ T, err error) error { return err }

// FieldList names an answer's fields sorted, whatever order the map
// gives, and says so when there are none.
func TestFieldList(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		content map[string]any
		want    string
	}{
		{nil, "no fields"},
		{map[string]any{"zeta": 1, "alpha": "a", "mid": true}, "alpha, mid, zeta"},
	} {
		if got := FieldList(c.content); got != c.want {
			t.Errorf("FieldList(%v) = %q, want %q", c.content, got, c.want)
		}
	}
}
