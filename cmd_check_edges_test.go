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

// junitErrors reads every error case of a JUnit report, by suite name.
func junitErrors(t *testing.T, b []byte) map[string]junitErrorCase {
	t.Helper()
	var doc struct {
		Suites []struct {
			Name  string `xml:"name,attr"`
			Cases []struct {
				Name  string `xml:"name,attr"`
				Error *struct {
					Message string `xml:"message,attr"`
					Text    string `xml:",chardata"`
				} `xml:"error"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("not JUnit XML: %v\n%s", err, b)
	}
	out := map[string]junitErrorCase{}
	for _, s := range doc.Suites {
		for _, c := range s.Cases {
			if c.Error != nil {
				out[s.Name] = junitErrorCase{c.Name, c.Error.Message, c.Error.Text}
			}
		}
	}
	return out
}

type junitErrorCase struct{ name, message, text string }

// One broken entry (an unset ${env:…}, a value of the wrong type, neither
// command nor url) spoils nothing else: every other server is checked,
// each broken entry is an error case "config" of its own in the JUnit
// report, a line of its own in the output and an error in its --json
// document, and the exit is the worst: 2, a broken config.
func TestCheckConfigBrokenEntriesAreTestCases(t *testing.T) {
	const unset = "MCPWITNESS_TEST_NEVER_SET_93F1"
	os.Unsetenv(unset)
	b, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"demo":    map[string]any{"command": testBinary(t), "args": []string{"demo-server"}},
		"unset":   map[string]any{"command": testBinary(t), "args": []string{"demo-server"}, "env": map[string]string{"TOKEN": "${env:" + unset + "}"}},
		"badargs": map[string]any{"command": testBinary(t), "args": "demo-server"},
		"empty":   map[string]any{},
	}})
	file := writeConfig(t, string(b))
	junit := filepath.Join(t.TempDir(), "check.xml")
	code, out, stderr := runCLI(t, "check", "--config", file, "--junit", junit)
	if code != exitUsage {
		t.Errorf("exit %d, want %d (a broken entry)\n%s%s", code, exitUsage, out, stderr)
	}
	assertSays(t, "the output", out, "demo · config ", "✗ unset · broken config entry: ", unset, "✗ badargs · broken config entry: ",
		"args holds a JSON string", "✗ empty · broken config entry: ", "neither a command nor a url", "3 broken config entries")
	x, err := os.ReadFile(junit)
	if err != nil {
		t.Fatalf("no JUnit report: %v\n%s", err, stderr)
	}
	errs := junitErrors(t, x)
	for name, want := range map[string]string{"unset": unset, "badargs": "args", "empty": "neither"} {
		if c := errs[name]; c.name != "config" || !strings.Contains(c.message, want) {
			t.Errorf("%s: JUnit error case %+v, want case config saying %q", name, c, want)
		}
	}
	if _, ok := errs["demo"]; ok || !strings.Contains(string(x), `name="demo"`) {
		t.Errorf("the demo server was not checked:\n%s", x)
	}

	code, out, _ = runCLI(t, "check", "--json", "--config", file)
	if code != exitUsage || !strings.Contains(out, unset) || !strings.Contains(out, `"demo"`) {
		t.Errorf("--json: exit %d:\n%s", code, out)
	}
}

// A server that dies at start: the JUnit error's message is one line, its
// cause, and the element's text holds all of it, the quoted stderr too.
func TestCheckJUnitErrorMessageIsTheCause(t *testing.T) {
	t.Parallel()
	junit := filepath.Join(t.TempDir(), "check.xml")
	code, out, stderr := runCLI(t, "check", "--junit", junit, "--", hostiletest.Build(t), "-mode", hostiletest.ModeExitAtOnce)
	if code != exitConnect {
		t.Fatalf("exit %d\n%s%s", code, out, stderr)
	}
	x, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	var c junitErrorCase
	for _, c = range junitErrors(t, x) {
	}
	if c.message == "" || strings.Contains(c.message, `\n`) || strings.Contains(c.message, "missing API key") ||
		!strings.Contains(c.text, "\n") || !strings.Contains(c.text, "cannot start: missing API key") {
		t.Errorf("error case %+v\n%s", c, x)
	}
}

// --junit's path is checked before any server is started: a directory that
// does not exist is a usage error naming the path given (not a temporary
// file), and no server ran.
func TestCheckJUnitPathIsCheckedFirst(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	started := filepath.Join(dir, "started")
	bad := filepath.Join(dir, "no", "such", "check.xml")
	for _, target := range [][]string{
		{"--", "sh", "-c", "touch " + started},
		{"--config", writeConfig(t, `{"mcpServers":{"a":{"command":"sh","args":["-c","touch `+started+`"]},"b":{"command":"sh","args":["-c","touch `+started+`"]}}}`)},
	} {
		code, _, stderr := runCLI(t, append([]string{"check", "--junit", bad}, target...)...)
		if code != exitUsage || !strings.Contains(stderr, "--junit "+bad) || strings.Contains(stderr, ".junit-") {
			t.Errorf("%q: exit %d, want %d naming the path: %s", target, code, exitUsage, stderr)
		}
		if _, err := os.Stat(started); err == nil {
			t.Fatalf("%q: a server was started before --junit was found bad", target)
		}
	}
}

// --junit - writes the report to stdout, and what is said to a person to
// stderr; with --json (whose document is stdout's too) it is a usage error.
func TestCheckJUnitToStdout(t *testing.T) {
	t.Parallel()
	code, out, stderr := runCLI(t, "check", "--junit", "-")
	if code != exitCheck { // the demo has a finding
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var doc junitDoc
	if err := xml.Unmarshal([]byte(out), &doc); err != nil || len(doc.Suites) != 1 {
		t.Fatalf("stdout is not the JUnit report: %v\n%s", err, out)
	}
	if !strings.Contains(stderr, "tools/list") {
		t.Errorf("the check's own output is not on stderr:\n%s", stderr)
	}
	for _, flag := range []string{"--json", "--ndjson"} {
		if code, _, stderr := runCLI(t, "check", "--junit", "-", flag); code != exitUsage || !strings.Contains(stderr, "--junit -") {
			t.Errorf("%s --junit -: exit %d: %s", flag, code, stderr)
		}
	}
}
