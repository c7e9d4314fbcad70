package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOpenUsageErrorsExit2(t *testing.T) {
	file := filepath.Join("ui", "testdata", "demo-session.jsonl")
	for name, args := range map[string][]string{
		"no file":      {"open"},
		"two files":    {"open", file, file},
		"a server URL": {"open", file, "--url", "http://127.0.0.1:1/mcp"},
		"a command":    {"open", file, "--", "node", "server.js"},
		"--record":     {"open", file, "--record", "out.jsonl"},
		"--json":       {"open", file, "--json"},
		"--ndjson":     {"open", file, "--ndjson"},
		"a bad theme":  {"open", file, "--theme", "plaid"},
	} {
		code, stdout, stderr := runCLI(t, args...)
		if code != exitUsage || stdout != "" {
			t.Errorf("%s: exit %d, stdout %q; want 2 and nothing", name, code, stdout)
		}
		if !strings.HasPrefix(stderr, "mcpwitness: ") || len(stderr) < 30 {
			t.Errorf("%s: unclear message %q", name, stderr)
		}
	}
}

// TestOpenUnreadableFileExits1 checks that a file that cannot be opened is
// reported on stderr, exit 1, before anything is drawn on stdout.
func TestOpenUnreadableFileExits1(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, data string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	for path, want := range map[string]string{
		filepath.Join(dir, "missing.jsonl"): "no such file",
		dir:                                 "is a directory, not a session file",
		write("notes.txt", "hello\n"):       "line 1 is not a session header",
		write("future.jsonl", `{"format":"mcpwitness-session","version":2}`+"\n"): "format version 2; this mcpwitness reads version 1",
		write("empty.jsonl", ""): "the file is empty",
	} {
		code, stdout, stderr := runCLI(t, "open", path)
		if code != exitConnect || stdout != "" {
			t.Errorf("%s: exit %d, stdout %q; want 1 and nothing", path, code, stdout)
		}
		if !strings.HasPrefix(stderr, "mcpwitness: ") || !strings.Contains(stderr, want) {
			t.Errorf("%s: stderr %q, want it to say %q", path, stderr, want)
		}
	}
}

// TestOpenOnTheCommandLine runs open as the command line does.
func TestOpenOnTheCommandLine(t *testing.T) {
	t.Parallel()
	code, _, stderr := runCLI(t, "open")
	if code != exitUsage || !strings.Contains(stderr, "open needs one session file") {
		t.Errorf("open with no file: exit %d, %q", code, stderr)
	}
	code, _, stderr = runCLI(t, "open", filepath.Join(t.TempDir(), "none.jsonl"))
	if code != exitConnect || !strings.Contains(stderr, "no such file") {
		t.Errorf("open of a missing file: exit %d, %q", code, stderr)
	}
	if code, out, _ := runCLI(t, "help", "open"); code != exitOK || !strings.Contains(out, "mcpwitness open FILE") {
		t.Errorf("help open: exit %d, %q", code, out)
	}
}

// open with no terminal says so once the file is read, and how to read it
// headless; a bad file is still said first.
func TestOpenWithoutATerminal(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, []byte(`{"format":"mcpwitness-session","version":1,"tool":"mcpwitness test","started":"2026-01-02T03:04:05Z"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "open", path)
	if code != exitUsage || stdout != "" || !strings.Contains(stderr, "needs a terminal") || !strings.Contains(stderr, "mcpwitness report "+path) {
		t.Errorf("exit %d, stdout %q, stderr %q; want 2 saying it needs a terminal and naming report", code, stdout, stderr)
	}
}
