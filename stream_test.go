package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"text/tabwriter"

	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"

	"mcpwitness/finding"
	"mcpwitness/fold"
	"mcpwitness/record"
	"mcpwitness/session"
)

// wholeJSON is the document as one marshal, clean, redaction and indent of
// the whole of it: what the streamed tools document must equal byte for
// byte.
func wholeJSON(t *testing.T, v any, red *record.Redactor) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if b, err = cleanJSON(b); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, red.JSON(b), "", "  "); err != nil {
		t.Fatal(err)
	}
	return out.String() + "\n"
}

// The tools document is streamed one tool at a time, and reads exactly as
// the whole document would: with server text to clean (controls, bidi,
// bad UTF-8, HTML characters), a secret to replace, and empty arrays.
func TestToolsDocumentStreamsTheSameBytes(t *testing.T) {
	secret := "s3cret-token&more"
	red := session.Target{URL: "http://127.0.0.1:1/mcp", Headers: []string{"Authorization: " + secret}}.Secrets()
	ttl := 5
	full := toolsDoc{
		Server: serverDoc{Name: "evil\x1b[2J<server>", Version: "1", ProtocolVersion: "2025-11-25", Transport: "stdio"},
		Walk:   walkDoc{Complete: true, Pages: 2, Generation: 2},
		Pages: []pageDoc{{Page: 1, Items: 2, NextCursor: "c1", DurationMs: 1.5, TTLMs: &ttl, Generation: 1},
			{Page: 2, Items: 1, DurationMs: 0.25, Generation: 2}},
		Findings: []finding.Finding{{Check: "duplicate", Severity: finding.SeverityWarning, Message: "tool \u202eb listed twice"}},
	}
	for i, def := range []string{
		`{"name":"plain","inputSchema":{"type":"object"}}`,
		`{"name":"a<b&c>","description":"uses ` + secret + `","inputSchema":{"type":"object"}}`,
		"{\"name\":\"bad\xff\\ud800\",\"description\":\"zero\u200bwidth \u0085 \\u0041\",\"inputSchema\":{}}",
	} {
		full.Tools = append(full.Tools, toolDoc{Name: fmt.Sprint("tool", i), Page: 1 + i/2, Generation: 1, Definition: json.RawMessage(def)})
	}
	empty := toolsDoc{Pages: []pageDoc{}, Tools: []toolDoc{}, Findings: []finding.Finding{}}
	for name, doc := range map[string]toolsDoc{"full": full, "empty": empty} {
		var got bytes.Buffer
		if err := doc.writeJSON(&got, red); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if diff := cmp.Diff(wholeJSON(t, doc, red), got.String()); diff != "" {
			t.Errorf("%s: the streamed document differs (-whole +streamed):\n%s", name, diff)
		}
		if strings.Contains(got.String(), secret) {
			t.Errorf("%s: the secret is in the document", name)
		}
	}
}

// countingWriter counts the writes it is given.
type countingWriter struct {
	bytes.Buffer
	writes int
}

func (w *countingWriter) Write(b []byte) (int, error) {
	w.writes++
	return w.Buffer.Write(b)
}

// The tools table is written through a buffer: a few writes for a
// thousand tools, not one per cell.
func TestToolsTextIsBuffered(t *testing.T) {
	t.Parallel()
	doc := toolsDoc{Walk: walkDoc{Complete: true, Pages: 1}, Pages: []pageDoc{{Page: 1, Items: 1000}}}
	for i := range 1000 {
		doc.Tools = append(doc.Tools, toolDoc{Name: fmt.Sprintf("tool_%04d", i), Page: 1})
	}
	var w countingWriter
	newPrinter(&w, false, nil).tools(doc)
	if !strings.Contains(w.String(), "tool_0999") || !strings.HasSuffix(w.String(), "1000 tools · 1 page · gen 0\n") {
		t.Fatalf("the table is not all there:\n%s", w.String()[max(0, w.Len()-300):])
	}
	if want := w.Len()/(64<<10) + 2; w.writes > want {
		t.Errorf("%d writes for %d bytes, want at most %d", w.writes, w.Len(), want)
	}
}

// The tools command folds frames without their bytes: its document needs
// none, and the fold would keep a second copy of every page.
func TestToolsFoldKeepsNoFrameBytes(t *testing.T) {
	t.Parallel()
	log := record.NewLog(nil)
	folded := foldToolsLog(log)
	log.Append(record.Event{Kind: record.KindWire, Dir: record.Recv, Method: "tools/list", Size: 30,
		Frame: json.RawMessage(`{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`)})
	folded.read(func(st *fold.State) {
		frames := st.Frames()
		if frames.Len() != 1 {
			t.Fatalf("%d frames folded, want 1", frames.Len())
		}
		if f := frames.At(0); len(f.Frame) != 0 || f.Size != 30 || f.Method != "tools/list" {
			t.Errorf("folded frame %+v, want its size and method without its bytes", f)
		}
	})
}

// The tools table without colours is what text/tabwriter (padding 2)
// writes, byte for byte; with colours, stripped of them, it is the same
// table (a tabwriter counted the escapes of the yellow "required" as
// width); a wide name (CJK) takes its width on the screen, so that the
// PAGE column starts at the same screen column on every line.
func TestToolsTableAlignsOnTheScreen(t *testing.T) {
	t.Parallel()
	doc := toolsDoc{Walk: walkDoc{Complete: true, Pages: 1}, Pages: []pageDoc{{Page: 1, Items: 4}}, Tools: []toolDoc{
		{Name: "a", Page: 1, Generation: 1, Held: true},
		{Name: "résumé_über_long_name", Page: 12, Generation: 345, TaskSupport: "required", HasOutputSchema: true},
		{Name: "bell\a", Page: 3, Generation: 3, TaskSupport: "optional"},
		{Name: "", Page: 1, Generation: 1},
	}}
	table := func(d toolsDoc, color bool) string {
		var b bytes.Buffer
		newPrinter(&b, color, nil).toolsTable(d)
		return b.String()
	}
	plain := newPrinter(nil, false, nil)
	var want bytes.Buffer
	tw := tabwriter.NewWriter(&want, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TOOL\tPAGE\tGEN\tHOLD\tTASK\tOUTPUT")
	for _, tl := range doc.Tools {
		hold, task, out := "own", tl.TaskSupport, "-"
		if tl.Held {
			hold = "held"
		}
		if task == "" {
			task = "-"
		}
		if tl.HasOutputSchema {
			out = "schema"
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%s\n", plain.line(tl.Name), tl.Page, tl.Generation, hold, task, out)
	}
	tw.Flush()
	if got := table(doc, false); got != want.String() {
		t.Errorf("the table:\n%q\nwant what a tabwriter writes:\n%q", got, want.String())
	}
	colored := table(doc, true)
	if colored == want.String() || ansi.Strip(colored) != want.String() {
		t.Errorf("with colours, stripped of them, the table:\n%q\nwant the table without them:\n%q", ansi.Strip(colored), want.String())
	}

	doc.Tools = append(doc.Tools, toolDoc{Name: "天気予報", Page: 7, Generation: 7})
	for _, line := range strings.Split(strings.TrimSuffix(ansi.Strip(table(doc, true)), "\n"), "\n") {
		name := strings.TrimRight(line[:strings.IndexAny(line, "P0123456789")], " ")
		if col := ansi.StringWidth(line[:strings.IndexAny(line, "P0123456789")]); col != ansi.StringWidth("résumé_über_long_name")+2 {
			t.Errorf("after %q the PAGE column starts at screen column %d, want %d:\n%s", name, col, ansi.StringWidth("résumé_über_long_name")+2, line)
		}
	}
}
