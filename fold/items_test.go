package fold_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"mcpwitness/checks"
	"mcpwitness/demo"
	"mcpwitness/finding"
	"mcpwitness/fold"
	"mcpwitness/paging"
	"mcpwitness/record"
	"mcpwitness/session"
)

// describeOthers is what a state holds of the lists other than tools and
// the requests, in words.
func describeOthers(s *fold.State) []string {
	var out []string
	for _, w := range s.Walks() {
		for _, it := range s.Items(w) {
			out = append(out, fmt.Sprintf("walk %d %s item %q page %d gen %d args %+v bad %q", w.ID, it.Method, it.Key, it.Page, it.Gen, it.Arguments, it.Bad))
		}
	}
	for _, r := range s.Requests() {
		out = append(out, fmt.Sprintf("request %d %s %q done %v sent %v result %s rpc %s err %q verdicts %+v",
			r.ID, r.Method, r.About, r.Done, r.Sent, r.Result, r.RPCError, r.Err, r.Verdicts))
	}
	return out
}

func TestListsAndRequestsFoldLiveAsRecorded(t *testing.T) {
	ctx := context.Background()
	live, path := foldLiveAndRecord(t, func(s *session.Session) {
		for _, m := range []paging.Method{paging.Resources(), paging.ResourceTemplates(), paging.Prompts()} {
			s.Walk(ctx, m)
		}
		s.ReadResource(ctx, "demo://readme")
		s.ReadResource(ctx, demo.BrokenResourceURI)
		s.GetPrompt(ctx, "summarize", map[string]string{"text": "hello"}, nil)
		s.Complete(ctx, session.CompleteRef{Prompt: "code_review"}, "language", "g", nil)
	})

	res := live.Latest(paging.Resources().Name)
	if items := live.Items(res); len(items) <= 2*demo.DefaultPageSize || items[0].Page != 1 || items[len(items)-1].Page < 3 {
		t.Errorf("resources: %d items", len(items))
	}
	if items := live.Items(live.Latest(paging.Prompts().Name)); len(items) == 0 || items[0].Key != "code_review" || !items[0].Arguments[0].Required {
		t.Errorf("prompts: %+v", items)
	}
	if live.Items(live.Latest(paging.Tools().Name)) != nil {
		t.Error("a tools walk has items besides its tools")
	}
	reqs := live.Requests()
	if len(reqs) != 4 || !reqs[1].Done || len(reqs[1].Verdicts) != 1 || reqs[1].Verdicts[0].Status != finding.Fail {
		t.Fatalf("requests: %v", describeOthers(live))
	}
	replayed := foldFile(t, path)
	if diff := cmp.Diff(describeOthers(live), describeOthers(replayed)); diff != "" {
		t.Errorf("live and recorded folds differ (-live +recorded):\n%s", diff)
	}
	if diff := cmp.Diff(describe(live), describe(replayed)); diff != "" {
		t.Errorf("live and recorded folds differ (-live +recorded):\n%s", diff)
	}
}

func TestCloneKeepsRequestsApart(t *testing.T) {
	s := fold.New(nil)
	start := record.Event{Kind: record.KindRequest, Method: record.MethodPing,
		Request: &record.RequestInfo{ID: 1, Method: record.MethodPing, State: record.PhaseStart}}
	s.Apply(start)
	c := s.Clone()
	s.Apply(record.Event{Kind: record.KindRequest, Method: record.MethodPing,
		Request: &record.RequestInfo{ID: 1, Method: record.MethodPing, State: record.PhaseDone, Sent: true, Ms: 1}})
	s.Apply(record.Event{Kind: record.KindNotification, Method: record.MethodUpdated, Data: []byte(`{"uri":"demo://clock"}`)})
	if !s.Request(1).Done || c.Request(1).Done {
		t.Errorf("done: state %v, clone %v", s.Request(1).Done, c.Request(1).Done)
	}
	if _, ok := c.Updated("demo://clock"); ok {
		t.Error("the clone saw an update applied after it")
	}
	if _, ok := s.Updated("demo://clock"); !ok {
		t.Error("the update was not kept")
	}
}

// TestCloneKeepsItemsApart holds that a clone taken during a walk and the
// state it came from each keep the pages they fold after it, as a replay's
// snapshot and the fold that goes on from it do.
func TestCloneKeepsItemsApart(t *testing.T) {
	m := paging.Resources().Name
	page := func(n int, uris ...string) record.Event {
		items := make([]json.RawMessage, len(uris))
		for i, u := range uris {
			items[i] = json.RawMessage(fmt.Sprintf(`{"uri":%q,"name":%q}`, u, u))
		}
		return record.Event{Kind: record.KindPage, Method: m, Items: items,
			Walk: &record.WalkInfo{ID: 1, Method: m, State: record.PhasePage}, Page: &paging.Page{Number: n, Count: len(items)}}
	}
	s := fold.New(nil)
	s.Apply(record.Event{Kind: record.KindWalk, Method: m, Walk: &record.WalkInfo{ID: 1, Method: m, State: record.PhaseStart}})
	s.Apply(page(1, "demo://1", "demo://2", "demo://3"))
	c := s.Clone()
	s.Apply(page(2, "demo://state"))
	// An event of another kind first makes the clone's own copy of what it
	// shares; the items must stay apart all the same.
	c.Apply(record.Event{Kind: record.KindRequest, Method: record.MethodPing,
		Request: &record.RequestInfo{ID: 1, Method: record.MethodPing, State: record.PhaseStart}})
	c.Apply(page(2, "demo://clone"))
	keys := func(st *fold.State) []string {
		var out []string
		for _, it := range st.Items(st.Latest(m)) {
			out = append(out, it.Key)
		}
		return out
	}
	if diff := cmp.Diff([]string{"demo://1", "demo://2", "demo://3", "demo://state"}, keys(s)); diff != "" {
		t.Errorf("the state's items (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"demo://1", "demo://2", "demo://3", "demo://clone"}, keys(c)); diff != "" {
		t.Errorf("the clone's items (-want +got):\n%s", diff)
	}
}

// TestRequestRowLevel holds that a request's row is an error when any of
// its verdicts failed, whatever came before it (a prompt whose listed
// arguments could not be read, then whose messages break the rules), a
// warning when one is unchecked and none failed.
func TestRequestRowLevel(t *testing.T) {
	for _, tc := range []struct {
		verdicts []finding.Status
		err      string
		want     fold.Level
	}{
		{[]finding.Status{finding.Pass, finding.Pass}, "", fold.LevelInfo},
		{[]finding.Status{finding.Unchecked, finding.Pass}, "", fold.LevelWarn},
		{[]finding.Status{finding.Unchecked, finding.Fail}, "", fold.LevelError},
		{[]finding.Status{finding.Pass, finding.Refused}, "", fold.LevelError},
		{nil, "no answer within 1s", fold.LevelError},
	} {
		s := fold.New(nil)
		info := record.RequestInfo{ID: 1, Method: record.MethodGetPrompt, About: "p"}
		start := info
		start.State = record.PhaseStart
		s.Apply(record.Event{Kind: record.KindRequest, Method: info.Method, Request: &start})
		for _, st := range tc.verdicts {
			v := info
			v.State = record.PhaseVerdict
			s.Apply(record.Event{Kind: record.KindVerdict, Method: info.Method, Request: &v,
				Verdict: &finding.Verdict{Check: checks.PromptMessages, Status: st}})
		}
		done := info
		done.State, done.Sent, done.Error = record.PhaseDone, true, tc.err
		s.Apply(record.Event{Kind: record.KindRequest, Method: info.Method, Request: &done})
		var got fold.Level
		for i := range s.Rows().Len() {
			if r := s.Rows().At(i); r.Kind == fold.RowRequest {
				got = r.Level
			}
		}
		if got != tc.want {
			t.Errorf("verdicts %v, error %q: row level %q, want %q", tc.verdicts, tc.err, got, tc.want)
		}
	}
}
