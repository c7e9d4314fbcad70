package demo

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestResources(t *testing.T) {
	ctx := context.Background()
	cs, _ := connect(t, nil, nil, legacy)
	var all []*mcp.Resource
	for r, err := range cs.Resources(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, r)
	}
	if n := len(all); n <= 2*DefaultPageSize {
		t.Errorf("got %d resources, want more than two pages of %d", n, DefaultPageSize)
	}
	for _, r := range all {
		if r.URI == BrokenResourceURI {
			continue
		}
		got, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: r.URI})
		if err != nil {
			t.Errorf("read %s: %v", r.URI, err)
			continue
		}
		if len(got.Contents) != 1 || got.Contents[0].Text == "" || got.Contents[0].URI != r.URI {
			t.Errorf("read %s: %+v", r.URI, got.Contents)
		}
		if r.MIMEType == "application/json" && !json.Valid([]byte(got.Contents[0].Text)) {
			t.Errorf("%s is not JSON: %s", r.URI, got.Contents[0].Text)
		}
	}

	tpl, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil || len(tpl.ResourceTemplates) != 3 {
		t.Fatalf("templates: %v, %v", tpl, err)
	}
	got, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "demo://weather/Lisbon"})
	if err != nil || !strings.Contains(got.Contents[0].Text, "Weather for Lisbon") {
		t.Errorf("read demo://weather/Lisbon: %v, %v", got, err)
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "demo://nothing-here"}); err == nil {
		t.Errorf("reading an unknown resource succeeded")
	}
}

func TestPrompts(t *testing.T) {
	ctx := context.Background()
	cs, _ := connect(t, nil, nil, legacy)
	res, err := cs.ListPrompts(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(res.Prompts); n < 2 || n > 3 {
		t.Errorf("got %d prompts, want 2 or 3", n)
	}
	for _, p := range res.Prompts {
		if len(p.Arguments) == 0 || !p.Arguments[0].Required {
			t.Errorf("prompt %s: want a required first argument, got %+v", p.Name, p.Arguments)
		}
		args := map[string]string{p.Arguments[0].Name: "panic: runtime error: index out of range"}
		got, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: p.Name, Arguments: args})
		if err != nil {
			t.Errorf("get %s: %v", p.Name, err)
			continue
		}
		if len(got.Messages) != 1 || !strings.Contains(got.Messages[0].Content.(*mcp.TextContent).Text, "index out of range") {
			t.Errorf("get %s: %+v", p.Name, got.Messages)
		}
		if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: p.Name}); err == nil || !strings.Contains(err.Error(), p.Arguments[0].Name) {
			t.Errorf("get %s without its required argument: %v", p.Name, err)
		}
	}
}

func TestListsPageAtPageSize(t *testing.T) {
	ctx := context.Background()
	cs, _ := connect(t, &Options{PageSize: 2}, nil, legacy)
	var pages, items int
	for cursor := ""; ; {
		res, err := cs.ListResources(ctx, &mcp.ListResourcesParams{Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		pages, items = pages+1, items+len(res.Resources)
		if len(res.Resources) > 2 {
			t.Errorf("a resources page holds %d", len(res.Resources))
		}
		if cursor = res.NextCursor; cursor == "" {
			break
		}
	}
	if pages != (items+1)/2 || pages < 2 {
		t.Errorf("%d resources in %d pages of 2", items, pages)
	}
	res, err := cs.ListPrompts(ctx, nil)
	if err != nil || len(res.Prompts) != 2 || res.NextCursor == "" {
		t.Errorf("first prompts page: %v, %v; want 2 prompts and a cursor", res, err)
	}
}

// ttls returns the ttlMs of every answer among frames, by method-less
// answer kind (the member that holds its items).
func ttls(t *testing.T, frames [][]byte) map[string][]int {
	t.Helper()
	out := map[string][]int{}
	for _, f := range frames {
		var msg struct {
			Result map[string]json.RawMessage `json:"result"`
		}
		json.Unmarshal(f, &msg)
		ttl, ok := msg.Result["ttlMs"]
		if !ok {
			continue
		}
		var n int
		json.Unmarshal(ttl, &n)
		for _, kind := range []string{"tools", "prompts", "resources", "resourceTemplates", "contents"} {
			if _, ok := msg.Result[kind]; ok {
				out[kind] = append(out[kind], n)
			}
		}
	}
	return out
}

func TestTTL(t *testing.T) {
	ctx := context.Background()
	listAll := func(cs *mcp.ClientSession) {
		walk(t, cs)
		cs.ListPrompts(ctx, nil)
		cs.ListResources(ctx, nil)
		cs.ListResourceTemplates(ctx, nil)
		cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "demo://readme"})
	}
	for _, tc := range []struct {
		ttl, want int
	}{{5000, 5000}, {0, 0}, {-1, 0}} {
		cs, tp := connect(t, &Options{TTLMs: tc.ttl}, nil, legacy)
		listAll(cs)
		got := ttls(t, tp.Frames())
		for _, kind := range []string{"tools", "prompts", "resources", "resourceTemplates"} {
			if len(got[kind]) == 0 {
				t.Errorf("TTLMs %d: no %s answer carries ttlMs", tc.ttl, kind)
			}
			for _, n := range got[kind] {
				if n != tc.want {
					t.Errorf("TTLMs %d: a %s page advertises ttlMs %d, want %d", tc.ttl, kind, n, tc.want)
				}
			}
		}
		for _, n := range got["contents"] {
			if n != 0 {
				t.Errorf("TTLMs %d: resources/read advertises ttlMs %d, want 0 (lists only)", tc.ttl, n)
			}
		}
	}

	// On protocol 2026-07-28 the SDK client obeys ttlMs: a second walk within
	// the TTL never reaches the wire. This is why a refresh that must reach
	// the server cannot go through ClientSession.ListTools.
	cs, tp := connect(t, &Options{TTLMs: 60000}, nil, nil)
	walk(t, cs)
	first := len(ttls(t, tp.Frames())["tools"])
	walk(t, cs)
	if again := len(ttls(t, tp.Frames())["tools"]); again != first {
		t.Errorf("second walk read %d more tools pages from the wire; the SDK's TTL cache is expected to answer it", again-first)
	}
}
