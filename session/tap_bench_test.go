package session

import (
	"strconv"
	"testing"
)

// BenchmarkTapRoute is the tap's work for the frames most sessions are
// made of: a request going out, its answer, and a notification, each
// checked, recorded and routed. Compare it across a change with
// `go test -run '^$' -bench TapRoute -count 10 ./session/` and benchstat.
func BenchmarkTapRoute(b *testing.B) {
	tp := newTap(NewLog(nil))
	note := []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"demo","data":"scene 2 of 4"}}`)
	b.ReportAllocs()
	for i := range b.N {
		id := strconv.Itoa(i)
		if !tp.frame(Send, []byte(`{"jsonrpc":"2.0","id":`+id+`,"method":"tools/call","params":{"name":"echo","arguments":{}}}`)) {
			b.Fatal("the request was not passed on")
		}
		if _, ok := tp.receive([]byte(`{"jsonrpc":"2.0","id":` + id + `,"result":{"content":[{"type":"text","text":"hi"}]}}`)); !ok {
			b.Fatal("the answer was not passed on")
		}
		if _, ok := tp.receive(note); !ok {
			b.Fatal("the notification was not passed on")
		}
	}
}
