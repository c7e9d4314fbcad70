package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"mcpwitness/finding"
	"mcpwitness/fold"
	"mcpwitness/paging"
	"mcpwitness/record"
)

// The tools document is read from the fold of the log: pages, tools with
// their generation and held/own, findings, and the definition as sent,
// even one that cannot be read.
func TestToolsDocumentReadsTheFold(t *testing.T) {
	t.Parallel()
	log := record.NewLog(nil)
	folded := foldLog(log)
	items := []json.RawMessage{
		json.RawMessage(`{"name":"add","inputSchema":{"type":"object"},"outputSchema":{"type":"object"}}`),
		json.RawMessage(`{"name":"render","inputSchema":{"type":"object"},"execution":{"taskSupport":"required"}}`),
		json.RawMessage(`{"name":7}`),
		json.RawMessage(`{"inputSchema":{"type":"object"}}`),
	}
	dup := finding.Finding{Check: paging.CheckDuplicateItem, Severity: finding.SeverityWarning, Message: "twice", Page: 1}
	walk := &record.WalkInfo{ID: 1, Method: "tools/list", State: record.PhaseStart}
	log.Append(record.Event{Kind: record.KindWalk, Method: "tools/list", Walk: walk})
	log.Append(record.Event{Kind: record.KindPage, Method: "tools/list", Gen: 1,
		Walk: &record.WalkInfo{ID: 1, Method: "tools/list", State: record.PhasePage},
		Page: &paging.Page{Number: 1, Count: len(items), Ms: 2, Generation: 1, HasTTL: true, TTLMs: 500}, Items: items})
	log.Append(record.Event{Kind: record.KindWalk, Method: "tools/list", Gen: 1, Walk: &record.WalkInfo{ID: 1, Method: "tools/list",
		State: record.PhaseDone, Pages: 1, Items: len(items), Generation: 1, Findings: []finding.Finding{dup}}})

	var doc toolsDoc
	folded.read(func(st *fold.State) { doc = toolsDocument(record.ServerInfo{Name: "srv"}, st) })
	ttl := 500
	want := toolsDoc{
		docHead:  docHead{Kind: "tools", SchemaVersion: schemaVersion},
		Server:   serverDoc{Name: "srv"},
		Walk:     walkDoc{Method: "tools/list", Complete: true, Pages: 1, Items: 4, Generation: 1, WalksTaken: 1, Settled: true},
		Pages:    []pageDoc{{Page: 1, Items: 4, DurationMs: 2, TTLMs: &ttl, Generation: 1}},
		Findings: []finding.Finding{dup},
		Tools: []toolDoc{
			{Name: "add", Page: 1, Generation: 1, Held: true, HasOutputSchema: true, Definition: items[0]},
			{Name: "render", Page: 1, Generation: 1, Held: true, TaskSupport: "required", Definition: items[1]},
			{Name: "", Page: 1, Generation: 1, Held: true, Definition: items[2]},
			{Name: "", Page: 1, Generation: 1, Held: true, Definition: items[3]},
		},
	}
	if diff := cmp.Diff(want, doc, cmp.AllowUnexported(toolsDoc{})); diff != "" {
		t.Errorf("toolsDocument (-want +got):\n%s", diff)
	}
	// The document that leaves its tools in the walk's records writes the
	// same bytes, as JSON and as text, as the one built whole.
	var lazy toolsDoc
	folded.read(func(st *fold.State) { lazy = toolsDocumentOf(record.ServerInfo{Name: "srv"}, st) })
	if lazy.listed == nil || len(lazy.listed.tools) != len(items) {
		t.Fatalf("toolsDocumentOf did not leave the %d tools in the walk's records: %+v", len(items), lazy.listed)
	}
	var wholeJSON, lazyJSON, wholeText, lazyText bytes.Buffer
	if err := writeJSON(&wholeJSON, doc, nil); err != nil {
		t.Fatal(err)
	}
	if err := writeJSON(&lazyJSON, lazy, nil); err != nil {
		t.Fatal(err)
	}
	newPrinter(&wholeText, false, nil).tools(doc)
	newPrinter(&lazyText, false, nil).tools(lazy)
	if diff := cmp.Diff(wholeJSON.String(), lazyJSON.String()); diff != "" || !strings.Contains(lazyJSON.String(), `"name": "render"`) {
		t.Errorf("the JSON written from the walk's records differs (-whole +records):\n%s", diff)
	}
	if diff := cmp.Diff(wholeText.String(), lazyText.String()); diff != "" || !strings.Contains(lazyText.String(), "render") {
		t.Errorf("the text written from the walk's records differs (-whole +records):\n%s", diff)
	}

	// A second page makes the tools the client's own, not held.
	log.Append(record.Event{Kind: record.KindWalk, Method: "tools/list", Walk: &record.WalkInfo{ID: 2, Method: "tools/list", State: record.PhaseStart}})
	for n := 1; n <= 2; n++ {
		log.Append(record.Event{Kind: record.KindPage, Method: "tools/list", Gen: int64(1 + n),
			Walk: &record.WalkInfo{ID: 2, Method: "tools/list", State: record.PhasePage},
			Page: &paging.Page{Number: n, Count: 1, Generation: int64(1 + n)}, Items: items[:1]})
	}
	log.Append(record.Event{Kind: record.KindWalk, Method: "tools/list", Gen: 3, Walk: &record.WalkInfo{ID: 2, Method: "tools/list",
		State: record.PhaseDone, Pages: 2, Items: 2, Generation: 3}})
	folded.read(func(st *fold.State) { doc = toolsDocument(record.ServerInfo{Name: "srv"}, st) })
	if len(doc.Tools) != 2 || doc.Tools[0].Held || doc.Tools[1].Generation != 3 || doc.Walk.Pages != 2 || len(doc.Findings) != 0 || doc.Findings == nil {
		t.Errorf("second walk: %+v", doc)
	}
}

// A lists document says a walk's list changed when the server said so
// after the walk started: resources/list_changed marks the resources and
// templates walks, and no other.
func TestListDocSaysTheListChanged(t *testing.T) {
	t.Parallel()
	log := record.NewLog(nil)
	folded := foldLog(log)
	for i, m := range []string{"resources/list", "resources/templates/list", "prompts/list"} {
		id := int64(i + 1)
		log.Append(record.Event{Kind: record.KindWalk, Method: m, Walk: &record.WalkInfo{ID: id, Method: m, State: record.PhaseStart}})
		log.Append(record.Event{Kind: record.KindWalk, Method: m, Walk: &record.WalkInfo{ID: id, Method: m, State: record.PhaseDone}})
	}
	log.Append(record.Event{Kind: record.KindNotification, Method: "notifications/resources/list_changed"})
	got := map[string]bool{}
	folded.read(func(st *fold.State) {
		for _, m := range []string{"resources/list", "resources/templates/list", "prompts/list"} {
			got[m] = walkDocOf(m, st.Latest(m)).ListChanged
		}
	})
	want := map[string]bool{"resources/list": true, "resources/templates/list": true, "prompts/list": false}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("listChanged by list (-want +got):\n%s", diff)
	}
}
