package session

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"mcpwitness/internal/hostiletest"
	"mcpwitness/paging"
	"mcpwitness/record"
)

// A recorded frame is written as it came: not re-encoded, <, > and & not
// escaped, a frame spread over lines put on one; and the page read from it
// names it instead of repeating its items, which reading the file gives
// back.
func TestRecordKeepsEachByteOnce(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	rec, err := record.NewRecorder(&out, record.NewHeader("test", record.TargetInfo{}), nil)
	if err != nil {
		t.Fatal(err)
	}
	frame := "{\"jsonrpc\":\"2.0\",\"id\":3,\n \"result\":{\"tools\":[{\"name\":\"a<b&c>\",\"x\":\"\\u0041\"}]}}"
	items := []json.RawMessage{json.RawMessage(`{"name":"a<b&c>","x":"\u0041"}`)}
	rec.Write(record.Event{Seq: 5, T: testTime(), Kind: record.KindWire, Dir: record.Recv, Frame: json.RawMessage(frame), Method: "tools/list", ID: "3"})
	rec.Write(record.Event{Seq: 6, T: testTime(), Kind: record.KindPage, Method: "tools/list",
		Page: &paging.Page{Number: 1, Count: 1, RequestID: "3", Frame: 5}, Items: items})
	if err := rec.Err(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines, want the header and 2 events:\n%s", len(lines), out.String())
	}
	if want := `"frame":{"jsonrpc":"2.0","id":3,"result":{"tools":[{"name":"a<b&c>","x":"\u0041"}]}}`; !strings.Contains(lines[1], want) {
		t.Errorf("wire line %s\ndoes not hold the frame as it came: %s", lines[1], want)
	}
	if strings.Contains(lines[2], `"items":[`) || !strings.Contains(lines[2], `"frame":5`) {
		t.Errorf("page line %s repeats its items or does not name its frame", lines[2])
	}

	f, err := record.NewFile(bytes.NewReader(out.Bytes()), int64(out.Len()), "mem")
	if err != nil {
		t.Fatal(err)
	}
	ev, err := f.Event(1)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(rawStrings(items), rawStrings(ev.Items)); diff != "" {
		t.Errorf("page items read back (-recorded +read):\n%s", diff)
	}
}

// A page whose frame this recorder did not write (it started after it)
// keeps its items.
func TestRecordKeepsItemsOfAFrameItDidNotWrite(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	rec, err := record.NewRecorder(&out, record.NewHeader("test", record.TargetInfo{}), nil)
	if err != nil {
		t.Fatal(err)
	}
	rec.Write(record.Event{Seq: 6, T: testTime(), Kind: record.KindPage, Method: "tools/list",
		Page: &paging.Page{Number: 1, Count: 1, RequestID: "3", Frame: 5}, Items: []json.RawMessage{json.RawMessage(`{"name":"a"}`)}})
	if !strings.Contains(out.String(), `"items":[{"name":"a"}]`) {
		t.Errorf("the page lost its items: %s", out.String())
	}
}

// A secret holding a character JSON escapes for HTML is still replaced in
// a frame written as it came.
func TestRecordRedactsRawFrames(t *testing.T) {
	secret := "tok&en<42>"
	target := Target{URL: "http://127.0.0.1:1/mcp", Headers: []string{"Authorization: " + secret}}
	red := target.Secrets()
	var out bytes.Buffer
	rec, err := record.NewRecorder(&out, record.NewHeader("test", target.Describe()), red)
	if err != nil {
		t.Fatal(err)
	}
	rec.Write(record.Event{Seq: 1, T: testTime(), Kind: record.KindWire, Dir: record.Recv, Frame: json.RawMessage(`{"jsonrpc":"2.0","id":1,"result":{"echo":"` + secret + `"}}`)})
	if strings.Contains(out.String(), "tok&en") || strings.Contains(out.String(), `tok\u0026en`) {
		t.Errorf("the secret reached the record:\n%s", out.String())
	}
}

// Files written before pages named their frames, with the items in each
// page event, read as they did.
func TestOpenOldFileWithPageItems(t *testing.T) {
	t.Parallel()
	f, err := record.OpenFile(filepath.Join("testdata", "walk-items.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var names []string
	for ev, err := range f.Events() {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Kind == record.KindPage {
			names = append(names, toolNames(ev.Items)...)
		}
	}
	if want := []string{"tool_1_1", "tool_1_2", "tool_2_1", "tool_2_2", "tool_3_1", "tool_3_2"}; !slices.Equal(names, want) {
		t.Errorf("pages of the old file hold %q, want %q", names, want)
	}
}

// A walk over real stdio, recorded to a file: each page's items are in the
// file once (in its frame) and read back whole.
func TestRecordedWalkOverStdio(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "walk.jsonl")
	target := hostile(t, hostiletest.ModeNormal, "-pages", "3", "-page-size", "2")
	rf, err := record.CreateRecord(path, record.NewHeader("test", target.Describe()), target.Secrets())
	if err != nil {
		t.Fatal(err)
	}
	log := record.NewLog(nil)
	log.AddSink(rf.Write)
	s := dial(t, target, &Options{Log: log})
	if _, res := s.Walk(context.Background(), paging.Tools()); res.Incomplete != paging.Complete {
		t.Fatalf("walk: %s %v", res.Incomplete, res.Err)
	}
	s.Close()
	log.Close()
	if err := rf.Close(); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(raw), `"name":"tool_2_1"`); n != 1 {
		t.Errorf("tool_2_1 is in the file %d times, want once", n)
	}
	f := openTestFile(t, path)
	var names []string
	for ev, err := range f.Events() {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Kind == record.KindPage {
			names = append(names, toolNames(ev.Items)...)
		}
	}
	if want := []string{"tool_1_1", "tool_1_2", "tool_2_1", "tool_2_2", "tool_3_1", "tool_3_2"}; !slices.Equal(names, want) {
		t.Errorf("the recorded pages hold %q, want %q", names, want)
	}
}

func rawStrings(items []json.RawMessage) []string {
	var s []string
	for _, it := range items {
		s = append(s, string(it))
	}
	return s
}

// testTime stamps the events these tests write by hand.
func testTime() time.Time { return time.Date(2026, 12, 1, 6, 0, 0, 0, time.UTC) }
