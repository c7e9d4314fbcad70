package report_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mcpwitness/report"
	"mcpwitness/session"
)

// versioned returns a small server as it was (v1) and after a release (v2):
// omega removed, epsilon added, beta's description and input schema
// changed, delta's title and annotations, alpha's _meta; gamma's answer
// no longer matches its output schema; and v2 lists beta before alpha.
func versioned(v int) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "shop", Version: map[int]string{1: "1.0.0", 2: "2.0.0"}[v]}, &mcp.ServerOptions{PageSize: 2})
	obj := json.RawMessage(`{"type":"object"}`)
	ok := func(structured any) mcp.ToolHandler {
		return func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}, StructuredContent: structured}, nil
		}
	}
	alpha := &mcp.Tool{Name: "alpha", Description: "First.", InputSchema: obj}
	beta := &mcp.Tool{Name: "beta", Description: "Second.", InputSchema: obj}
	delta := &mcp.Tool{Name: "delta", Description: "Fourth.", InputSchema: obj}
	gamma := &mcp.Tool{Name: "gamma", Description: "Third.", InputSchema: obj,
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"number"}},"required":["n"]}`)}
	gammaAnswer := ok(map[string]any{"n": 1})
	if v == 2 {
		alpha.Meta = mcp.Meta{"shop/owner": "team-a"}
		beta.Description = "Second, now with options."
		beta.InputSchema = json.RawMessage(`{"type":"object","properties":{"fast":{"type":"boolean"}}}`)
		delta.Title = "Delta"
		delta.Annotations = &mcp.ToolAnnotations{ReadOnlyHint: true}
		gammaAnswer = ok(map[string]any{"n": "one"})
		s.AddTool(&mcp.Tool{Name: "epsilon", Description: "New.", InputSchema: obj}, ok(nil))
		s.AddReceivingMiddleware(betaFirst)
	} else {
		s.AddTool(&mcp.Tool{Name: "omega", Description: "Last.", InputSchema: obj}, ok(nil))
	}
	for _, t := range []*mcp.Tool{alpha, beta, delta} {
		s.AddTool(t, ok(nil))
	}
	s.AddTool(gamma, gammaAnswer)
	return s
}

// betaFirst swaps the first two tools of a tools/list page.
func betaFirst(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if r, ok := res.(*mcp.ListToolsResult); ok && len(r.Tools) > 1 && r.Tools[0].Name == "alpha" {
			r.Tools[0], r.Tools[1] = r.Tools[1], r.Tools[0]
		}
		return res, err
	}
}

func shopSession(t *testing.T, v int) string {
	t.Helper()
	target := session.Target{URL: "https://shop.example/mcp", Headers: []string{"Authorization: Bearer canary-diff-9f8e7d6c5b"}}
	return recordSession(t, versioned(v), target, []step{walk(), call("gamma", `{}`), call("beta", `{}`)})
}

func compare(t *testing.T, a, b string) *report.Difference {
	t.Helper()
	d, err := report.Compare(openFile(t, a), openFile(t, b))
	if err != nil {
		t.Fatal(err)
	}
	// The files' paths differ on every run.
	d.Before.File, d.After.File = "before.jsonl", "after.jsonl"
	return d
}

func TestDiffGolden(t *testing.T) {
	d := compare(t, shopSession(t, 1), shopSession(t, 2))
	if d.Equal {
		t.Fatal("Equal for two versions of the server")
	}
	t.Run("text", func(t *testing.T) {
		var b bytes.Buffer
		if err := d.WriteText(&b, testScrubber(t)); err != nil {
			t.Fatal(err)
		}
		golden.RequireEqual(t, b.String())
	})
	t.Run("json", func(t *testing.T) {
		b, err := json.MarshalIndent(d, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		golden.RequireEqual(t, string(b)+"\n")
	})
}

func TestDiffEqual(t *testing.T) {
	a, b := shopSession(t, 1), shopSession(t, 1)
	d := compare(t, a, b)
	if !d.Equal {
		t.Fatalf("two recordings of the same server differ: %+v", d)
	}
	var out bytes.Buffer
	if err := d.WriteText(&out, testScrubber(t)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "no differences: the same 5 tools in the same order on the same pages, and the same verdicts for the 2 tools called in both") {
		t.Errorf("text = %s", out.String())
	}
}

// Two files that called no tool in common have no verdicts to compare: an
// equal difference says so instead of claiming the same verdicts.
func TestDiffEqualWithNoCallInCommon(t *testing.T) {
	target := session.Target{URL: "https://shop.example/mcp"}
	a := recordSession(t, versioned(1), target, []step{walk(), call("gamma", `{}`)})
	b := recordSession(t, versioned(1), target, []step{walk(), call("beta", `{}`)})
	d := compare(t, a, b)
	if !d.Equal {
		t.Fatalf("the same tools, called apart, differ: %+v", d)
	}
	var out bytes.Buffer
	if err := d.WriteText(&out, testScrubber(t)); err != nil {
		t.Fatal(err)
	}
	if s := out.String(); !strings.Contains(s, "no differences: the same 5 tools in the same order on the same pages, no tool called in both to compare verdicts") ||
		strings.Contains(s, "the same verdicts") {
		t.Errorf("text = %s", s)
	}
}

func TestDiffNeedsACompleteWalk(t *testing.T) {
	noWalk := recordSession(t, versioned(1), session.Target{Name: "shop"}, []step{call("alpha", `{}`)})
	withWalk := shopSession(t, 1)
	_, err := report.Compare(openFile(t, withWalk), openFile(t, noWalk))
	if err == nil || !strings.Contains(err.Error(), noWalk+" has no complete tools/list walk: it has no tools/list walk; record one with: mcpwitness tools --record FILE") {
		t.Errorf("error = %v", err)
	}
}
