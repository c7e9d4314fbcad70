package record_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mcpwitness/paging"
	"mcpwitness/record"
	"mcpwitness/session"
)

var writeSeeds = flag.Bool("write-seeds", false, "record the fuzz seeds in testdata/ again")

// seedServer is a small server whose recordings make small seeds: two pages
// of tools, one answering valid structured content, one invalid, one with
// no output schema.
func seedServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "seed", Version: "1.0.0"}, &mcp.ServerOptions{PageSize: 2})
	schema := json.RawMessage(`{"type":"object","properties":{"n":{"type":"number"}},"required":["n"]}`)
	answer := func(structured any) mcp.ToolHandler {
		return func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}, StructuredContent: structured}, nil
		}
	}
	in := json.RawMessage(`{"type":"object"}`)
	s.AddTool(&mcp.Tool{Name: "good", InputSchema: in, OutputSchema: schema}, answer(map[string]any{"n": 1}))
	s.AddTool(&mcp.Tool{Name: "bad", InputSchema: in, OutputSchema: schema}, answer(map[string]any{"n": "one"}))
	s.AddTool(&mcp.Tool{Name: "echo", InputSchema: in}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(req.Params.Arguments)}}}, nil
	})
	return s
}

// recordSeed records a session with the seed server: a walk and the calls
// given, through a redactor that knows the secrets of a made-up HTTP
// target, so the seed holds placeholders where secrets were.
func recordSeed(t *testing.T, calls ...[2]string) []byte {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := seedServer().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	shown := session.Target{URL: "http://seed-user:seed-password@127.0.0.1:1/mcp?key=seed-key", Headers: []string{"Authorization: Bearer seed-token"}}
	var buf bytes.Buffer
	log := record.NewLog(nil)
	rec, err := record.NewRecorder(&buf, record.NewHeader("mcpwitness seed", shown.Describe()), shown.Secrets())
	if err != nil {
		t.Fatal(err)
	}
	log.AddSink(rec.Write)
	s, err := session.Dial(ctx, session.Target{Transport: ct, Name: "seed"}, &session.Options{Log: log, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	if _, res := s.Walk(ctx, paging.Tools()); res.Incomplete != paging.Complete {
		t.Fatalf("walk: %q %v", res.Incomplete, res.Err)
	}
	for _, c := range calls {
		s.Call(ctx, c[0], json.RawMessage(c[1]), nil)
	}
	s.Close()
	log.Close()
	return buf.Bytes()
}

func TestFuzzSeeds(t *testing.T) {
	if *writeSeeds {
		for name, calls := range record.SeedCalls {
			if err := os.WriteFile(filepath.Join("testdata", name), recordSeed(t, calls...), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for name, b := range record.ReadSeeds(t) {
		f, err := record.NewFile(bytes.NewReader(b), int64(len(b)), name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(f.Warnings()) != 0 || f.Len() != bytes.Count(b, []byte("\n"))-1 {
			t.Errorf("%s: %d events, warnings %q; want every line after the header", name, f.Len(), f.Warnings())
		}
		for _, secret := range []string{"seed-user", "seed-password", "seed-key", "seed-token"} {
			if bytes.Contains(b, []byte(secret)) {
				t.Errorf("%s holds the secret %q", name, secret)
			}
		}
	}
}
