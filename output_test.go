package main

import (
	"context"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mcpwitness/internal/hostiletest"
	"mcpwitness/record"
)

// serveHTTP serves srv over Streamable HTTP on 127.0.0.1 port 0 for the
// test and returns its URL.
func serveHTTP(t *testing.T, srv *mcp.Server) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	hs := &http.Server{Handler: h}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	return "http://" + ln.Addr().String() + "/mcp"
}

func TestCallShowsWhatContentHolds(t *testing.T) {
	t.Parallel()
	srv := mcp.NewServer(&mcp.Implementation{Name: "media", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "media", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{
				&mcp.ImageContent{Data: make([]byte, 1536), MIMEType: "image/png"},
				&mcp.AudioContent{Data: []byte{1, 2, 3}, MIMEType: "audio/wav"},
				&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///notes.txt", MIMEType: "text/plain", Text: "hello"}},
				&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///b.bin", MIMEType: "application/octet-stream", Blob: make([]byte, 10)}},
				&mcp.ResourceLink{URI: "file:///big.iso", Name: "big", MIMEType: "application/x-iso9660-image"},
			}}, nil
		})
	code, out, errs := runSafe(t, "call", "media", "--url", serveHTTP(t, srv))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	assertSays(t, "the output", out,
		"[image · image/png · 1.5 KiB (1536 bytes)]",
		"[audio · audio/wav · 3 bytes]",
		"[resource · file:///notes.txt · text/plain · 5 bytes of text]\nhello\n",
		"[resource · file:///b.bin · application/octet-stream · blob 10 bytes]",
		`[resource_link · file:///big.iso · name "big" · application/x-iso9660-image]`,
	)

	// The evil-strings server's embedded resource: its uri and type, escaped.
	_, out, _ = runSafe(t, append([]string{"call", evilTool}, evilServer(t)...)...)
	if !strings.Contains(out, `[resource · file:///evil␛[2J␛[H · text/plain␛]0;owned-title\a · 1 byte of text]`) {
		t.Errorf("the embedded resource is not described:\n%s", out)
	}
}

func TestCheckCountsInGoodEnglish(t *testing.T) {
	t.Parallel()
	srv := mcp.NewServer(&mcp.Implementation{Name: "one\x1b[2J"}, nil)
	srv.AddTool(&mcp.Tool{Name: "only", Description: "a \u202etricky\u202c description", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		})
	code, out, errs := runSafe(t, "check", "--url", serveHTTP(t, srv))
	if code != exitCheck {
		t.Fatalf("exit %d, want %d: %s\n%s", code, exitCheck, errs, out)
	}
	first, _, _ := strings.Cut(out, "\n")
	if strings.Contains(first, "  ") || !strings.HasPrefix(first, "one␛[2J · protocol ") {
		t.Errorf("the server line of a server with no version is %q", first)
	}
	assertSays(t, "the check output", out,
		"✓ tools/list                     1 item in 1 page",
		`unsafe-text        server "one␛[2J" name holds 1 control character (1 escape)`,
		`unsafe-text        tool "only" description holds 2 bidi controls`,
		"1 error · 1 warning · 0 notes",
	)
	for _, bad := range []string{"1 items", "1 errors", "1 warnings", "1 pages", "1 tools"} {
		if strings.Contains(out, bad) {
			t.Errorf("the check output says %q:\n%s", bad, out)
		}
	}
	_, out, _ = runSafe(t, "tools", "--url", serveHTTP(t, srv))
	if !strings.Contains(out, "· 1 tool · 1 page ·") {
		t.Errorf("the tools summary does not count one tool in good English:\n%s", out)
	}
}

// The evil-strings server: one unsafe-text finding per name, title and
// description that holds such characters, errors for names.
func TestCheckFlagsUnsafeText(t *testing.T) {
	t.Parallel()
	code, out, errs := runSafe(t, append([]string{"check", "--json"}, evilServer(t)...)...)
	if code != exitCheck {
		t.Fatalf("exit %d, want %d: %s", code, exitCheck, errs)
	}
	servers, _ := decodeStrict(t, out)["servers"].([]any)
	if len(servers) != 1 {
		t.Fatalf("%d servers in the check document, want 1", len(servers))
	}
	findings, _ := servers[0].(map[string]any)["findings"].([]any)
	count := map[string]int{}
	for _, f := range findings {
		m := f.(map[string]any)
		if m["check"] != "unsafe-text" {
			continue
		}
		msg := m["message"].(string)
		switch {
		case strings.HasPrefix(msg, "server ") && strings.Contains(msg, " name holds "):
			count["server name "+m["severity"].(string)]++
		case strings.HasPrefix(msg, "tool ") && strings.Contains(msg, " name holds "):
			count["tool name "+m["severity"].(string)]++
		case strings.HasPrefix(msg, "tool ") && strings.Contains(msg, " description holds "):
			count["tool description "+m["severity"].(string)]++
		case strings.HasPrefix(msg, "prompt ") && strings.Contains(msg, " name holds "):
			count["prompt name "+m["severity"].(string)]++
		}
	}
	want := map[string]int{"server name error": 1, "tool name error": 12, "tool description warning": 14, "prompt name error": 1}
	for k, n := range want {
		if count[k] != n {
			t.Errorf("%d findings of %s, want %d (all: %v)", count[k], k, n, count)
		}
	}
	if !strings.Contains(out, `tool \"evil_8\\u202eevil\\u202c\" name holds 2 bidi controls`) {
		t.Errorf("the bidi name is not flagged as such:\n%.3000s", out)
	}
}

func TestVersion(t *testing.T) {
	t.Parallel()
	code, out, _ := runSafe(t, "--version")
	if code != exitOK || out != "mcpwitness "+version()+"\n" {
		t.Errorf("--version: exit %d, %q", code, out)
	}
	tests := []struct {
		bi   debug.BuildInfo
		want string
	}{
		{debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, "v1.2.3"},
		{debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.time", Value: "2026-01-02T03:04:05Z"},
			{Key: "vcs.modified", Value: "true"}}}, "0123456789ab+dirty (2026-01-02T03:04:05Z)"},
		{debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.modified", Value: "false"}}}, "abc"},
		{debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "dev"},
	}
	for _, tc := range tests {
		if got := versionOf(&tc.bi); got != tc.want {
			t.Errorf("versionOf(%+v) = %q, want %q", tc.bi, got, tc.want)
		}
	}
}

// A binary built from this clone knows its version (go build stamps the
// module version or the VCS revision), says it with --version, and writes
// it into the session files it records, which the report then names.
func TestBuiltBinaryKnowsItsVersion(t *testing.T) {
	t.Parallel()
	endToEnd(t)
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed to stamp the build's VCS revision")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "mcpwitness")
	// -buildvcs=true overrides a GOFLAGS=-buildvcs=false of the machine.
	build := exec.Command("go", "build", "-buildvcs=true", "-o", bin, ".")
	if msg, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, msg)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	v := strings.TrimSpace(strings.TrimPrefix(string(out), "mcpwitness "))
	if !strings.HasPrefix(string(out), "mcpwitness ") || v == "" || v == "dev" {
		t.Fatalf("--version of a built binary says %q", out)
	}
	rec := filepath.Join(dir, "run.jsonl")
	cmd := exec.Command(bin, "tools", "--record", rec, "--", hostiletest.Build(t), "-mode", hostiletest.ModeNormal)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("recording: %v\n%s", err, msg)
	}
	f, err := record.OpenFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := f.Header().Tool; got != "mcpwitness "+v {
		t.Errorf("the record says it was written by %q, want %q", got, "mcpwitness "+v)
	}
	report, err := exec.Command(bin, "report", rec).Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(report), "by mcpwitness "+v) {
		t.Errorf("the report does not name the version %q:\n%s", v, report)
	}
}

// A refused call says that nothing was sent and how to send it anyway; a
// forced one says it was sent, and nothing contradicts that.
func TestRefusedAndForcedCallsSayWhatHappened(t *testing.T) {
	t.Parallel()
	bin := hostiletest.Build(t)
	server := []string{"--", bin, "-mode", hostiletest.ModeTaskRequired}
	_, out, _ := runSafe(t, append([]string{"call", "tool_1_1"}, server...)...)
	assertSays(t, "a refused call", out, "not sent", "Nothing was sent. --force sends it anyway")
	_, out, _ = runSafe(t, append([]string{"call", "tool_1_1", "--force"}, server...)...)
	if !strings.Contains(out, "sent anyway (--force)") {
		t.Errorf("a forced call does not say it was sent anyway:\n%s", out)
	}
	for _, bad := range []string{"not sent", "Nothing was sent"} {
		if strings.Contains(out, bad) {
			t.Errorf("a forced call says %q:\n%s", bad, out)
		}
	}
}

// A prompt's message that embeds a resource shows the resource's text under
// the line describing it, as read shows it (JSON indented); before, only
// its size was said.
func TestPromptShowsAnEmbeddedResourcesText(t *testing.T) {
	t.Parallel()
	srv := mcp.NewServer(&mcp.Implementation{Name: "embeds", Version: "1"}, nil)
	srv.AddPrompt(&mcp.Prompt{Name: "review"}, func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{
			{Role: "user", Content: &mcp.TextContent{Text: "Review this:"}},
			{Role: "user", Content: &mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///a.json", MIMEType: "application/json", Text: `{"k":[1,2]}`}}},
			{Role: "user", Content: &mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///evil.txt", MIMEType: "text/plain", Text: "line\x1b[2J"}}},
		}}, nil
	})
	code, out, errs := runSafe(t, "prompt", "review", "--url", serveHTTP(t, srv))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	assertSays(t, "the prompt's output", out,
		"Review this:",
		"[resource · file:///a.json · application/json · 11 bytes of text]\n{\n  \"k\": [\n    1,\n    2\n  ]\n}\n",
		"[resource · file:///evil.txt · text/plain · 8 bytes of text]\nline␛[2J\n",
	)
}

// An error answer is not an empty one: read and prompt say "error answer"
// where they count items or messages, not "0 items" or "0 messages".
func TestAnErrorAnswerIsNotCountedAsEmpty(t *testing.T) {
	t.Parallel()
	srv := mcp.NewServer(&mcp.Implementation{Name: "sparse", Version: "1"}, nil)
	srv.AddResource(&mcp.Resource{URI: "file:///here.txt", Name: "here"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "file:///here.txt", Text: "hi"}}}, nil
	})
	srv.AddPrompt(&mcp.Prompt{Name: "here"}, func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "hi"}}}}, nil
	})
	url := serveHTTP(t, srv)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"read", "file:///gone.txt"}, "file:///gone.txt · error answer · "},
		{[]string{"prompt", "gone", "--force"}, "gone · sent · error answer · "},
		{[]string{"read", "file:///here.txt"}, "file:///here.txt · 1 item · "},
	} {
		_, out, errs := runSafe(t, append(tc.args, "--url", url)...)
		first, _, _ := strings.Cut(out, "\n")
		if !strings.HasPrefix(first, tc.want) {
			t.Errorf("%v: first line %q, want it to start %q\n%s%s", tc.args, first, tc.want, out, errs)
		}
	}
}

// A prompt or a read of a server that declares no prompts or resources
// says so first and asks all the same, without a prompts/list the server
// never offered (whose "Method not found" was the warning before).
func TestUndeclaredPromptsAndResourcesAreSaid(t *testing.T) {
	t.Parallel()
	srv := mcp.NewServer(&mcp.Implementation{Name: "tools-only", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "only", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		})
	url := serveHTTP(t, srv)
	_, out, errs := runSafe(t, "prompt", "x", "--ndjson", "--url", url)
	if !strings.Contains(errs, `the server does not declare prompts; getting "x" all the same`) || strings.Contains(errs, "listing prompts") {
		t.Errorf("prompt's warning: %s", errs)
	}
	if strings.Contains(out, `"method":"prompts/list"`) {
		t.Errorf("prompts/list was sent to a server without prompts:\n%s", out)
	}
	_, _, errs = runSafe(t, "read", "file:///x", "--url", url)
	if !strings.Contains(errs, "the server does not declare resources; reading file:///x all the same") {
		t.Errorf("read's warning: %s", errs)
	}
}
