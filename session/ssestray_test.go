package session

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"mcpwitness/record"
)

// hostileSSEServer serves a go-sdk server (page size 2: add, tool_a,
// tool_b, tool_c) over legacy SSE on 127.0.0.1, rewriting its event stream
// the way a hostile server would.
type hostileSSEServer struct {
	// strays puts, before each answer to tools/list and tools/call, four
	// events whose data are answers that match no request in flight and one
	// whose data is not JSON.
	strays bool
	// deep lists, first on page 1, a tool "deep" whose outputSchema nests
	// 10,000 levels deep.
	deep bool
}

// notJSONEvent is an event of the stream whose data is not JSON.
const notJSONEvent = "event: message\ndata: <html>oops</html>\n\n"

// start serves h and returns its SSE endpoint.
func (h hostileSSEServer) start(t *testing.T) string {
	t.Helper()
	srv := fourTools("hostile-sse")
	handler := mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	// The requests to rewrite the answers of, by id: true for the first
	// page of tools/list.
	var mu sync.Mutex
	watched := map[string]bool{}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			handler.ServeHTTP(&eventRewriter{ResponseWriter: w, rewrite: func(data []byte) (before []string, answer []byte) {
				var env envelope
				if json.Unmarshal(data, &env) != nil || env.Method != "" {
					return nil, data
				}
				mu.Lock()
				firstPage, ok := watched[canonicalID(env.ID)]
				mu.Unlock()
				if !ok {
					return nil, data
				}
				if h.deep && firstPage {
					data = bytes.Replace(data, []byte(`"tools":[`), []byte(`"tools":[`+deepTool+`,`), 1)
				}
				if h.strays {
					for _, s := range strayAnswers(string(env.ID)) {
						before = append(before, "event: message\ndata: "+s+"\n\n")
					}
					before = append(before, notJSONEvent)
				}
				return before, data
			}}, r)
			return
		}
		// Answers come on the stream; note which to rewrite before the
		// server can answer.
		req, err := readPost(r)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if req.Method == "tools/list" || req.Method == "tools/call" {
			mu.Lock()
			watched[canonicalID(req.ID)] = req.Method == "tools/list" && req.Params.Cursor == ""
			mu.Unlock()
		}
		handler.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	return ts.URL
}

// eventRewriter is the GET stream's writer: the go-sdk writes each event
// whole in one Write, and rewrite may change its data and put events
// before it.
type eventRewriter struct {
	http.ResponseWriter
	rewrite func(data []byte) (before []string, answer []byte)
}

func (e *eventRewriter) Write(b []byte) (int, error) {
	head, data, ok := bytes.Cut(b, []byte("data: "))
	if !ok || !bytes.HasPrefix(head, []byte("event: message\n")) {
		return e.ResponseWriter.Write(b)
	}
	before, answer := e.rewrite(bytes.TrimSpace(data))
	var out bytes.Buffer
	for _, s := range before {
		out.WriteString(s)
	}
	out.Write(head)
	out.WriteString("data: ")
	out.Write(answer)
	out.WriteString("\n\n")
	if _, err := e.ResponseWriter.Write(out.Bytes()); err != nil {
		return 0, err
	}
	return len(b), nil
}

// Unwrap lets the go-sdk flush the stream.
func (e *eventRewriter) Unwrap() http.ResponseWriter { return e.ResponseWriter }

// Over legacy SSE too, answers that match no request in flight and events
// that are not JSON are recorded, said to be ignored and kept from the SDK;
// the walk and the call take the right answer, and every frame is recorded
// once.
func TestLegacySSEStrayAnswersAreIgnored(t *testing.T) {
	t.Parallel()
	url := hostileSSEServer{strays: true}.start(t)
	s := dial(t, Target{URL: url, SSE: true}, &Options{Timeout: 30 * time.Second})
	res := walkAndCallPastStrays(t, s)
	notJSON := 0
	for _, ev := range s.Log().Events() {
		if ev.Kind == record.KindError && strings.Contains(ev.Text, "with data that is not JSON; it was not passed to the SDK") {
			notJSON++
		}
	}
	if notJSON != 3 {
		t.Errorf("%d events with data that is not JSON reported, want 3", notJSON)
	}
	for _, c := range []struct {
		dir, method string
		want        int
	}{
		{record.Send, "tools/list", len(res.Pages)},
		{record.Recv, "tools/list", len(res.Pages)},
		{record.Send, "tools/call", 1},
		{record.Recv, "tools/call", 1},
	} {
		if n := len(wireFrames(s.Log(), c.dir, c.method)); n != c.want {
			t.Errorf("%d %s frames %s recorded, want %d", n, c.method, c.dir, c.want)
		}
	}
}

// Over legacy SSE too, a page holding a tool nested past what encoding/json
// accepts is passed on cut: the walk keeps every tool of it and the
// connection stays usable.
func TestLegacySSEDeepSchemaIsCut(t *testing.T) {
	t.Parallel()
	url := hostileSSEServer{deep: true}.start(t)
	walkKeepsTheDeepTool(t, dial(t, Target{URL: url, SSE: true}, &Options{Timeout: 30 * time.Second}))
}

// Legacy SSE's stream is re-emitted too, with its own rules: the endpoint
// event passes untouched and unrecorded, and an event with nothing to pass
// on is dropped whole, since the SDK takes every other event for a message.
func TestSSETapLegacyStream(t *testing.T) {
	t.Parallel()
	log := record.NewLog(&record.LogOptions{History: true})
	tp := newTap(log)
	tp.frame(record.Send, []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	in := "event: endpoint\ndata: /message?sessionId=abc\n\n" +
		": keep-alive\n\n" +
		"event: message\nid: 7\ndata: {\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":1,\"message\":\"x\"}}\n\n" +
		"event: message\n\n" +
		"event: endpoint\ndata: /elsewhere\n\n" +
		"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n"
	s := &sseTap{rc: io.NopCloser(strings.NewReader(in)), tap: tp, limit: newFrameLimit(1<<20, log), legacy: true}
	got, err := io.ReadAll(s)
	if err != nil {
		t.Fatal(err)
	}
	want := "event: endpoint\ndata: /message?sessionId=abc\n\n" +
		"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n"
	if string(got) != want {
		t.Errorf("re-emitted\n%q\nwant\n%q", got, want)
	}
	if got := strayEvents(log); len(got) != 1 {
		t.Errorf("stray answers reported: %q", got)
	}
	if !hasEvent(log, record.KindError, "with data that is not JSON") {
		t.Error("the second endpoint event was not reported")
	}
	for _, ev := range log.Events() {
		if ev.Kind == record.KindWire && strings.Contains(ev.Text+string(ev.Frame), "sessionId=abc") {
			t.Errorf("the endpoint event was recorded as a frame: %+v", ev)
		}
	}
	if n := len(wireFrames(log, record.Recv, "ping")); n != 1 {
		t.Errorf("%d ping answers recorded, want 1", n)
	}
}
