package fold_test

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"mcpwitness/demo"
	"mcpwitness/fold"
	"mcpwitness/paging"
	"mcpwitness/record"
	"mcpwitness/session"
)

// Over Streamable HTTP each frame of a request and its answer carries the
// exchange of its POST: status, time, session id, content type.
func TestFramesCarryTheirHTTPExchange(t *testing.T) {
	srv := httptest.NewServer(demo.Handler(nil))
	defer srv.Close()
	log := record.NewLog(&record.LogOptions{History: true})
	s, err := session.Dial(context.Background(), session.Target{URL: srv.URL}, &session.Options{Log: log, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, res := s.Walk(context.Background(), paging.Tools()); res.Err != nil {
		t.Fatal(res.Err)
	}
	st := fold.New(nil)
	for _, ev := range log.Events() {
		st.Apply(ev)
	}
	var asked, answered int
	for n := st.Frames().First(); n < st.Frames().Total(); n++ {
		f := st.Frames().Abs(n)
		if f.Method != "tools/list" {
			continue
		}
		h := f.HTTP
		if h == nil {
			t.Errorf("%s frame #%s of tools/list has no HTTP exchange", f.Dir, f.ID)
			continue
		}
		if h.Status != 200 || h.SessionID == "" || h.ContentType == "" || h.Ms <= 0 || h.RequestID != f.ID {
			t.Errorf("%s frame #%s: exchange %+v", f.Dir, f.ID, h)
		}
		if f.Dir == record.Send {
			asked++
		} else {
			answered++
		}
	}
	if asked == 0 || asked != answered {
		t.Errorf("%d tools/list requests and %d answers with an exchange", asked, answered)
	}
}

// A record written before exchanges named their request puts none beside
// a request's frame; frames of other transports have none.
func TestExchangeWithoutRequestID(t *testing.T) {
	st := fold.New(nil)
	st.Apply(record.Event{Kind: record.KindWire, Dir: record.Send, Method: "notifications/initialized", Frame: []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)})
	st.Apply(record.Event{Kind: record.KindHTTP, HTTP: &record.HTTPInfo{Step: record.HTTPExchange, Method: "POST", Status: 202}})
	st.Apply(record.Event{Kind: record.KindWire, Dir: record.Send, Method: "tools/list", ID: "2", Frame: []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)})
	st.Apply(record.Event{Kind: record.KindHTTP, HTTP: &record.HTTPInfo{Step: record.HTTPExchange, Method: "POST", Status: 200}})
	st.Apply(record.Event{Kind: record.KindWire, Dir: record.Recv, Method: "tools/list", ID: "2", Frame: []byte(`{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}`)})
	fr := st.Frames()
	if h := fr.Abs(0).HTTP; h == nil || h.Status != 202 {
		t.Errorf("the notification's exchange: %+v", h)
	}
	if fr.Abs(1).HTTP != nil || fr.Abs(2).HTTP != nil {
		t.Errorf("an exchange without a request id went beside a request: %+v, %+v", fr.Abs(1).HTTP, fr.Abs(2).HTTP)
	}
	if st.Rows().Total() != 2 {
		t.Errorf("%d rows, want the two http rows", st.Rows().Total())
	}
}

// BenchmarkAnswerFrames folds a request, its HTTP exchange (over HTTP) and
// its answer: what each frame costs the fold, with the exchange put beside
// both frames.
func BenchmarkAnswerFrames(b *testing.B) {
	for _, overHTTP := range []bool{false, true} {
		name := "stdio"
		if overHTTP {
			name = "http"
		}
		b.Run(name, func(b *testing.B) {
			req := []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"cursor":"c"}}`)
			ans := []byte(`{"jsonrpc":"2.0","id":7,"result":{"tools":[],"nextCursor":"d"}}`)
			ex := &record.HTTPInfo{Step: record.HTTPExchange, Method: "POST", Status: 200, RequestID: "7", SessionID: "S", ContentType: "application/json"}
			st := fold.New(nil)
			b.ReportAllocs()
			for b.Loop() {
				st.Apply(record.Event{Kind: record.KindWire, Dir: record.Send, Method: "tools/list", ID: "7", Frame: req})
				if overHTTP {
					st.Apply(record.Event{Kind: record.KindHTTP, HTTP: ex})
				}
				st.Apply(record.Event{Kind: record.KindWire, Dir: record.Recv, Method: "tools/list", ID: "7", Frame: ans})
			}
		})
	}
}
