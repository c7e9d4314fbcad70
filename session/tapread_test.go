package session

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"mcpwitness/record"
)

// decodedMessage is a message read by decoding it: what readMessage must
// read in place.
func decodedMessage(view json.RawMessage) message {
	m := message{view: view}
	m.isObject = json.Unmarshal(view, &m.env) == nil
	return m
}

var envelopeSeeds = []string{
	`{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a"}],"nextCursor":"c"}}`,
	`{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"add"}}`,
	`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1}}`,
	`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"m"}}`,
	` { "JSONRPC" : "2.0" , "Id" : 7 , "RESULT" : [ 1 ] } `,
	`{"jsonrpc":"2.0","method":"a","method":"b","m\u0065thod":"c"}`,
	`{"jsonrpc":"2.0","method":"kept","method":null}`,
	`{"jsonrpc":"2.0","id":1,"method":5}`,
	`{"jsonrpc":2,"id":1,"result":{}}`,
	`{"id":1,"result":{},"result":{"second":true}}`,
	"{\"method\":\"bad\xffutf8\"}",
	`[1,2]`, `"text"`, `null`, `7`, `{}`,
}

// readMessage reads what decoding the message into an envelope reads:
// fields matched in any case or escaped, the last duplicate, nulls, values
// of the wrong type (which make it no JSON-RPC message, as decoding says),
// and values that are not objects.
func TestReadMessageReadsAsDecoding(t *testing.T) {
	t.Parallel()
	for _, s := range envelopeSeeds {
		checkEnvelope(t, []byte(s))
	}
}

func FuzzReadMessage(f *testing.F) {
	for _, s := range envelopeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if json.Valid(b) { // the tap reads only valid JSON
			checkEnvelope(t, b)
		}
	})
}

func checkEnvelope(t *testing.T, b []byte) {
	t.Helper()
	got, want := readMessage(b), decodedMessage(b)
	if diff := cmp.Diff(want.env, got.env); diff != "" || got.isObject != want.isObject {
		t.Errorf("%s: read as an object %v, decoding says %v; envelope (-decoded +read):\n%s", b, got.isObject, want.isObject, diff)
	}
}

// A list page is copied once on its way in: the result the walk reads is
// a slice of the frame the record holds, not a copy of it.
func TestTapKeepsAPageOnce(t *testing.T) {
	t.Parallel()
	log := record.NewLog(&record.LogOptions{History: true})
	tp := newTap(log)
	_, w := withListWatcher(t.Context(), "tools/list", "tools")
	tp.watch("1", w)
	tp.frame(record.Send, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`))
	var page strings.Builder
	page.WriteString(`{"jsonrpc":"2.0","id":1,"result":{"tools":[`)
	for i := range 100 {
		if i > 0 {
			page.WriteByte(',')
		}
		fmt.Fprintf(&page, `{"name":"tool_%d","inputSchema":{"type":"object"}}`, i)
	}
	page.WriteString(`]}}`)
	line := []byte(page.String())
	fwd, ok := tp.receive(line)
	if !ok || string(fwd) != `{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}` {
		t.Fatalf("the SDK is given %s (%v), want an empty page", fwd, ok)
	}
	_, result, _, got := w.answer()
	var frame json.RawMessage
	for _, ev := range log.Events() {
		if ev.Kind == record.KindWire && ev.Dir == record.Recv {
			frame = ev.Frame
		}
	}
	if !got || len(frame) != len(line) {
		t.Fatalf("answer %v, recorded frame of %d bytes", got, len(frame))
	}
	start := uintptr(unsafe.Pointer(unsafe.SliceData(frame)))
	p := uintptr(unsafe.Pointer(unsafe.SliceData(result)))
	if p < start || p+uintptr(len(result)) > start+uintptr(len(frame)) {
		t.Error("the page's result is a copy of the frame, not a slice of it")
	}
	line[0] = 'X' // the reader's buffer, reused for the next line
	if frame[0] != '{' {
		t.Error("the recorded frame shares the reader's buffer")
	}
}
