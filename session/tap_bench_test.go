package session

import (
	"context"
	"strconv"
	"testing"
	"time"

	"mcpwitness/internal/hostiletest"
	"mcpwitness/record"
)

// BenchmarkTapRoute is the tap's work for the frames most sessions are
// made of: a request going out, its answer, and a notification, each
// checked, recorded and routed. Compare it across a change with
// `go test -run '^$' -bench TapRoute -count 10 ./session/` and benchstat.
func BenchmarkTapRoute(b *testing.B) {
	tp := newTap(record.NewLog(nil))
	note := []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"demo","data":"scene 2 of 4"}}`)
	b.ReportAllocs()
	for i := range b.N {
		id := strconv.Itoa(i)
		if !tp.frame(record.Send, []byte(`{"jsonrpc":"2.0","id":`+id+`,"method":"tools/call","params":{"name":"echo","arguments":{}}}`)) {
			b.Fatal("the request was not passed on")
		}
		if _, ok := tp.receive([]byte(`{"jsonrpc":"2.0","id":` + id + `,"result":{"content":[{"type":"text","text":"hi"}]}}`)); !ok {
			b.Fatal("the answer was not passed on")
		}
		if _, ok := tp.receive(note); ok {
			b.Fatal("the log message was passed on to the SDK, which ignores it")
		}
	}
}

// BenchmarkLogFlood is a call whose answer follows 10,000 log messages,
// over stdio from the hostile server: each op reads them all, records each
// as an event, and the answer. `go test -run '^$' -bench LogFlood ./session/`
func BenchmarkLogFlood(b *testing.B) {
	s := dial(b, hostile(b, hostiletest.ModeLogFlood, "-logs", "10000"), &Options{Timeout: time.Minute, Log: record.NewLog(nil)})
	walked(b, s)
	b.ReportAllocs()
	for b.Loop() {
		if r := s.Call(context.Background(), "tool_1_1", nil, nil); r.Err != nil {
			b.Fatal(r.Err)
		}
	}
}
