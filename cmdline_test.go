package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A flag that does not apply to a command is a usage error naming the flag
// and the command, not a flag silently ignored.
func TestMisplacedFlagsAreUsageErrors(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"tools", "--follow"},
		{"tools", "--count", "3"},
		{"tools", "--template", "x"},
		{"tools", "--http", ":1"},
		{"call", "add", "--junit", "x"},
		{"ping", "--task"},
	} {
		code, out, stderr := runCLI(t, args...)
		flag := args[len(args)-1]
		if !strings.HasPrefix(flag, "--") {
			flag = args[len(args)-2]
		}
		if code != exitUsage || out != "" || !strings.Contains(stderr, flag+" is not a flag of "+args[0]) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 naming %s and %s", args, code, out, stderr, flag, args[0])
		}
	}
}

// A flag given an empty value is a usage error before anything connects:
// a CI job whose URL secret is missing must not go green on the demo.
func TestEmptyValuesAreUsageErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		flag string
	}{
		{[]string{"tools", "--ndjson", "--url", ""}, "--url"},
		{[]string{"tools", "--ndjson", "--url="}, "--url"},
		{[]string{"tools", "--ndjson", "--config", ""}, "--config"},
		{[]string{"check", "--ndjson", "--url", ""}, "--url"},
		{[]string{"tools", "--ndjson", "--record", ""}, "--record"},
		{[]string{"tools", "--ndjson", "-e", ""}, "--env"},
		{[]string{"--url", ""}, "--url"},
	} {
		code, out, stderr := runCLI(t, c.args...)
		if code != exitUsage || out != "" || !strings.Contains(stderr, c.flag+" needs a value") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 saying %s needs a value", c.args, code, out, stderr, c.flag)
		}
	}
}

func TestURLWithoutHTTPSchemeIsAUsageError(t *testing.T) {
	for _, url := range []string{"ftp://example.com/mcp", "example.com/mcp", "http://", "127.0.0.1:8080"} {
		code, out, stderr := runCLI(t, "tools", "--ndjson", "--url", url)
		if code != exitUsage || out != "" || !strings.Contains(stderr, "--url wants an http:// or https:// URL") {
			t.Errorf("--url %q: exit %d, stdout %q, stderr %q", url, code, out, stderr)
		}
	}
}

func TestCompletionScripts(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, shell := range []string{"bash", "zsh", "fish", "powershell"} {
		code, out, stderr := runCLI(t, "completion", shell)
		if code != exitOK || !strings.Contains(out, "mcpwitness") {
			t.Errorf("completion %s: exit %d, stderr %q, %d bytes", shell, code, stderr, len(out))
		}
		if shell != "bash" {
			continue
		}
		script := filepath.Join(dir, "mcpwitness.bash")
		if err := os.WriteFile(script, []byte(out), 0o600); err != nil {
			t.Fatal(err)
		}
		if b, err := exec.Command("bash", "-n", script).CombinedOutput(); err != nil {
			t.Errorf("bash -n rejects the script: %v\n%s", err, b)
		}
	}
	for _, args := range [][]string{{"completion"}, {"completion", "tcsh"}, {"completion", "bash", "zsh"}} {
		if code, _, stderr := runCLI(t, args...); code != exitUsage || !strings.Contains(stderr, "bash|zsh|fish|powershell") {
			t.Errorf("%q: exit %d, %q", args, code, stderr)
		}
	}
}

// --args @FILE and --args - (stdin) read the arguments' JSON.
func TestArgsFromFileAndStdin(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "args.json")
	if err := os.WriteFile(file, []byte(`{"a": 2, "b": 3}`), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runCLI(t, "call", "add", "--args", "@"+file, "--json")
	if code != exitOK || !strings.Contains(out, "2 + 3 = 5") {
		t.Errorf("--args @FILE: exit %d, stderr %q\n%s", code, stderr, out)
	}
	if code, _, stderr := runCLI(t, "call", "add", "--args", "@"+file+".missing"); code != exitUsage || !strings.Contains(stderr, "--args @") {
		t.Errorf("--args @missing: exit %d, %q", code, stderr)
	}

	cfg, err := parseArgs([]string{"prompt", "summarize", "--args", "-"})
	if err != nil {
		t.Fatal(err)
	}
	env := testEnviron(nil)
	env.stdin = strings.NewReader(`{"text": "from stdin"}`)
	r, err := resolve(cfg, env)
	if err != nil || r.argsJSON != `{"text": "from stdin"}` {
		t.Errorf("--args -: %q, %v", r.argsJSON, err)
	}
}

func TestColorFlag(t *testing.T) {
	const esc = "\x1b["
	if code, out, _ := runCLI(t, "tools", "--color", "always"); code != exitOK || !strings.Contains(out, esc) {
		t.Errorf("--color always, piped: exit %d, no escape codes in %q", code, out)
	}
	t.Setenv("NO_COLOR", "1")
	if code, out, _ := runCLI(t, "tools", "--color", "always"); code != exitOK || !strings.Contains(out, esc) {
		t.Errorf("--color always over NO_COLOR: exit %d, no escape codes", code)
	}
	if code, out, _ := runCLI(t, "tools", "--color", "never"); code != exitOK || strings.Contains(out, esc) {
		t.Errorf("--color never: exit %d, escape codes in %q", code, out)
	}
	if code, _, stderr := runCLI(t, "tools", "--color", "sometimes"); code != exitUsage || !strings.Contains(stderr, "--color wants auto, always or never") {
		t.Errorf("--color sometimes: exit %d, %q", code, stderr)
	}
}

func TestPingCountZeroIsAUsageError(t *testing.T) {
	t.Parallel()
	code, out, stderr := runCLI(t, "ping", "--count", "0")
	if code != exitUsage || out != "" || !strings.Contains(stderr, "--count wants a whole number of at least 1") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
}

// The terminal UI without a terminal says which command to use instead.
func TestTUIWithoutATerminal(t *testing.T) {
	t.Parallel()
	code, out, stderr := runCLI(t)
	if code != exitUsage || out != "" || !strings.Contains(stderr, "needs a terminal") || !strings.Contains(stderr, "mcpwitness tools") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
}

func TestMissingWorkingDirectory(t *testing.T) {
	t.Parallel()
	code, _, stderr := runCLI(t, "tools", "--cwd", "/no/such/dir", "--", testBinary(t), "demo-server")
	if code != exitConnect || !strings.Contains(stderr, `"/no/such/dir" (--cwd) does not exist`) || strings.Contains(stderr, "PATH") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}
