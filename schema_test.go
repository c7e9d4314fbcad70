package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kaptinlin/jsonschema"

	"mcpwitness/internal/hostiletest"
)

// schemaDir holds the JSON Schema of every command's --json document.
const schemaDir = "docs/schemas"

// sharedSchemas are the schemas the command schemas refer to, loaded
// first and explicitly: the compiler fetches nothing.
var sharedSchemas = []string{"common.json", "error.json"}

// documentSchemas compiles every schema of docs/schemas, keyed by file
// name, and fails the test when one does not compile or holds a $ref that
// does not resolve (such a schema compiles, and then accepts anything).
func documentSchemas(t *testing.T) map[string]*jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	clear(c.Loaders)
	files, err := filepath.Glob(filepath.Join(schemaDir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no schemas in %s: %v", schemaDir, err)
	}
	slices.SortFunc(files, func(a, b string) int {
		return boolOrder(slices.Contains(sharedSchemas, filepath.Base(b))) - boolOrder(slices.Contains(sharedSchemas, filepath.Base(a)))
	})
	out := map[string]*jsonschema.Schema{}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := c.Compile(raw)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[filepath.Base(f)] = s
	}
	for name, s := range out {
		if refs := s.UnresolvedReferenceURIs(); len(refs) > 0 {
			t.Errorf("%s: $ref %v does not resolve", name, refs)
		}
	}
	return out
}

func boolOrder(b bool) int {
	if b {
		return 1
	}
	return 0
}

// validateDocument checks that out is exactly one JSON document valid
// against schema, and returns it.
func validateDocument(t *testing.T, schemas map[string]*jsonschema.Schema, schema, out string) map[string]any {
	t.Helper()
	s := schemas[schema]
	if s == nil {
		t.Fatalf("no schema %s in %s", schema, schemaDir)
	}
	doc := decodeStrict(t, out)
	if res := s.Validate(doc); !res.IsValid() {
		why, _ := json.MarshalIndent(res.ToList(false), "", "  ")
		t.Errorf("the document does not match %s:\n%s\n%.3000s", schema, why, out)
	}
	return doc
}

// documentError is the error object of a document: the top-level one of
// an error document, or a request's.
func documentError(doc map[string]any) map[string]any {
	e, _ := doc["error"].(map[string]any)
	return e
}

// The schemas catch drift: a field they do not describe, a missing field
// and a wrong type are each refused, in a document and in a shared block.
func TestSchemasRefuseDrift(t *testing.T) {
	t.Parallel()
	schemas := documentSchemas(t)
	_, out, stderr := runCLI(t, "ping", "--json")
	good := validateDocument(t, schemas, "ping.json", out)
	if t.Failed() {
		t.Fatalf("the ping document does not match its schema: %s", stderr)
	}
	mutations := map[string]func(doc map[string]any){
		"an extra field":              func(d map[string]any) { d["extra"] = true },
		"no schemaVersion":            func(d map[string]any) { delete(d, "schemaVersion") },
		"another schemaVersion":       func(d map[string]any) { d["schemaVersion"] = 2.0 },
		"an extra server field":       func(d map[string]any) { d["server"].(map[string]any)["extra"] = "x" },
		"a server without its target": func(d map[string]any) { delete(d["server"].(map[string]any), "target") },
		"a duration as a string":      func(d map[string]any) { d["durationsMs"] = []any{"1ms"} },
	}
	for name, mutate := range mutations {
		doc := map[string]any{}
		b, _ := json.Marshal(good)
		_ = json.Unmarshal(b, &doc)
		mutate(doc)
		if schemas["ping.json"].Validate(doc).IsValid() {
			t.Errorf("%s: the schema accepts it", name)
		}
	}
	bad := map[string]any{"kind": "error", "schemaVersion": 1.0, "error": map[string]any{"code": "oops", "message": "m", "exitCode": 1.0}}
	if schemas["ping.json"].Validate(bad).IsValid() {
		t.Error("an error document with an unknown code is accepted")
	}
}

// schemaCase is one command line and the schema its --json output must
// match, with the exit code and the error code (for an error) it ends with.
type schemaCase struct {
	name   string
	args   []string
	schema string
	exit   int
	code   string // the error object's code; "" when the document has none
}

// Every command's --json output, success and error, matches its schema
// in docs/schemas/, and an error says its code and exit code.
func TestEveryDocumentMatchesItsSchema(t *testing.T) {
	schemas := documentSchemas(t)
	bin := hostiletest.Build(t)
	hostile := func(mode string) []string { return []string{"--", bin, "-mode", mode} }
	dir := t.TempDir()
	before, after := filepath.Join(dir, "before.jsonl"), filepath.Join(dir, "after.jsonl")
	for _, path := range []string{before, after} {
		if code, _, stderr := runCLI(t, "tools", "--record", path); code != exitOK {
			t.Fatalf("recording: exit %d: %s", code, stderr)
		}
	}
	config := filepath.Join(dir, "servers.json")
	writeServersConfig(t, config, testBinary(t))
	cases := []schemaCase{
		{"tools", []string{"tools"}, "tools.json", exitOK, ""},
		{"tools cursor loop", append([]string{"tools"}, hostile(hostiletest.ModeCursorLoop)...), "tools.json", exitCheck, ""},
		{"tools walk timeout", append([]string{"tools", "--timeout", "3s"}, hostile(hostiletest.ModeHangList)...), "tools.json", exitConnect, ""},
		{"tools no server", []string{"tools", "--", "/nonexistent/mcp-server"}, "tools.json", exitConnect, "connect"},
		{"tools usage", []string{"tools", "--max-pages", "0"}, "tools.json", exitUsage, "usage"},
		{"resources", []string{"resources"}, "resources.json", exitOK, ""},
		{"resources undeclared", append([]string{"resources"}, hostile(hostiletest.ModeNormal)...), "resources.json", exitOK, ""},
		{"prompts", []string{"prompts"}, "prompts.json", exitOK, ""},
		{"prompts undeclared", append([]string{"prompts"}, hostile(hostiletest.ModeNormal)...), "prompts.json", exitOK, ""},
		{"tasks", append([]string{"tasks"}, v2025...), "tasks.json", exitOK, ""},
		{"tasks undeclared", append([]string{"tasks"}, hostile(hostiletest.ModeNormal)...), "tasks.json", exitOK, ""},
		{"call", []string{"call", "add", "a=2", "b=3"}, "call.json", exitOK, ""},
		{"call task", append([]string{"call", "render_video", "storyboard=one", "--task"}, v2025...), "call.json", exitOK, ""},
		{"call failed check", []string{"call", "forecast_broken", "city=Oslo", "--walk-all"}, "call.json", exitCheck, ""},
		{"call not found", []string{"call", "nosuchtool"}, "call.json", exitUsage, "not-found"},
		{"call timeout", append([]string{"call", "tool_1_1", "--timeout", "3s"}, hostile(hostiletest.ModeHangCall)...), "call.json", exitConnect, "timeout"},
		{"read", []string{"read", "demo://readme"}, "read.json", exitOK, ""},
		{"read error answer", []string{"read", "demo://nothing-here"}, "read.json", exitConnect, "protocol"},
		{"prompt", []string{"prompt", "code_review", "code=x := 1", "language=go", "focus=style"}, "prompt.json", exitOK, ""},
		{"prompt not found", []string{"prompt", "no-such-prompt"}, "prompt.json", exitUsage, "not-found"},
		{"complete", []string{"complete", "--prompt", "code_review", "language=ja"}, "complete.json", exitOK, ""},
		{"ping", []string{"ping", "--count", "2"}, "ping.json", exitOK, ""},
		{"ping no server", []string{"ping", "--", "/nonexistent/mcp-server"}, "ping.json", exitConnect, "connect"},
		{"check", []string{"check"}, "check.json", exitCheck, ""},
		{"check servers", []string{"check", "--config", config}, "check.json", exitConnect, ""},
		{"diff", []string{"diff", before, after}, "diff.json", exitOK, ""},
		{"diff missing file", []string{"diff", before, filepath.Join(dir, "missing.jsonl")}, "diff.json", exitConnect, "io"},
		{"diff usage", []string{"diff", before}, "diff.json", exitUsage, "usage"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			args := append([]string{tc.args[0], "--json"}, tc.args[1:]...)
			code, out, stderr := runCLI(t, args...)
			if code != tc.exit {
				t.Errorf("exit %d, want %d: %s", code, tc.exit, stderr)
			}
			doc := validateDocument(t, schemas, tc.schema, out)
			if kind := strings.TrimSuffix(tc.schema, ".json"); doc["kind"] != kind && doc["kind"] != "error" {
				t.Errorf("kind %v, want %s or error", doc["kind"], kind)
			}
			if w, _ := doc["walk"].(map[string]any); w != nil && w["error"] != nil && doc["kind"] == "tools" {
				if we := w["error"].(map[string]any); we["code"] != "timeout" || we["cancelled"] != true {
					t.Errorf("the walk's error %v, want a timeout, cancelled", we)
				}
			}
			e := documentError(doc)
			if tc.code == "" {
				if doc["kind"] == "error" {
					t.Errorf("an error document: %s", out)
				}
				return
			}
			if e["code"] != tc.code || (doc["kind"] == "error" && e["exitCode"] != float64(tc.exit)) {
				t.Errorf("error %v, want code %s and exit code %d", e, tc.code, tc.exit)
			}
		})
	}
}

// writeServersConfig writes a config of two servers: the demo, and one
// that cannot start.
func writeServersConfig(t *testing.T, path, exe string) {
	t.Helper()
	cfg := map[string]any{"mcpServers": map[string]any{
		"demo":    map[string]any{"command": exe, "args": []string{"demo-server"}},
		"missing": map[string]any{"command": "/nonexistent/mcp-server"},
	}}
	b, _ := json.Marshal(cfg)
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// Every field the schemas name is described: a property has a
// description or is a $ref to a described block, and so has every block
// of $defs and every schema itself.
func TestSchemasDescribeEveryField(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join(schemaDir, "*.json"))
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		if err := json.Unmarshal(raw, &doc); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, where := range undescribed(doc, "") {
			t.Errorf("%s: %s has no description", filepath.Base(f), where)
		}
	}
}

// undescribed lists the JSON pointers under s of the schemas that should
// say what they are and do not: s itself, its $defs, its properties.
func undescribed(s map[string]any, at string) []string {
	var out []string
	if _, ok := s["description"]; !ok && s["$ref"] == nil && at == "" {
		out = append(out, "the schema")
	}
	for _, key := range []string{"$defs", "properties"} {
		children, _ := s[key].(map[string]any)
		for name, c := range children {
			child, _ := c.(map[string]any)
			where := at + "/" + key + "/" + name
			if _, ok := child["description"]; !ok && child["$ref"] == nil {
				out = append(out, where)
			}
			out = append(out, undescribed(child, where)...)
		}
	}
	for _, key := range []string{"items", "additionalProperties"} {
		if child, ok := s[key].(map[string]any); ok {
			out = append(out, undescribed(child, at+"/"+key)...)
		}
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		list, _ := s[key].([]any)
		for i, c := range list {
			if child, ok := c.(map[string]any); ok {
				out = append(out, undescribed(child, fmt.Sprintf("%s/%s/%d", at, key, i))...)
			}
		}
	}
	return out
}
