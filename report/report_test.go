package report_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"mcpwitness/demo"
	"mcpwitness/finding"
	"mcpwitness/report"
	"mcpwitness/session"
)

// demoSession records every kind of verdict the demo server can give.
func demoSession(t *testing.T) string {
	t.Helper()
	target := session.Target{Command: []string{"node", "server.js"}, Env: []string{"API_KEY=canary-env-5f2c"}}
	return recordSession(t, demo.New(nil), target, []step{
		walk(),
		call("add", `{"a":2,"b":3}`),
		call("add", `{"a":"two"}`),
		call("forecast_broken", `{"city":"Oslo"}`),
		call("summary_no_structured", `{"text":"One. Two."}`),
		call("unresolved_ref", `{}`),
		call("fail_always", `{}`),
		call("render_video", `{"storyboard":"x"}`),
		forced("render_video", `{"storyboard":"x"}`),
		call("no_such_tool", `{}`),
	})
}

func markdown(t *testing.T, path string, opts *report.MarkdownOptions) string {
	t.Helper()
	s, err := report.Summarize(openFile(t, path), nil)
	if err != nil {
		t.Fatal(err)
	}
	if opts == nil {
		opts = &report.MarkdownOptions{}
	}
	if opts.Scrubber == nil {
		opts.Scrubber = testScrubber(t)
	}
	var b bytes.Buffer
	if err := s.Markdown(&b, opts); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestMarkdownGolden(t *testing.T) {
	golden.RequireEqual(t, markdown(t, normalize(t, demoSession(t)), nil))
}

func TestSummarizeDemoSession(t *testing.T) {
	s, err := report.Summarize(openFile(t, demoSession(t)), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Walks) != 1 || !s.Walks[0].Complete() || s.Walks[0].Items != 53 || len(s.Walks[0].Pages) != 6 {
		t.Fatalf("walks = %+v", s.Walks)
	}
	if first, last := s.Walks[0].Generations(); first != 1 || last != 6 {
		t.Errorf("generations %d–%d, want 1–6", first, last)
	}
	byTool := map[string]*report.Call{}
	for _, c := range s.Calls {
		byTool[c.Tool] = c // the last call of each tool
	}
	if len(s.Calls) != 9 {
		t.Fatalf("%d calls, want 9", len(s.Calls))
	}
	if c := s.Calls[0]; c.Failed() || !c.Sent || c.Response != nil {
		t.Errorf("a passing call: failed %v, sent %v, frames read %v", c.Failed(), c.Sent, c.Response != nil)
	}
	fc := byTool["forecast_broken"]
	if !fc.Failed() || fc.Request == nil || fc.Response == nil || !strings.Contains(string(fc.Request.Raw), `"forecast_broken"`) ||
		fc.Request.ID != fc.Response.ID {
		t.Fatalf("forecast_broken: failed %v, request %+v, response %+v", fc.Failed(), fc.Request, fc.Response)
	}
	if !strings.Contains(string(fc.Response.Raw), `"structuredContent"`) {
		t.Errorf("the response frame is not the call's answer: %s", fc.Response.Raw)
	}
	refused := s.Calls[6]
	if refused.Tool != "render_video" || refused.Sent || refused.Request != nil || !refused.Failed() {
		t.Errorf("refused call = %+v", refused)
	}
	if forced := s.Calls[7]; !forced.Forced || !forced.Sent || forced.Request == nil {
		t.Errorf("forced call = %+v", forced)
	}
	if c := byTool["fail_always"]; !c.IsError || !c.Failed() {
		t.Errorf("fail_always = %+v", c)
	}
	if c := byTool["unresolved_ref"]; !c.Failed() || statusOf(c, finding.OutputSchema) != finding.Unchecked {
		t.Errorf("unresolved_ref = %+v", c)
	}
	if c := byTool["no_such_tool"]; c.Listed || !c.Sent {
		t.Errorf("no_such_tool = %+v", c)
	}
}

func statusOf(c *report.Call, check string) finding.Status {
	for _, v := range c.Verdicts {
		if v.Check == check {
			return v.Status
		}
	}
	return ""
}

func TestMarkdownDamagedFile(t *testing.T) {
	path := normalize(t, demoSession(t))
	data, _ := os.ReadFile(path)
	lines := bytes.SplitAfter(data, []byte("\n"))
	// Damage line 4 and cut the file in the middle of the forecast call's
	// last line.
	lines[3] = []byte("garbage\n")
	var cut []byte
	for _, l := range lines {
		if bytes.Contains(l, []byte(`"state":"done","tool":"forecast_broken"`)) {
			cut = append(cut, l[:len(l)/2]...)
			break
		}
		cut = append(cut, l...)
	}
	if err := os.WriteFile(path, cut, 0o600); err != nil {
		t.Fatal(err)
	}
	md := markdown(t, path, nil)
	for _, want := range []string{
		"> [!WARNING]",
		"> - line 4: not an event: not JSON (\"garbage\"); skipped",
		"> - the file ends in the middle of line",
		"⏳ unfinished: the file ends before the call did",
		"Call 3 · <code>forecast_broken</code> · output-schema failed, unfinished",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the report of a damaged file lacks %q:\n%s", want, md)
		}
	}
}

func TestMarkdownCutsLongFrames(t *testing.T) {
	md := markdown(t, normalize(t, demoSession(t)), &report.MarkdownOptions{MaxFrame: 200})
	if !strings.Contains(md, "more bytes not shown; the whole frame is event seq") {
		t.Errorf("no frame was cut at 200 bytes:\n%s", md)
	}
}

// A file another program wrote, with secrets in plain sight and Markdown in
// its names, still gives a report that shows no secret and keeps its tables.
func TestMarkdownGuardsSecretsAndMarkup(t *testing.T) {
	file := `{"format":"mcpwitness-session","version":1,"tool":"other","target":{"transport":"http","url":"https://bob:hunter2-canary@example.com/mcp?token=canary-query-77","headers":{"Authorization":"Bearer canary-header-0123456789"}},"started":"2026-01-02T03:04:05Z"}
{"seq":1,"t":"2026-01-02T03:04:06Z","kind":"call","call":{"id":1,"tool":"a|b` + "`" + `c<x>","state":"start","args":{"url":"https://bob:hunter2-canary@example.com/"},"listed":true,"sent":false}}
{"seq":2,"t":"2026-01-02T03:04:07Z","kind":"error","text":"auth failed for Bearer canary-header-0123456789 | retry"}
{"seq":3,"t":"2026-01-02T03:04:08Z","kind":"call","call":{"id":1,"tool":"a|b` + "`" + `c<x>","state":"done","listed":true,"sent":false}}
`
	path := t.TempDir() + "/other.jsonl"
	if err := os.WriteFile(path, []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	md := markdown(t, path, nil)
	for _, canary := range []string{"hunter2-canary", "canary-query-77", "canary-header-0123456789"} {
		if strings.Contains(md, canary) {
			t.Errorf("the report shows the secret %q:\n%s", canary, md)
		}
	}
	if !strings.Contains(md, "| 1 | `` a\\|b`c<x> `` | **no** |") {
		t.Errorf("the call row does not keep its cells:\n%s", md)
	}
	if !strings.Contains(md, "<code>a|b`c&lt;x&gt;</code>") {
		t.Errorf("the summary element is not escaped:\n%s", md)
	}
}
