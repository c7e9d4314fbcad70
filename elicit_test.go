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
	// Without the flag, elicitation is declared and declined, and the
	// answer says no flag was given.
	code, out, errs := runSafe(t, "call", "ask", "--ndjson", "--protocol", "2025-11-25", "--url", url)
	if code != exitOK {
		t.Fatalf("without --elicit: exit %d: %s", code, errs)
	}
	assertSays(t, "without --elicit", out, `"elicitation":{"form":{},"url":{}}`,
		`"text":"declined the server's elicitation (no --elicit given)"`, `got {\"action\":\"decline\"}`)
}

// A call whose server asks for a form ends the same way on every protocol,
// whether the server asks by a request (2025-11-25) or by input requests
// in its result (2026-07-28): with no --elicit it is declined, as --elicit
// decline would, the output says so, and the tool's answer to the decline
// is the call's answer.
func TestCallWithoutElicitDeclinesOnEveryProtocol(t *testing.T) {
	for _, protocol := range []string{"2025-11-25", "2026-07-28"} {
		code, out, errs := runSafe(t, "call", "ask_form", "--protocol", protocol)
		if code != exitOK {
			t.Errorf("%s: exit %d: %s", protocol, code, errs)
		}
		assertSays(t, protocol, out, "server elicitation/create ask-1: declined the server's elicitation (no --elicit given)",
			"the user chose decline")
		if strings.Contains(out, "could not take this result") {
			t.Errorf("%s: the decline was not sent:\n%s", protocol, out)
		}
	}
}

// A result that still asks for input nothing answered (sampling with no
// --sampling-reply, on 2026-07-28) is not an answer: the call fails with a
// check's code and names the flag that answers it.
func TestCallStillAskingForInputFails(t *testing.T) {
	for _, args := range [][]string{{}, {"--json"}} {
		code, out, errs := runSafe(t, append([]string{"call", "ask_sampling", "--protocol", "2026-07-28"}, args...)...)
		if code != exitCheck || !strings.Contains(errs, "still asks for input") || !strings.Contains(errs, "--sampling-reply") {
			t.Errorf("%q: exit %d, want %d naming --sampling-reply: %s\n%s", args, code, exitCheck, errs, out)
		}
	}
}

func TestElicitAndSamplingBadFilesAreUsageErrors(t *testing.T) {
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
	url, dir := elicitingServer(t), t.TempDir()
	code, out, errs := runSafe(t, "call", "read_roots", "--protocol", "2025-11-25", "--root", dir, "--url", url)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	assertSays(t, "--root", out, "server roots/list: answered with 1 root", `"uri":"file://`+filepath.ToSlash(dir))
	// Without it roots are not declared (elicitation alone is: see
	// TestCallWithoutElicitDeclinesOnEveryProtocol); a server asking anyway
	// gets no roots, and the request is a finding.
	code, out, _ = runSafe(t, "call", "read_roots", "--ndjson", "--protocol", "2025-11-25", "--url", url)
	if code != exitOK || !strings.Contains(out, `"capabilities":{"elicitation":{"form":{},"url":{}}}`) || !strings.Contains(out, "answered with no roots; roots were not declared") {
		t.Errorf("without --root: exit %d, want roots undeclared, the request a finding\n%s", code, out)
	}
}
