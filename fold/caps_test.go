package fold_test

import (
	"encoding/json"
	"testing"

	"mcpwitness/fold"
	"mcpwitness/paging"
	"mcpwitness/record"
)

func TestReadCaps(t *testing.T) {
	for raw, want := range map[string]fold.Caps{
		`{"tools":{"listChanged":true},"resources":{"subscribe":true,"listChanged":true},"prompts":{},"completions":{},"logging":{}}`: {
			Tools: true, Resources: true, Prompts: true, Subscribe: true, Completions: true, Logging: true,
			ToolsChanged: true, ResourcesChanged: true},
		`{"tools":{}}`:                    {Tools: true},
		`{"resources":{},"logging":null}`: {Resources: true},
		`not json`:                        {},
	} {
		if got := fold.ReadCaps(json.RawMessage(raw)); got != want {
			t.Errorf("%s: %+v, want %+v", raw, got, want)
		}
	}
	var lists []string
	for _, l := range fold.ReadCaps(json.RawMessage(`{"prompts":{},"resources":{}}`)).Lists() {
		lists = append(lists, l.Name)
	}
	if got := len(lists); got != 4 || lists[0] != "tools/list" || lists[3] != "prompts/list" {
		t.Errorf("lists %v", lists)
	}
}

func TestTemplate(t *testing.T) {
	tm, err := fold.ReadTemplate("demo://cities/{country}/{city}{?units}")
	if err != nil {
		t.Fatal(err)
	}
	if v := tm.Vars(); len(v) != 3 || v[0] != "country" || v[2] != "units" {
		t.Errorf("vars %v", v)
	}
	uri, err := tm.Expand(map[string]string{"country": "portugal", "city": "São Paulo"})
	if err != nil || uri != "demo://cities/portugal/S%C3%A3o%20Paulo" {
		t.Errorf("expand: %q %v", uri, err)
	}
	if !tm.Matches(uri) || tm.Matches("demo://towns/x/y") {
		t.Errorf("matches")
	}
	if v := tm.Values(uri); v["country"] != "portugal" || v["city"] != "São Paulo" {
		t.Errorf("values of %s: %v", uri, v)
	}
	if v := tm.Values("demo://towns/x/y"); v != nil {
		t.Errorf("values of another uri: %v", v)
	}
	if _, err := fold.ReadTemplate("demo://{unclosed"); err == nil {
		t.Error("a broken template read")
	}
}

// TestListChangedMarksThatListStale: a resources list_changed makes the
// resources and templates walks stale, a prompts one the prompts walk;
// neither touches tools.
func TestListChangedMarksThatListStale(t *testing.T) {
	s := fold.New(nil)
	for i, l := range []paging.Method{paging.Tools(), paging.Resources(), paging.ResourceTemplates(), paging.Prompts()} {
		id := int64(i + 1)
		s.Apply(record.Event{Kind: record.KindWalk, Method: l.Name, Walk: &record.WalkInfo{ID: id, Method: l.Name, State: record.PhaseStart}})
		s.Apply(record.Event{Kind: record.KindWalk, Method: l.Name, Walk: &record.WalkInfo{ID: id, Method: l.Name, State: record.PhaseDone}})
	}
	stale := func() (out []string) {
		for _, w := range s.Walks() {
			if w.Stale() {
				out = append(out, w.Method)
			}
		}
		return out
	}
	s.Apply(record.Event{Kind: record.KindNotification, Method: "notifications/resources/list_changed"})
	if got := stale(); len(got) != 2 || got[0] != "resources/list" || got[1] != "resources/templates/list" {
		t.Errorf("after resources/list_changed: %v", got)
	}
	s.Apply(record.Event{Kind: record.KindNotification, Method: "notifications/prompts/list_changed"})
	if got := stale(); len(got) != 3 || got[2] != "prompts/list" {
		t.Errorf("after prompts/list_changed: %v", got)
	}
}
