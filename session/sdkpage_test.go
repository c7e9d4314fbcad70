package session

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mcpwitness/paging"
	"mcpwitness/record"
)

// The SDK is given an empty page of the same id in place of a list answer
// the walk reads raw, and only for such a request: other answers, errors
// and list answers nobody reads raw pass as they came.
func TestListAnswerReachesSDKEmpty(t *testing.T) {
	t.Parallel()
	tp := newTap(record.NewLog(nil))
	w := &watcher{list: "tools/list", items: "tools"}
	tp.frame(record.Send, []byte(`{"jsonrpc":"2.0","id":"a-1","method":"tools/list"}`))
	tp.watch(`"a-1"`, w)
	raw := []byte(`{"jsonrpc":"2.0","id":"a-1","result":{"tools":[{"name":"x","inputSchema":{}}],"nextCursor":"c"}}`)
	fwd, ok := tp.receive(raw)
	if want := `{"jsonrpc":"2.0","id":"a-1","result":{"tools":[]}}`; !ok || string(fwd) != want {
		t.Errorf("passed on %s (%v), want %s", fwd, ok, want)
	}
	if _, result, _, got := w.answer(); !got || !strings.Contains(string(result), `"nextCursor":"c"`) {
		t.Errorf("the watcher got %s (%v), want the raw result", result, got)
	}

	for _, c := range []struct{ list, items, answer string }{
		{"tools/list", "tools", `{"jsonrpc":"2.0","id":2,"error":{"code":-32000,"message":"no"}}`},
		{"", "", `{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"x"}]}}`},
		{"tools/list", "tools", `{"jsonrpc":"1.0","id":2,"result":{"tools":[{"name":"x"}]}}`},
		{"prompts/list", "prompts", `{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"x"}]}}`},
	} {
		tp.frame(record.Send, []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`))
		tp.watch("2", &watcher{list: c.list, items: c.items})
		if fwd, ok := tp.receive([]byte(c.answer)); !ok || string(fwd) != c.answer {
			t.Errorf("watcher for %q: %s passed on as %s (%v)", c.list, c.answer, fwd, ok)
		}
	}
}

// A page the SDK's own decoding would refuse (a tool whose name is a
// number) is still a finding, though the SDK was given an empty page; its
// items are read from the raw answer all the same.
func TestSDKWouldRejectPage(t *testing.T) {
	t.Parallel()
	s := dial(t, listServer(t, `{"tools":[{"name":"plain","inputSchema":{"type":"object"}},{"name":7,"inputSchema":{}}]}`),
		&Options{Protocol: "2025-11-25"})
	_, res := s.Walk(context.Background(), paging.Tools())
	if res.Incomplete != paging.Complete {
		t.Fatalf("walk: %s %v", res.Incomplete, res.Err)
	}
	if got := len(res.Items()); got != 2 {
		t.Errorf("walk read %d items, want 2", got)
	}
	var rejections []string
	for _, ev := range s.Log().Events() {
		if ev.Kind == record.KindError && strings.HasPrefix(ev.Text, "the SDK rejected this page") {
			rejections = append(rejections, ev.Text)
		}
	}
	if len(rejections) != 1 || !strings.Contains(rejections[0], "name of type string") {
		t.Errorf("rejections logged: %q, want one saying the name is not a string", rejections)
	}

	// A page the SDK takes is no finding: the SDK matches field names
	// case-sensitively, so "Name" is no name of the wrong type.
	s = dial(t, listServer(t, `{"tools":[{"name":"plain","Name":7,"inputSchema":{"type":"object"}}]}`), &Options{Protocol: "2025-11-25"})
	if _, res := s.Walk(context.Background(), paging.Tools()); !slices.Equal(toolNames(res.Items()), []string{"plain"}) {
		t.Errorf("walk read %q", toolNames(res.Items()))
	}
	for _, ev := range s.Log().Events() {
		if ev.Kind == record.KindError {
			t.Errorf("error logged for a good page: %q", ev.Text)
		}
	}
}

// listServer answers initialize, and tools/list with result, by hand over
// pipes.
func listServer(t *testing.T, result string) Target {
	t.Helper()
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	t.Cleanup(func() { fromServer.Close(); fromClient.Close() })
	go func() {
		defer fromServer.Close()
		sc := bufio.NewScanner(toServer)
		for sc.Scan() {
			var req struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			if json.Unmarshal(sc.Bytes(), &req) != nil || len(req.ID) == 0 || req.Method == "" {
				continue
			}
			out := `{}`
			switch req.Method {
			case "initialize":
				out = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"raw","version":"1"}}`
			case "tools/list":
				out = result
			}
			fmt.Fprintf(fromServer, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", req.ID, out)
		}
	}()
	return Target{Transport: &mcp.IOTransport{Reader: toClient, Writer: fromClient}, Name: "raw"}
}
