//lint:file-ignore SA1019 servers on protocols before 2026-07-28 still ask for sampling; --sampling-reply answers them

package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// elicitingServer serves, over Streamable HTTP on 127.0.0.1 port 0, a go-sdk
// server whose tool "ask" elicits a form during the call and answers with
// what the client said. Its message carries a screen clear.
func elicitingServer(t *testing.T) string {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "asking", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "ask", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "who\x1b[2J?",
				RequestedSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","default":"Ada"},"age":{"type":"integer","minimum":0}}}`)})
			if err != nil {
				return nil, err
			}
			b, _ := json.Marshal(res)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "got " + string(b)}}}, nil
		})
	srv.AddTool(&mcp.Tool{Name: "sample", InputSchema: map[string]any{"type": "object"}}, sampleTool)
	srv.AddTool(&mcp.Tool{Name: "read_roots", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res, err := req.Session.ListRoots(ctx, nil)
			if err != nil {
				return nil, err
			}
			b, _ := json.Marshal(res)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "got " + string(b)}}}, nil
		})
	srv.AddTool(&mcp.Tool{Name: "ask_url", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Mode: "url", Message: "Sign in\x1b]0;pwned\x07.",
				URL: "https://example.com/sign-in?next=\x1b[31mred\u202e", ElicitationID: "e1"})
			if err != nil {
				return nil, err
			}
			b, _ := json.Marshal(res)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "got " + string(b)}}}, nil
		})
	return serveHTTP(t, srv)
}

// sampleTool asks the client for a message with no maxTokens and answers
// with what the client said.
func sampleTool(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	res, err := req.Session.CreateMessage(ctx, &mcp.CreateMessageParams{
		Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "hi"}}}})
	if err != nil {
		return nil, err
	}
	b, _ := json.Marshal(res)
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "got " + string(b)}}}, nil
}

func TestSamplingReplyFlagAnswersAHeadlessCall(t *testing.T) {
	t.Parallel()
	code, out, errs := runSafe(t, "call", "sample", "--ndjson", "--protocol", "2025-11-25", "--sampling-reply", "forty-two", "--url", elicitingServer(t))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	assertSays(t, "--sampling-reply", out, `"sampling":{}`, `"method":"sampling/createMessage"`,
		`finding: sampling/createMessage has no maxTokens`, `answered with an assistant text message (9 bytes)`, `\"text\":\"forty-two\"`)
}

// --sampling-decline declares sampling and declines each request with the
// user-rejection error, as a person's decline in the terminal UI does; it
// and --sampling-reply are two answers, so both at once is a usage error.
func TestSamplingDeclineFlagDeclinesAHeadlessCall(t *testing.T) {
	t.Parallel()
	code, out, errs := runSafe(t, "call", "sample", "--ndjson", "--protocol", "2025-11-25", "--sampling-decline", "--url", elicitingServer(t))
	if code != exitConnect {
		t.Fatalf("exit %d, want %d (the tool failed on the declined request): %s", code, exitConnect, errs)
	}
	assertSays(t, "--sampling-decline", out, `"sampling":{}`, `"method":"sampling/createMessage"`,
		`"text":"declined: --sampling-decline"`, `"code":-1`, `User rejected sampling request`)
	code, _, errs = runSafe(t, "tools", "--sampling-reply", "x", "--sampling-decline")
	if code != exitUsage || !strings.Contains(errs, "give one") {
		t.Errorf("both sampling answers: exit %d, %s", code, errs)
	}
}

func TestElicitFlagAnswersAHeadlessCall(t *testing.T) {
	t.Parallel()
	url := elicitingServer(t)
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"age":"old"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ elicit, answer, event string }{
		{"accept-defaults", `got {"action":"accept","content":{"name":"Ada"}}`, `"text":"accept with the defaults of name"`},
		{"cancel", `got {"action":"cancel"}`, `"text":"cancel"`},
		{"@" + bad, `got {"action":"decline"}`, `does not match the requested schema: /age`},
	} {
		code, out, errs := runSafe(t, "call", "ask", "--ndjson", "--protocol", "2025-11-25", "--elicit", tc.elicit, "--url", url)
		if code != exitOK {
			t.Fatalf("--elicit %s: exit %d: %s", tc.elicit, code, errs)
		}
		assertSays(t, "--elicit "+tc.elicit, out, `"kind":"server-request"`, `"method":"elicitation/create"`, `"text":"asked"`, tc.event, strings.ReplaceAll(tc.answer, `"`, `\"`))
		if u := unsafeAt(out); u != "" {
			t.Errorf("--elicit %s: the output holds %s", tc.elicit, u)
		}
	}
	// Without the flag nothing is declared, so this server does not ask.
	code, out, _ := runSafe(t, "call", "ask", "--ndjson", "--protocol", "2025-11-25", "--url", url)
	if code == exitOK || !strings.Contains(out, `"capabilities":{}`) || !strings.Contains(out, "client does not support elicitation") {
		t.Errorf("without --elicit: exit %d\n%s", code, out)
	}
}

// Headless with no --elicit declares no elicitation. On 2026-07-28 a
// result that asks for a form anyway is declined, as --elicit decline
// would, the output says so (a finding: the server asked for what was not
// declared), the decline is sent, and the tool's answer to it is the
// call's answer. On 2025-11-25 the server cannot ask, and its own error
// is the answer: never exit 0 with empty content.
func TestCallWithoutElicitEndsHonestly(t *testing.T) {
	t.Parallel()
	code, out, errs := runSafe(t, "call", "ask_form", "--protocol", "2026-07-28")
	if code != exitOK {
		t.Errorf("2026-07-28: exit %d: %s", code, errs)
	}
	assertSays(t, "2026-07-28", out, "did not declare; declined the server's elicitation (no --elicit given)", "the user chose decline")
	if strings.Contains(out, "could not take this result") {
		t.Errorf("2026-07-28: the decline was not sent:\n%s", out)
	}
	code, out, _ = runSafe(t, "call", "ask_form", "--protocol", "2025-11-25", "--ndjson")
	if code == exitOK || !strings.Contains(out, `"capabilities":{}`) || !strings.Contains(out, "client does not support elicitation") {
		t.Errorf("2025-11-25: exit %d, want the server's refusal of an undeclared client\n%s", code, out)
	}
}

// A result that still asks for input nothing answered (sampling with no
// --sampling-reply, on 2026-07-28) is not an answer: the call fails with a
// check's code and names the flag that answers it.
func TestCallStillAskingForInputFails(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{}, {"--json"}} {
		code, out, errs := runSafe(t, append([]string{"call", "ask_sampling", "--protocol", "2026-07-28"}, args...)...)
		if code != exitCheck || !strings.Contains(errs, "still asks for input") || !strings.Contains(errs, "--sampling-reply") {
			t.Errorf("%q: exit %d, want %d naming --sampling-reply: %s\n%s", args, code, exitCheck, errs, out)
		}
	}
}

func TestElicitAndSamplingBadFilesAreUsageErrors(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"--elicit", "@/nonexistent/answer.json"},
		{"--elicit", "yes"},
		{"--sampling-reply", "@/nonexistent/reply.json"},
	} {
		code, _, errs := runSafe(t, append([]string{"tools"}, args...)...)
		if code != exitUsage || !strings.Contains(errs, args[0]) || !strings.Contains(errs, strings.TrimPrefix(args[1], "@")) {
			t.Errorf("%q: exit %d, %s", args, code, errs)
		}
	}
}

// A URL request, headless: --elicit declares URL mode, the URL is printed
// whole with its controls made visible (never opened), and the action
// answers it.
func TestElicitFlagAnswersAURLRequestHeadless(t *testing.T) {
	t.Parallel()
	url := elicitingServer(t)
	for _, tc := range []struct{ elicit, answer string }{
		{"accept-defaults", `got {"action":"accept"}`},
		{"decline", `got {"action":"decline"}`},
		{"cancel", `got {"action":"cancel"}`},
	} {
		code, out, errs := runSafe(t, "call", "ask_url", "--protocol", "2025-11-25", "--elicit", tc.elicit, "--url", url)
		if code != exitOK {
			t.Fatalf("--elicit %s: exit %d: %s", tc.elicit, code, errs)
		}
		assertSays(t, "--elicit "+tc.elicit, out, "server elicitation/create ask-1 (call #1): asked: Sign in",
			"server elicitation/create ask-1 (call #1): URL to open: https://example.com/sign-in?next=", "(URL mode)", tc.answer)
		if u := unsafeAt(out); u != "" {
			t.Errorf("--elicit %s: the output holds %s", tc.elicit, u)
		}
	}
}

// --root answers roots/list headless, and declares roots; the request and
// its answer are printed as they come.
func TestRootFlagAnswersRootsListHeadless(t *testing.T) {
	t.Parallel()
	url, dir := elicitingServer(t), t.TempDir()
	code, out, errs := runSafe(t, "call", "read_roots", "--protocol", "2025-11-25", "--root", dir, "--url", url)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	assertSays(t, "--root", out, "server roots/list: answered with 1 root", `"uri":"file://`+filepath.ToSlash(dir))
	// Without it roots are not declared; a server asking anyway gets no
	// roots, and the request is a finding.
	code, out, _ = runSafe(t, "call", "read_roots", "--ndjson", "--protocol", "2025-11-25", "--url", url)
	if code != exitOK || !strings.Contains(out, `"capabilities":{}`) || !strings.Contains(out, "answered with no roots; roots were not declared") {
		t.Errorf("without --root: exit %d, want roots undeclared, the request a finding\n%s", code, out)
	}
}
