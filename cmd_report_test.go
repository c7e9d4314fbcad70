package main

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"mcpwitness/demo"
	"mcpwitness/record"
)

// runFileCommand runs report or diff as the command line would.
func runFileCommand(t *testing.T, cmd string, json bool, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	line := append([]string{cmd}, args...)
	if json {
		line = append(line, "--json")
	}
	return runCLI(t, line...)
}

// recordCLI records a headless run to a new file and returns its path.
func recordCLI(t *testing.T, args ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "run.jsonl")
	code, _, stderr := runCLI(t, append([]string{"--record", path}, args...)...)
	if code == exitConnect || code == exitUsage {
		t.Fatalf("recording %q: exit %d: %s", args, code, stderr)
	}
	return path
}

func TestReportCommand(t *testing.T) {
	t.Parallel()
	path := recordCLI(t, "call", "forecast_broken", "city=Oslo", "--walk-all")
	code, out, stderr := runFileCommand(t, "report", false, path)
	if code != exitOK || stderr != "" {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	assertSays(t, "the report", out,
		"# mcpwitness session: mcpwitness-demo 1.0.0",
		"| 1 | `tools/list` | 6 | 53 | 1–6 | ✅ complete |",
		"| 1 | `forecast_broken` | yes | ✅ pass | ✅ pass | ✅ pass | ❌ **fail** |",
		"`/days/1/high` type",
		"<summary>Call 1 · <code>forecast_broken</code> · output-schema failed</summary>",
		`"progressToken": "mcpwitness-1"`,
	)
}

func TestReportAndDiffErrors(t *testing.T) {
	t.Parallel()
	good := recordCLI(t, "tools")
	dir := t.TempDir()
	future := filepath.Join(dir, "future.jsonl")
	os.WriteFile(future, []byte(`{"format":"mcpwitness-session","version":2}`+"\n"), 0o600)
	incomplete := recordCLI(t, "tools", "--max-pages", "2")
	tests := []struct {
		name string
		cmd  string
		json bool
		args []string
		code int
		want string
	}{
		{"report without a file", "report", false, nil, exitUsage, "report needs one session file"},
		{"report with two files", "report", false, []string{good, good}, exitUsage, "report needs one session file"},
		{"report --json", "report", true, []string{good}, exitUsage, "--json is not a flag of report"},
		{"report of a missing file", "report", false, []string{filepath.Join(dir, "nope.jsonl")}, exitConnect, "no such file"},
		{"report of a future file", "report", false, []string{future}, exitConnect,
			"session file is format version 2; this mcpwitness reads version 1 — upgrade mcpwitness"},
		{"diff with one file", "diff", false, []string{good}, exitUsage, "diff needs two session files"},
		{"diff with a future file", "diff", false, []string{good, future}, exitConnect, "format version 2"},
		{"diff without a complete walk", "diff", false, []string{good, incomplete}, exitCheck,
			"has no complete tools/list walk: its last tools/list walk (walk 1) is incomplete: page-limit"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, stderr := runFileCommand(t, tc.cmd, tc.json, tc.args...)
			if code != tc.code || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want exit %d saying %q", code, stderr, tc.code, tc.want)
			}
			if out != "" {
				t.Errorf("stdout = %q, want nothing on failure", out)
			}
		})
	}
}

func TestReportNeedsNoServer(t *testing.T) {
	for _, server := range [][]string{{"--url", "http://127.0.0.1:1/mcp"}, {"--config", "mcp.json"}, {"-e", "A=1"}} {
		code, out, errs := runCLI(t, append([]string{"report", "x.jsonl"}, server...)...)
		if code != exitUsage || out != "" || !strings.Contains(errs, "is not a flag of report") {
			t.Errorf("report %q: exit %d: %s", server, code, errs)
		}
	}
}

func TestDiffCommandExitCodes(t *testing.T) {
	t.Parallel()
	exe := testBinary(t)
	a := recordCLI(t, "tools")
	b := recordCLI(t, "tools")
	c := recordCLI(t, "tools", "--", exe, "demo-server", "--page-size", "7")

	code, out, stderr := runFileCommand(t, "diff", false, a, b)
	if code != exitOK || !strings.Contains(out, "no differences: the same 53 tools") {
		t.Errorf("diff of two walks of one server: exit %d\n%s%s", code, out, stderr)
	}
	code, out, stderr = runFileCommand(t, "diff", false, a, c)
	if code != exitCheck || !strings.Contains(out, "0 added · 0 removed · 0 changed · 0 moved · ") ||
		!strings.Contains(out, "tools on 8 pages") {
		t.Errorf("diff across page sizes: exit %d\n%s%s", code, out, stderr)
	}
	code, out, _ = runFileCommand(t, "diff", true, a, c)
	var doc struct {
		Equal   bool
		Before  struct{ Walk struct{ Pages, Tools int } }
		After   struct{ Walk struct{ Pages, Tools int } }
		Repaged []struct {
			Name          string
			Before, After struct{ Page int }
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("--json is not one document: %v\n%s", err, out)
	}
	if code != exitCheck || doc.Equal || doc.Before.Walk.Pages != 6 || doc.After.Walk.Pages != 8 || doc.After.Walk.Tools != 53 || len(doc.Repaged) == 0 {
		t.Errorf("exit %d, document %+v", code, doc)
	}
	for _, r := range doc.Repaged {
		if r.Before.Page == r.After.Page {
			t.Errorf("%s is listed as on another page but stayed on page %d", r.Name, r.Before.Page)
		}
	}
}

// No secret given on the command line reaches a record, a report or a diff.
func TestNoSecretReachesReportOrDiff(t *testing.T) {
	t.Parallel()
	exe := testBinary(t)
	srv := httptest.NewServer(demo.Handler(nil))
	t.Cleanup(srv.Close)
	canaries := []string{"canary-user-81", "canary-pass-82", "canary-query-83", "canary-header-84", "canary-env-85"}
	url := strings.Replace(srv.URL, "http://", "http://canary-user-81:canary-pass-82@", 1) + "/mcp?key=canary-query-83"
	overHTTP := recordCLI(t, "call", "echo", "message=canary-header-84", "--url", url, "-H", "Authorization: Bearer canary-header-84")
	overStdio := recordCLI(t, "call", "echo", "message=canary-env-85", "-e", "API_KEY=canary-env-85", "--", exe, "demo-server")

	var outputs []string
	for _, path := range []string{overHTTP, overStdio} {
		data, _ := os.ReadFile(path)
		outputs = append(outputs, string(data))
		_, out, stderr := runFileCommand(t, "report", false, path)
		outputs = append(outputs, out, stderr)
	}
	for _, asJSON := range []bool{false, true} {
		_, out, stderr := runFileCommand(t, "diff", asJSON, overHTTP, overStdio)
		outputs = append(outputs, out, stderr)
	}
	if !strings.Contains(outputs[1], "[REDACTED:Authorization:sha256=") || !strings.Contains(outputs[4], "[REDACTED:API_KEY:sha256=") {
		t.Errorf("the reports do not show the redacted header and environment:\n%s\n%s", outputs[1], outputs[4])
	}
	for i, out := range outputs {
		for _, c := range canaries {
			if strings.Contains(out, c) {
				t.Errorf("output %d holds the secret %q", i, c)
			}
		}
	}
}

// A recording killed with SIGKILL mid-call still opens, with its walk and
// the call's start, and reports the call as unfinished.
func TestKilledRecordingOpens(t *testing.T) {
	endToEnd(t)
	exe := testBinary(t)
	path := filepath.Join(t.TempDir(), "k.jsonl")
	cmd := exec.Command(exe, "call", "slow_count", "steps=1000", "delay_ms=100", "--record", path)
	cmd.Env = append(os.Environ(), "MCPWITNESS_AS_MAIN=1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	killed := false
	defer func() {
		if !killed {
			cmd.Process.Kill()
			cmd.Wait()
		}
	}()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		data, _ := os.ReadFile(path)
		if bytes.Contains(data, []byte(`"state":"start","args"`)) && bytes.Contains(data, []byte(`"kind":"progress"`)) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no call start and progress in the record after 2m:\n%s", data)
		}
		time.Sleep(20 * time.Millisecond)
	}
	server := childOf(cmd.Process.Pid)
	t.Logf("recorder %d, demo server %d", cmd.Process.Pid, server)
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	killed = true
	// The demo server's stdin closes with its parent; it must go too.
	if server > 0 {
		waitGone(t, server)
	}

	f, err := record.OpenFile(path)
	if err != nil {
		t.Fatalf("a killed recording does not open: %v", err)
	}
	defer f.Close()
	var walkDone, callStart, callDone bool
	for ev, err := range f.Events() {
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case ev.Kind == record.KindWalk && ev.Walk.State == "done":
			walkDone = true
		case ev.Kind == record.KindCall && ev.Call.State == "start":
			callStart = true
		case ev.Kind == record.KindCall && ev.Call.State == "done":
			callDone = true
		}
	}
	if !walkDone || !callStart || callDone {
		t.Errorf("walk done %v, call start %v, call done %v; want the walk and the start of a call that never ended", walkDone, callStart, callDone)
	}
	code, out, stderr := runFileCommand(t, "report", false, path)
	if code != exitOK || !strings.Contains(out, "⏳ unfinished: the file ends before the call did") {
		t.Errorf("report of a killed recording: exit %d\n%s%s", code, out, stderr)
	}
}

// childOf returns the pid of a child process of pid, or 0. Children are
// listed per thread, and any thread may have started one.
func childOf(pid int) int {
	tasks, _ := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/children")
	for _, path := range tasks {
		b, _ := os.ReadFile(path)
		if fields := strings.Fields(string(b)); len(fields) > 0 {
			child, _ := strconv.Atoi(fields[0])
			return child
		}
	}
	return 0
}

func waitGone(t *testing.T, pid int) {
	t.Helper()
	const grace = time.Minute // generous for a busy machine; a leak outlives any
	for deadline := time.Now().Add(grace); time.Now().Before(deadline); {
		if err := syscall.Kill(pid, 0); err != nil {
			return
		}
		if b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); bytes.Contains(b, []byte(") Z ")) {
			return // a zombie, waiting for init to reap it
		}
		time.Sleep(50 * time.Millisecond)
	}
	syscall.Kill(pid, syscall.SIGKILL)
	t.Errorf("the demo server (pid %d) outlived the killed recorder by %v", pid, grace)
}
