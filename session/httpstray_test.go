package session

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mcpwitness/checks"
	"mcpwitness/paging"
	"mcpwitness/record"
)

// hostileHTTPServer serves a go-sdk server over Streamable HTTP on
// 127.0.0.1, behind a middleware that rewrites its answers to tools/list
// and tools/call the way a hostile server would.
type hostileHTTPServer struct {
	// json answers application/json bodies instead of event streams.
	json bool
	// strays puts four answers that match no request in flight before each
	// tools/list and tools/call answer: in an event stream as events of
	// their own, in a JSON body as a batch ending with the real answer.
	strays bool
	// deep lists, first on page 1, a tool "deep" whose outputSchema nests
	// 10,000 levels deep.
	deep bool
	// firstCall, if set, answers the first tools/call alone (as an event's
	// data in an event stream).
	firstCall string
}

// start serves h and returns its URL.
func (h hostileHTTPServer) start(t *testing.T) string {
	t.Helper()
	srv := fourTools("hostile-http")
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{JSONResponse: h.json})
	var calls atomic.Int64
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			handler.ServeHTTP(w, r)
			return
		}
		req, err := readPost(r)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if req.Method != "tools/list" && req.Method != "tools/call" {
			handler.ServeHTTP(w, r)
			return
		}
		// The go-sdk ends a POST's answer once it has answered.
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, r)
		answer := strings.TrimSpace(rec.Body.String())
		if h.deep && req.Method == "tools/list" && req.Params.Cursor == "" {
			answer = strings.Replace(answer, `"tools":[`, `"tools":[`+deepTool+`,`, 1)
		}
		var before []string
		if h.strays {
			before = strayAnswers(string(req.ID))
		}
		if h.firstCall != "" && req.Method == "tools/call" && calls.Add(1) == 1 {
			before, answer = nil, h.firstCall
			if !h.json {
				answer = "data: " + answer + "\n\n"
			}
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.Header().Del("Content-Length")
		w.WriteHeader(rec.Code)
		if h.json {
			if len(before) > 0 {
				answer = "[" + strings.Join(before, ",") + "," + answer + "]"
			}
			io.WriteString(w, answer)
			return
		}
		for _, s := range before {
			io.WriteString(w, "event: message\ndata: "+s+"\n\n")
		}
		io.WriteString(w, answer+"\n\n")
	}))
	t.Cleanup(ts.Close)
	return ts.URL
}

// deepTool is a tool whose outputSchema nests 10,000 levels deep: past what
// encoding/json accepts once it sits in a tools/list answer.
var deepTool = `{"name":"deep","inputSchema":{"type":"object"},"outputSchema":` +
	strings.Repeat(`{"type":"object","properties":{"a":`, 5000) + `{}` + strings.Repeat(`}}`, 5000) + `}`

// strayAnswers are four answers that match no request in flight, written
// just before the answer to request id: an error with id null, the id plus
// 0.5, an id never sent, and {}.
func strayAnswers(id string) []string {
	return []string{
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"stray: no id"}}`,
		`{"jsonrpc":"2.0","id":` + id + `.5,"result":{"wrong":true}}`,
		`{"jsonrpc":"2.0","id":424242,"result":{"tools":[],"wrong":true}}`,
		`{}`,
	}
}

// forEachBody runs f against a server answering event streams and one
// answering application/json bodies.
func forEachBody(t *testing.T, h hostileHTTPServer, f func(t *testing.T, url string)) {
	for _, asJSON := range []bool{false, true} {
		name := "event-stream"
		if asJSON {
			name = "json"
		}
		t.Run(name, func(t *testing.T) {
			h.json = asJSON
			f(t, h.start(t))
		})
	}
}

// Over Streamable HTTP too, answers that match no request in flight are
// recorded, said to be ignored and kept from the SDK; the walk and the call
// take the right answer.
func TestHTTPStrayAnswersAreIgnored(t *testing.T) {
	t.Parallel()
	forEachBody(t, hostileHTTPServer{strays: true}, func(t *testing.T, url string) {
		s := dial(t, Target{URL: url}, &Options{Timeout: 30 * time.Second})
		walkAndCallPastStrays(t, s)
	})
}

// walkAndCallPastStrays walks and calls on a server that sends four stray
// answers before each real one: the walk and the call get the right
// answers, and each stray is reported. It returns the walk.
func walkAndCallPastStrays(t *testing.T, s *Session) *paging.Result {
	t.Helper()
	_, res := s.Walk(context.Background(), paging.Tools())
	if res.Incomplete != paging.Complete || res.Err != nil {
		t.Fatalf("walk: %q %v", res.Incomplete, res.Err)
	}
	want := []string{"add", "tool_a", "tool_b", "tool_c"}
	if got := toolNames(res.Items()); !slices.Equal(got, want) {
		t.Fatalf("walk read %q, want %q", got, want)
	}
	r := s.Call(context.Background(), "add", json.RawMessage(`{"a":2,"b":3}`), nil)
	if r.Err != nil || !strings.Contains(string(r.Result), `"sum":5`) || strings.Contains(string(r.Result), "wrong") {
		t.Fatalf("call: err %v, result %s, rpc error %s", r.Err, r.Result, r.RPCError)
	}
	// 2 list answers and 1 call answer, each after 4 strays.
	got := strayEvents(s.Log())
	if len(got) != 12 {
		t.Errorf("%d stray answers reported, want 12: %q", len(got), got)
	}
	for _, want := range []string{`"id": null`, "id 424242", "no id", ".5:"} {
		if !slices.ContainsFunc(got, func(s string) bool { return strings.Contains(s, want) }) {
			t.Errorf("no stray answer reported with %s: %q", want, got)
		}
	}
	return res
}

// A POST answered by a stray answer alone, or by something that is not
// JSON, ends that request at once, says why, and leaves the connection
// usable: the next call gets its answer.
func TestHTTPStrayAloneEndsOnlyItsRequest(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, body, why string }{
		{"stray", strayAnswers("null")[0], `ignored an answer with "id": null`},
		{"not-json", "<html>oops</html>", "that is not JSON; it was not passed to the SDK"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			forEachBody(t, hostileHTTPServer{firstCall: tc.body}, func(t *testing.T, url string) {
				s := dial(t, Target{URL: url}, &Options{Timeout: 30 * time.Second})
				r := s.Call(context.Background(), "add", json.RawMessage(`{"a":1,"b":1}`), nil)
				if r.Err == nil || errors.Is(r.Err, context.DeadlineExceeded) {
					t.Fatalf("the call answered by %s alone: err %v, result %s", tc.name, r.Err, r.Result)
				}
				if !hasEvent(s.Log(), record.KindError, tc.why) {
					t.Errorf("no error event says %q", tc.why)
				}
				r = s.Call(context.Background(), "add", json.RawMessage(`{"a":2,"b":3}`), nil)
				if r.Err != nil || !strings.Contains(string(r.Result), `"sum":5`) {
					t.Fatalf("the next call: err %v, result %s", r.Err, r.Result)
				}
			})
		})
	}
}

// Over Streamable HTTP too, a page holding a tool nested past what
// encoding/json accepts is passed on cut: the walk keeps every tool of it
// and the connection stays usable.
func TestHTTPDeepSchemaIsCut(t *testing.T) {
	t.Parallel()
	forEachBody(t, hostileHTTPServer{deep: true}, func(t *testing.T, url string) {
		walkKeepsTheDeepTool(t, dial(t, Target{URL: url}, &Options{Timeout: 30 * time.Second}))
	})
}

// walkKeepsTheDeepTool walks a server listing "deep" (a 10,000-deep output
// schema) beside ordinary tools: every tool is kept, "deep" cut, the cut
// reported, and the connection still answers a call.
func walkKeepsTheDeepTool(t *testing.T, s *Session) {
	t.Helper()
	_, res := s.Walk(context.Background(), paging.Tools())
	if res.Incomplete != paging.Complete || res.Err != nil {
		t.Fatalf("walk: %q %v", res.Incomplete, res.Err)
	}
	want := []string{"deep", "add", "tool_a", "tool_b", "tool_c"}
	if got := toolNames(res.Items()); !slices.Equal(got, want) {
		t.Fatalf("walk read %q, want %q", got, want)
	}
	def, _, ok := s.Tool("deep")
	if !ok || checks.Depth(def) > maxFrameDepth {
		t.Fatalf("tool deep: listed %v, nested %d deep", ok, checks.Depth(def))
	}
	if !hasEvent(s.Log(), record.KindError, "levels cut before the SDK") {
		t.Error("no event says the frame was cut")
	}
	r := s.Call(context.Background(), "add", json.RawMessage(`{"a":2,"b":3}`), nil)
	if r.Err != nil || !strings.Contains(string(r.Result), `"sum":5`) {
		t.Fatalf("call: err %v, result %s", r.Err, r.Result)
	}
}

// An event stream is re-emitted event by event: a stray answer's data is
// dropped (its id kept, or the whole event when it has none), a frame
// nested too deep is cut, a log message (which the SDK ignores) is recorded
// only, and everything else is passed on as it came.
func TestSSETapReemitsEvents(t *testing.T) {
	t.Parallel()
	log := record.NewLog(&record.LogOptions{History: true})
	tp := newTap(log)
	tp.frame(record.Send, []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	tp.frame(record.Send, []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`))
	deep := `{"jsonrpc":"2.0","id":2,"result":{"tools":[` + strings.Repeat(`[`, 300) + strings.Repeat(`]`, 300) + `]}}`
	in := ": keep-alive\n\n" +
		"id: 7\r\ndata: {\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":1,\"message\":\"x\"}}\r\n\r\n" +
		"event: message\ndata: {}\n\n" +
		"event: message\nid: 8\ndata: {\"jsonrpc\":\"2.0\",\ndata:  \"id\":1,\"result\":{}}\n\n" +
		"id: 9\nretry: 5\ndata: " + deep + "\n\n" +
		"data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/updated\",\"params\":{\"uri\":\"file:///a\"}}\n\n" +
		`data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"tail"}}`
	s := &sseTap{rc: io.NopCloser(strings.NewReader(in)), tap: tp, limit: newFrameLimit(1<<20, log)}
	got, err := io.ReadAll(s)
	if err != nil {
		t.Fatal(err)
	}
	cut, _, ok := checks.Cut([]byte(deep), maxFrameDepth)
	if !ok {
		t.Fatal("the deep frame cannot be cut")
	}
	want := ": keep-alive\n\n" +
		"id: 7\r\n\r\n" +
		"event: message\nid: 8\ndata: {\"jsonrpc\":\"2.0\",\ndata:  \"id\":1,\"result\":{}}\n\n" +
		"id: 9\nretry: 5\ndata: " + string(cut) + "\n\n" +
		"data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/updated\",\"params\":{\"uri\":\"file:///a\"}}\n\n"
	if string(got) != want {
		t.Errorf("re-emitted\n%q\nwant\n%q", got, want)
	}
	if got := strayEvents(log); len(got) != 2 {
		t.Errorf("stray answers reported: %q", got)
	}
	if !hasEvent(log, record.KindNotification, "tail") {
		t.Error("the event the stream ends inside was not recorded")
	}
}
