package main

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mcpwitness/internal/hostiletest"
)

// junitDoc is what a CI system reads of --junit's file.
type junitDoc struct {
	Tests    int `xml:"tests,attr"`
	Failures int `xml:"failures,attr"`
	Errors   int `xml:"errors,attr"`
	Suites   []struct {
		Name  string `xml:"name,attr"`
		Props []struct {
			Name  string `xml:"name,attr"`
			Value string `xml:"value,attr"`
		} `xml:"properties>property"`
		Cases []struct {
			Name    string    `xml:"name,attr"`
			Failure *struct{} `xml:"failure"`
			Error   *struct {
				Message string `xml:"message,attr"`
			} `xml:"error"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func readJUnit(t *testing.T, path string) junitDoc {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc junitDoc
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("--junit wrote no valid XML: %v\n%s", err, b)
	}
	return doc
}

// checkConfig is a config of the demo server twice, a server with a cursor
// loop, and a server that fails at start.
func checkConfig(t *testing.T) string {
	t.Helper()
	entry := func(cmd string, args ...string) map[string]any { return map[string]any{"command": cmd, "args": args} }
	b, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"demo":    entry(testBinary(t), "demo-server"),
		"copy":    entry(testBinary(t), "demo-server"),
		"loop":    entry(hostiletest.Build(t), "-mode", "cursor-loop"),
		"missing": entry("/nonexistent/mcp-server"),
	}})
	return writeConfig(t, string(b))
}

func TestCheckConfigEveryServer(t *testing.T) {
	t.Parallel()
	file := checkConfig(t)
	junit := filepath.Join(t.TempDir(), "check.xml")
	code, out, stderr := runCLI(t, "check", "--config", file, "--junit", junit)
	if code != exitConnect {
		t.Fatalf("exit %d, want 1 (one server fails at start)\n%s%s", code, out, stderr)
	}
	var summary []string
	for _, l := range strings.Split(out, "\n") {
		if l != "" && !strings.HasPrefix(l, " ") {
			summary = append(summary, l)
		}
	}
	if len(summary) != 4 || !strings.HasPrefix(summary[3], "3 servers") {
		t.Fatalf("want one line per server and a total, got:\n%s", out)
	}
	for i, want := range []string{"✗ missing", "⚠ copy = demo", "⚠ loop"} {
		// The lines are in the order of the servers' names.
		found := false
		for _, l := range summary[:3] {
			found = found || strings.HasPrefix(l, want)
		}
		if !found {
			t.Errorf("line %d: no line starts %q:\n%s", i, want, out)
		}
	}
	if !strings.Contains(out, "could not connect") || !strings.Contains(out, "cursor-repeated") || !strings.Contains(out, "config ") {
		t.Errorf("summary lacks the cause, the finding or the hash:\n%s", out)
	}

	doc := readJUnit(t, junit)
	if len(doc.Suites) != 3 || doc.Errors != 1 || doc.Failures < 2 {
		t.Fatalf("junit: %+v", doc)
	}
	suites := map[string]int{}
	for i, s := range doc.Suites {
		suites[s.Name] = i
	}
	missing, loop, demo := doc.Suites[suites["missing"]], doc.Suites[suites["loop"]], doc.Suites[suites["copy = demo"]]
	if len(missing.Cases) != 1 || missing.Cases[0].Error == nil || !strings.Contains(missing.Cases[0].Error.Message, "nonexistent") {
		t.Errorf("missing suite: %+v", missing)
	}
	if loop.Cases[0].Name != "walks" || loop.Cases[0].Failure == nil {
		t.Errorf("loop suite's walks case did not fail: %+v", loop)
	}
	if len(demo.Props) == 0 || demo.Props[0].Name != "configHash" || len(demo.Props[0].Value) != 64 {
		t.Errorf("demo suite has no config hash: %+v", demo)
	}

	// --json: one document for all the servers, which a JSON parser takes
	// whole; each server's entry with its hash and names.
	code, out, _ = runCLI(t, "check", "--json", "--config", file)
	if code != exitConnect {
		t.Errorf("--json: exit %d, want 1", code)
	}
	var report checkReportDoc
	if err := json.Unmarshal([]byte(out), &report); err != nil {
		t.Fatalf("--json is not one JSON document: %v\n%s", err, out)
	}
	if report.Kind != "check" || report.SchemaVersion != schemaVersion || len(report.Servers) != 3 {
		t.Fatalf("--json: kind %q, schema %d, %d servers, want check, %d, 3", report.Kind, report.SchemaVersion, len(report.Servers), schemaVersion)
	}
	for _, d := range report.Servers {
		if len(d.Server.ConfigHash) != 64 || len(d.Names) == 0 {
			t.Errorf("entry without hash or names: %+v", d)
		}
		if d.Names[0] != "missing" {
			continue
		}
		if d.Error == nil || !strings.Contains(d.Error.Message, "nonexistent") || d.Error.Code != codeConnect || d.Error.ExitCode != exitConnect {
			t.Errorf("the failed server's entry has no connect error: %+v", d.Error)
		}
	}
}

func TestCheckJUnitOneServer(t *testing.T) {
	t.Parallel()
	junit := filepath.Join(t.TempDir(), "check.xml")
	code, _, stderr := runCLI(t, "check", "--junit", junit)
	if code != exitCheck {
		t.Fatalf("exit %d, want 3 (the demo's unresolved $ref)\n%s", code, stderr)
	}
	if st, err := os.Stat(junit); err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("--junit file: %v, mode %v, want 0644", err, st.Mode().Perm())
	}
	doc := readJUnit(t, junit)
	if len(doc.Suites) != 1 || len(doc.Suites[0].Cases) != 5 {
		t.Fatalf("junit: %+v", doc)
	}
	for _, c := range doc.Suites[0].Cases {
		if (c.Name == "schemas") != (c.Failure != nil) {
			t.Errorf("case %s failed = %v; only schemas should fail", c.Name, c.Failure != nil)
		}
	}
	code, _, stderr = runCLI(t, "check", "--junit", junit, "--", "/nonexistent/mcp-server")
	if code != exitConnect {
		t.Errorf("unreachable: exit %d, want 1", code)
	}
	if doc := readJUnit(t, junit); doc.Errors != 1 {
		t.Errorf("unreachable: junit %+v\n%s", doc, stderr)
	}
	if code, _, stderr := runCLI(t, "tools", "--junit", junit); code != exitUsage || !strings.Contains(stderr, "--junit is not a flag of tools (only of check)") {
		t.Errorf("tools --junit: exit %d %s", code, stderr)
	}
}

// A server that exits at start has its cause on its line and the stderr
// it quotes under it, a line each, not folded into one line as "\n".
func TestCheckConfigQuotesStderrUnderTheServer(t *testing.T) {
	t.Parallel()
	b, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"quits": map[string]any{"command": hostiletest.Build(t), "args": []string{"-mode", hostiletest.ModeExitAtOnce}},
		"works": map[string]any{"command": hostiletest.Build(t), "args": []string{"-mode", hostiletest.ModeNormal}},
	}})
	code, out, stderr := runCLI(t, "check", "--config", writeConfig(t, string(b)))
	if code != exitConnect {
		t.Fatalf("exit %d, want 1\n%s%s", code, out, stderr)
	}
	lines := strings.Split(out, "\n")
	if !strings.HasPrefix(lines[0], "✗ quits") || !strings.HasSuffix(lines[0], "its stderr ends with:") || strings.Contains(out, `\n`) {
		t.Fatalf("the server's line:\n%s%s", out, stderr)
	}
	if len(lines) < 2 || strings.TrimSpace(lines[1]) != "cannot start: missing API key" || !strings.HasPrefix(lines[1], "    ") {
		t.Errorf("the stderr quoted under it:\n%s", out)
	}
}
