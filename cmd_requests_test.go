package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mcpwitness/demo"
	"mcpwitness/internal/hostiletest"
	"mcpwitness/record"
)

// demoTargets are the demo server over stdio (the default target, a child
// process) and in this process over Streamable HTTP.
func demoTargets(t *testing.T) map[string][]string {
	return map[string][]string{
		"stdio":      nil,
		"in-process": {"--url", serveHTTP(t, demo.New(nil))},
	}
}

func TestResourcesJSONDocument(t *testing.T) {
	t.Parallel()
	for name, target := range demoTargets(t) {
		t.Run(name, func(t *testing.T) {
			code, out, stderr := runCLI(t, append([]string{"resources", "--json"}, target...)...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var doc struct {
				Server    struct{ Name string }
				Walks     map[string]walkDoc
				Resources []itemDoc
				Templates []itemDoc
				Findings  []json.RawMessage
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("not one JSON document: %v\n%s", err, out)
			}
			res, tmpl := doc.Walks["resources/list"], doc.Walks["resources/templates/list"]
			if len(doc.Walks) != 2 || res.Method != "resources/list" || !res.Complete || res.Pages != 3 ||
				tmpl.Method != "resources/templates/list" || !tmpl.Complete {
				t.Errorf("walks %+v", doc.Walks)
			}
			if len(doc.Resources) != res.Items || len(doc.Resources) <= 20 || len(doc.Templates) != 3 || doc.Findings == nil {
				t.Errorf("%d resources, %d templates, findings %v", len(doc.Resources), len(doc.Templates), doc.Findings)
			}
			last := doc.Resources[len(doc.Resources)-1]
			if last.Page != 3 || last.Generation != res.Generation || last.URI == "" || !json.Valid(last.Definition) {
				t.Errorf("last resource %+v", last)
			}
			if doc.Templates[0].URITemplate == "" || doc.Templates[0].Page != 1 {
				t.Errorf("template %+v", doc.Templates[0])
			}
		})
	}
}

func TestPromptsJSONDocument(t *testing.T) {
	t.Parallel()
	for name, target := range demoTargets(t) {
		t.Run(name, func(t *testing.T) {
			code, out, stderr := runCLI(t, append([]string{"prompts", "--json"}, target...)...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			doc := decodeStrict(t, out)
			prompts, _ := doc["prompts"].([]any)
			walk, _ := doc["walk"].(map[string]any)
			if len(prompts) != 3 || walk["method"] != "prompts/list" || doc["server"] == nil || doc["findings"] == nil {
				t.Fatalf("document %s", out)
			}
			first := prompts[0].(map[string]any)
			args, _ := first["arguments"].([]any)
			if first["name"] != "code_review" || len(args) != 3 || args[0].(map[string]any)["required"] != true || first["page"] != 1.0 {
				t.Errorf("first prompt %v", first)
			}
		})
	}
}

func TestReadExitCodesAndDocument(t *testing.T) {
	t.Parallel()
	for name, target := range demoTargets(t) {
		t.Run(name, func(t *testing.T) {
			for _, tc := range []struct {
				uri    string
				code   int
				status string
			}{
				{"demo://readme", exitOK, "pass"},
				{demo.BrokenResourceURI, exitCheck, "fail"},
				{"demo://weather/Oslo", exitOK, "pass"},
			} {
				code, out, stderr := runCLI(t, append([]string{"read", tc.uri, "--json"}, target...)...)
				if code != tc.code {
					t.Errorf("%s: exit %d, want %d: %s", tc.uri, code, tc.code, stderr)
				}
				doc := decodeStrict(t, out)
				contents, _ := doc["contents"].([]any)
				verdicts, _ := doc["verdicts"].([]any)
				if doc["uri"] != tc.uri || len(contents) != 1 || len(verdicts) != 1 || doc["durationMs"] == nil ||
					verdicts[0].(map[string]any)["status"] != tc.status {
					t.Errorf("%s: %s", tc.uri, out)
				}
			}
			code, out, _ := runCLI(t, append([]string{"read", "demo://nothing-here", "--json"}, target...)...)
			if e, _ := decodeStrict(t, out)["error"].(map[string]any); code != exitConnect || !strings.Contains(e["message"].(string), "not found") || e["code"] != "protocol" {
				t.Errorf("unknown resource: exit %d, %s", code, out)
			}
		})
	}
}

func TestReadPrintsContentsByType(t *testing.T) {
	t.Parallel()
	code, out, stderr := runCLI(t, "read", "demo://config.json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	assertSays(t, "read", out, "✓ resource-contents", "[demo://config.json · application/json · ", `  "name": "mcpwitness-demo"`)
	_, out, _ = runCLI(t, "read", demo.BrokenResourceURI)
	assertSays(t, "the broken read", out, "✗ resource-contents", "/contents/0 oneOf:", `no item has the uri asked for ("demo://broken/contents")`)
}

func TestReadFollowPrintsEachUpdate(t *testing.T) {
	t.Parallel()
	code, out, stderr := runCLI(t, "read", demo.ClockURI, "--follow", "--count", "2")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if n := strings.Count(out, "updated "); n != 2 {
		t.Errorf("%d updates printed, want 2:\n%s", n, out)
	}
	if n := strings.Count(out, "changed "); n != 3 {
		t.Errorf("%d reads printed, want 3 (the first and one per update):\n%s", n, out)
	}
}

func TestPromptExitCodesAndDocument(t *testing.T) {
	t.Parallel()
	for name, target := range demoTargets(t) {
		t.Run(name, func(t *testing.T) {
			for _, tc := range []struct {
				args []string
				code int
				sent bool
				says string
			}{
				{[]string{"code_review", "code=x := 1", "language=Go"}, exitOK, true, "Review this Go code"},
				{[]string{"code_review", "language=Go"}, exitCheck, false, `requires 1 argument \"code\"`},
				{[]string{"code_review", "language=Go", "--force"}, exitConnect, true, "missing required argument"},
				{[]string{"summarize", "--args", `{"text":"hello","style":"paragraph"}`}, exitOK, true, "one short paragraph"},
			} {
				code, out, stderr := runCLI(t, append(append([]string{"prompt", "--json"}, tc.args...), target...)...)
				if code != tc.code {
					t.Errorf("%v: exit %d, want %d: %s", tc.args, code, tc.code, stderr)
				}
				doc := decodeStrict(t, out)
				if doc["sent"] != tc.sent || doc["prompt"] != tc.args[0] || !strings.Contains(out, tc.says) {
					t.Errorf("%v: %s", tc.args, out)
				}
			}
		})
	}
}

func TestCompleteAndPing(t *testing.T) {
	t.Parallel()
	for name, target := range demoTargets(t) {
		t.Run(name, func(t *testing.T) {
			code, out, stderr := runCLI(t, append([]string{"complete", "--json", "--template", "demo://cities/{country}/{city}", "city=", "country=japan"}, target...)...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			doc := decodeStrict(t, out)
			if values, _ := doc["values"].([]any); len(values) != 3 || values[0] != "kyoto" || doc["total"] != 3.0 || doc["hasMore"] != false {
				t.Errorf("cities in japan: %s", out)
			}
			code, out, _ = runCLI(t, append([]string{"complete", "--json", "--template", demo.NumbersTemplate, "n="}, target...)...)
			if code != exitCheck || !strings.Contains(out, "must not exceed 100 items") {
				t.Errorf("numbers: exit %d, %.300s", code, out)
			}
			code, out, _ = runCLI(t, append([]string{"complete", "--prompt", "code_review", "language=ja"}, target...)...)
			if code != exitOK {
				t.Errorf("language: exit %d", code)
			}
			assertSays(t, "complete", out, "JavaScript\nJava\n", "2 values of 2", "✓ completion-values")
			code, out, stderr = runCLI(t, append([]string{"ping", "--count", "3", "--json"}, target...)...)
			if ms, _ := decodeStrict(t, out)["durationsMs"].([]any); code != exitOK || len(ms) != 3 {
				t.Errorf("ping: exit %d, %s %s", code, out, stderr)
			}
		})
	}
}

func TestRequestCommandsAgainstHostileServers(t *testing.T) {
	t.Parallel()
	bin := hostiletest.Build(t)
	for _, tc := range []struct {
		mode string
		args []string
		code int
		says string
	}{
		{hostiletest.ModeListsLoop, []string{"resources"}, exitCheck, "incomplete: cursor-repeated"},
		{hostiletest.ModeListsEndless, []string{"prompts", "--max-pages", "4"}, exitCheck, "incomplete: page-limit"},
		{hostiletest.ModeListsPaged, []string{"prompts"}, exitOK, "prompt_3_2"},
		{hostiletest.ModeBadAnswers, []string{"read", "hostile://r/1/1"}, exitCheck, "every item must have a uri"},
		{hostiletest.ModeBadAnswers, []string{"prompt", "prompt_1_1", "x=1"}, exitCheck, `role is "system"`},
		{hostiletest.ModeBadAnswers, []string{"complete", "--prompt", "prompt_1_1", "x="}, exitCheck, "the server sent 101"},
		{hostiletest.ModeHangRequests, []string{"read", "hostile://r/1/1", "--timeout", "3s"}, exitConnect, "no answer within 3s"},
	} {
		t.Run(tc.mode+" "+tc.args[0], func(t *testing.T) {
			var out, errb strings.Builder
			code := run(append(tc.args, "--", bin, "-mode", tc.mode), &out, &errb)
			if code != tc.code || !strings.Contains(out.String()+errb.String(), tc.says) {
				t.Errorf("exit %d (want %d), want %q in:\n%s%s", code, tc.code, tc.says, out.String(), errb.String())
			}
		})
	}
}

// A prompt's get says when the server said its prompt list changed after
// the listing its arguments were checked against and before the answer,
// as a call does of the tool list: on stdout, in the --json document and
// in the record's request event. A change after the answer is not the
// get's.
func TestPromptSaysTheListChangedBeforeItsAnswer(t *testing.T) {
	t.Parallel()
	bin := hostiletest.Build(t)
	const says = "the server said its prompt list changed after the listing checked against, before the answer"
	for _, tc := range []struct {
		prompt string
		stale  bool
	}{{"prompt_1_1", true}, {"prompt_1_2", false}} {
		t.Run(tc.prompt, func(t *testing.T) {
			var out, errb strings.Builder
			code := run([]string{"prompt", tc.prompt, "x=1", "--", bin, "-mode", hostiletest.ModePromptsChanged}, &out, &errb)
			if code != exitOK || strings.Contains(out.String(), says) != tc.stale {
				t.Errorf("exit %d, stale %v: want exit 0, the warning %v, in:\n%s%s", code, !tc.stale, tc.stale, out.String(), errb.String())
			}
			rec := filepath.Join(t.TempDir(), "s.jsonl")
			out.Reset()
			code = run([]string{"prompt", tc.prompt, "x=1", "--json", "--record", rec, "--", bin, "-mode", hostiletest.ModePromptsChanged}, &out, &errb)
			var doc promptDoc
			if err := json.Unmarshal([]byte(out.String()), &doc); err != nil || code != exitOK {
				t.Fatalf("--json: exit %d, %v: %s", code, err, out.String())
			}
			stale := len(doc.Findings) == 1 && doc.Findings[0].Check == "list-changed"
			if stale != tc.stale || !tc.stale && len(doc.Findings) > 0 {
				t.Errorf("--json findings %+v; want a list-changed finding: %v", doc.Findings, tc.stale)
			}
			f, err := record.OpenFile(rec)
			if err != nil {
				t.Fatal(err)
			}
			var recorded bool
			for ev, err := range f.Events() {
				if err != nil {
					t.Fatal(err)
				}
				if ev.Kind == record.KindRequest && ev.Request != nil && ev.Request.State == record.PhaseDone {
					recorded = len(ev.Request.Findings) == 1 && strings.Contains(ev.Request.Findings[0].Message, says)
				}
			}
			if recorded != tc.stale {
				t.Errorf("the record's request event holds the finding: %v, want %v", recorded, tc.stale)
			}
		})
	}
}

func TestLogLevelIsSentAfterConnecting(t *testing.T) {
	t.Parallel()
	// Every command that connects takes --log-level, not only the new ones.
	for _, args := range [][]string{{"ping"}, {"tools"}, {"call", "add", "a=1", "b=2"}, {"check"}} {
		code, out, stderr := runCLI(t, append(args, "--ndjson", "--log-level", "warning", "--protocol", "2025-11-25")...)
		if code != exitOK && code != exitCheck { // the demo has findings for check
			t.Fatalf("%s: exit %d: %s", args[0], code, stderr)
		}
		found := false
		for line := range strings.Lines(out) {
			if strings.Contains(line, `"kind":"wire"`) && strings.Contains(line, `"method":"logging/setLevel"`) && strings.Contains(line, `"params":{"level":"warning"}`) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no logging/setLevel warning on the wire:\n%.3000s", args[0], out)
		}
	}
}

func TestRequestCommandUsageErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"read"}, "read needs exactly one resource URI"},
		{[]string{"read", "demo://clock", "--follow", "--json"}, "use --ndjson"},
		{[]string{"prompt"}, "prompt needs a prompt name"},
		{[]string{"prompt", "p", "x=1", "--args", "{}"}, "not both"},
		{[]string{"complete", "x="}, "exactly one of --prompt NAME or --template URI"},
		{[]string{"complete", "--prompt", "p", "x"}, "want ARG=PARTIAL"},
		{[]string{"ping", "--log-level", "loud"}, "--log-level wants one of debug, info"},
		{[]string{"resources", "extra"}, "takes no arguments"},
	} {
		code, _, stderr := runCLI(t, tc.args...)
		if code != exitUsage || !strings.Contains(stderr, tc.says) {
			t.Errorf("%v: exit %d, %s", tc.args, code, stderr)
		}
	}
}

// TestPromptArgsRefusedBeforeConnecting holds that --args that is not an
// object of strings is a usage error said before anything connects: a
// server that cannot be started does not hide it.
func TestPromptArgsRefusedBeforeConnecting(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"--args", "[1]"}, {"--args", `{"code":1}`}} {
		code, _, stderr := runCLI(t, append(append([]string{"prompt", "code_review"}, args...), "--", filepath.Join(t.TempDir(), "no-such-server"))...)
		if code != exitUsage || !strings.Contains(stderr, "--args") {
			t.Errorf("%v: exit %d, %s", args, code, stderr)
		}
	}
}

// TestRequestErrorSaidOnce holds that a request the server answers with an
// error says so once, in the command's output, as call does: not again on
// stderr.
func TestRequestErrorSaidOnce(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"read", "demo://nothing-here"},
		{"read", "demo://nothing-here", "--json"},
		{"prompt", "no-such-prompt", "--force"},
	} {
		code, out, stderr := runCLI(t, args...)
		if n := strings.Count(out+stderr, "the server answered with an error"); code != exitConnect || n != 1 {
			t.Errorf("%v: exit %d, the error said %d times:\n%s%s", args, code, n, out, stderr)
		}
	}
}

// TestListsTheServerDoesNotDeclare: a server with tools only gets the
// capability note, not empty tables under headings.
func TestListsTheServerDoesNotDeclare(t *testing.T) {
	t.Parallel()
	srv := mcp.NewServer(&mcp.Implementation{Name: "tools-only", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "noop", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		})
	url := serveHTTP(t, srv)
	for cmd, heading := range map[string]string{"resources": "RESOURCE", "prompts": "PROMPT"} {
		code, out, errs := runSafe(t, cmd, "--url", url)
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", cmd, code, errs)
		}
		if strings.Contains(out, heading) || !strings.Contains(out, "the server does not declare "+cmd+"; nothing was listed") {
			t.Errorf("%s:\n%s", cmd, out)
		}
	}
}
