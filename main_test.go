package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"mcpwitness/demo"
	"mcpwitness/internal/hostiletest"
)

// The test binary doubles as the mcpwitness binary: a child started with
// MCPWITNESS_AS_MAIN set runs main's run instead of the tests, and so does
// one started with demo-server as its first argument, as the default
// target starts os.Executable(): a stdio child inherits only a few of our
// variables (session.InheritedEnv), so its command line says what it is.
func TestMain(m *testing.M) {
	if os.Getenv("MCPWITNESS_AS_MAIN") == "1" || (len(os.Args) > 1 && os.Args[1] == "demo-server") {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Setenv("MCPWITNESS_AS_MAIN", "1")
	os.Exit(withTestConfigDir(m))
}

// withTestConfigDir runs the tests with a user config directory of their
// own (XDG_CONFIG_HOME, which os.UserConfigDir reads on Linux), which the
// commands they run inherit: the digest key a session makes there when no
// --digest-key is given stays out of the real one. It returns m.Run's code.
func withTestConfigDir(m *testing.M) int {
	dir, err := os.MkdirTemp("", "mcpwitness-test-config-*")
	if err != nil {
		fmt.Fprintln(os.Stderr, "creating a config directory for the tests:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	os.Setenv("XDG_CONFIG_HOME", dir)
	return m.Run()
}

// testBinary is the path of this test binary, which runs as mcpwitness
// (see TestMain).
func testBinary(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// endToEnd skips, under -short, a test that runs mcpwitness as a process of
// its own (a built binary, or this test binary as mcpwitness) and drives
// it as a user would: -short is the inner loop, and CI runs without it.
func endToEnd(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs mcpwitness as a process of its own; skipped with -short")
	}
}

// withTimeout is args with --timeout d, for a command line whose command
// dials a server (the others take no --timeout).
func withTimeout(d string, args []string) []string {
	if len(args) > 0 && slices.Contains([]string{"help", "open", "report", "diff", "demo-server", "completion"}, args[0]) {
		return args
	}
	return append([]string{"--timeout", d}, args...)
}

func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(withTimeout("60s", args), &out, &errb)
	return code, out.String(), errb.String()
}

func TestToolsJSONDocument(t *testing.T) {
	t.Parallel()
	code, out, stderr := runCLI(t, "tools", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc struct {
		Server struct{ Name, Version, ProtocolVersion string }
		Walk   struct {
			Complete   bool
			Incomplete string
			Pages      int
			Generation int64
		}
		Pages []struct {
			Page, Items int
			NextCursor  string
			Ms          float64
			Generation  int64
		}
		Tools []struct {
			Name            string
			Page            int
			Generation      int64
			Held            bool
			TaskSupport     string
			HasOutputSchema bool
			Definition      json.RawMessage
		}
		Findings []json.RawMessage
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not one JSON document: %v\n%s", err, out)
	}
	if doc.Server.Name != "mcpwitness-demo" || doc.Server.ProtocolVersion == "" {
		t.Errorf("server = %+v", doc.Server)
	}
	if !doc.Walk.Complete || doc.Walk.Pages != 6 || len(doc.Pages) != 6 || doc.Walk.Generation != 6 {
		t.Errorf("walk = %+v with %d pages", doc.Walk, len(doc.Pages))
	}
	if len(doc.Tools) != 53 {
		t.Errorf("%d tools, want 53", len(doc.Tools))
	}
	byName := map[string]int{}
	for i, tool := range doc.Tools {
		byName[tool.Name] = i
		if tool.Held {
			t.Errorf("%s is held, but the list has 5 pages", tool.Name)
		}
		if !json.Valid(tool.Definition) || len(tool.Definition) == 0 {
			t.Errorf("%s has no raw definition", tool.Name)
		}
	}
	if i, ok := byName["render_video"]; !ok || doc.Tools[i].TaskSupport != "required" {
		t.Error("render_video is not listed with taskSupport required (the execution field was lost)")
	}
	if i, ok := byName["add"]; !ok || !doc.Tools[i].HasOutputSchema {
		t.Error("add is not listed with its output schema")
	}
}

func TestCallExitCodesAndDocument(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args   []string
		code   int
		sent   bool
		status map[string]string
	}{
		{[]string{"add", "a=2", "b=3"}, exitOK, true, map[string]string{"output-schema": "pass", "input-schema": "pass"}},
		{[]string{"weather", "--args", `{"city":"Oslo"}`}, exitOK, true, map[string]string{"output-schema": "pass"}},
		{[]string{"forecast_broken", "city=Oslo"}, exitCheck, true, map[string]string{"output-schema": "fail"}},
		{[]string{"summary_no_structured", "text=hello"}, exitCheck, true, map[string]string{"structured-content": "fail"}},
		{[]string{"unresolved_ref"}, exitCheck, true, map[string]string{"output-schema": "unchecked"}},
		{[]string{"fail_always"}, exitToolError, true, map[string]string{"structured-content": "skipped"}},
		{[]string{"render_video", "storyboard=x"}, exitCheck, false, map[string]string{"task-support": "refused"}},
		{[]string{"render_video", "storyboard=x", "--force"}, exitCheck, true, map[string]string{"task-support": "refused"}},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, out, stderr := runCLI(t, append([]string{"call", "--json"}, tc.args...)...)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr: %s", code, tc.code, stderr)
			}
			var doc struct {
				Tool     string
				Sent     bool
				Verdicts []struct {
					Check, Status, Message string
					Errors                 []struct{ InstancePath, Keyword, Message string }
				}
				Result json.RawMessage
				Error  json.RawMessage
				Ms     float64
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("not JSON: %v\n%s", err, out)
			}
			if doc.Sent != tc.sent {
				t.Errorf("sent = %v, want %v", doc.Sent, tc.sent)
			}
			got := map[string]string{}
			for _, v := range doc.Verdicts {
				got[v.Check] = v.Status
				if v.Status == "fail" && v.Check == "output-schema" && len(v.Errors) == 0 {
					t.Error("an output-schema failure without instance paths")
				}
			}
			for check, want := range tc.status {
				if got[check] != want {
					t.Errorf("%s = %q, want %q (all: %v)", check, got[check], want, got)
				}
			}
			if !tc.sent && string(doc.Result) != "null" {
				t.Errorf("a call that was not sent has a result: %s", doc.Result)
			}
		})
	}
}

func TestUsageErrorsExit2(t *testing.T) {
	for _, args := range [][]string{
		{"--bogus"},
		{"call"},
		{"call", "add", "a"},
		{"call", "add", "a=1", "--args", "{}"},
		{"tools", "--json", "--ndjson"},
		{"tools", "--max-pages", "0"},
		{"tools", "--timeout", "soon"},
		{"tools", "--protocol", "1999-01-01"},
		{"tools", "-e", "NOEQUALS", "--", "true"},
		{"tools", "-H", "no colon", "--url", "http://127.0.0.1:1/"},
		{"tools", "-e", "A=1"},
		{"frobnicate"},
		{"tools", "--"},
	} {
		code, _, stderr := runCLI(t, args...)
		if code != exitUsage {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
		if !strings.HasPrefix(stderr, "mcpwitness: ") || len(stderr) < 20 {
			t.Errorf("%q: unclear message %q", args, stderr)
		}
	}
	// A value the input schema cannot take is judged by the input check,
	// as the same value in --args is: exit 3, not a usage error.
	if code, _, _ := runCLI(t, "call", "add", "a=two"); code != exitCheck {
		t.Errorf("a value the input schema cannot take: exit %d, want 3", code)
	}
	if code, _, _ := runCLI(t, "call", "add", "--args", "[1,2]"); code != exitUsage {
		t.Errorf("--args that is not an object: exit %d, want 2", code)
	}
}

// --client-key goes with client credentials, a client id and no secret,
// and must be a key: each mistake is a usage error that says so.
func TestClientKeyFlagsSayWhatIsWrong(t *testing.T) {
	url := "http://127.0.0.1:1/mcp"
	missing := filepath.Join(t.TempDir(), "missing.pem")
	cc := []string{"ping", "--url", url, "--oauth", "client-credentials"}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"ping", "--url", url, "--client-id", "svc", "--client-key", missing}, "--client-key signs the client credentials grant: it goes with --oauth client-credentials"},
		{append(cc, "--client-key", missing), "--oauth client-credentials needs --client-id, and --client-secret or --client-key"},
		{append(cc, "--client-id", "svc"), "--oauth client-credentials needs --client-id, and --client-secret or --client-key"},
		{append(cc, "--client-id", "svc", "--client-secret", "s", "--client-key", missing), "--client-secret and --client-key are two ways for the client to authenticate: give one"},
		{append(cc, "--client-id", "svc", "--client-key", missing), "--client-key " + missing + ": no such file or directory"},
		{[]string{"ping", "--client-key", missing}, "give --url"},
	} {
		code, _, stderr := runCLI(t, tc.args...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: exit %d, %q; want exit 2 saying %q", tc.args, code, stderr, tc.want)
		}
	}
}

// README.md gives the demo client's key for users to save: it must be the
// key the demo's authorization server knows.
func TestReadmeHoldsTheDemoClientKey(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), demo.DemoClientKeyPEM) {
		t.Error("README.md does not hold demo.DemoClientKeyPEM")
	}
}

func TestConnectionErrorsExit1(t *testing.T) {
	t.Parallel()
	code, _, stderr := runCLI(t, "tools", "--", "/no/such/server")
	if code != exitConnect || !strings.Contains(stderr, "program not found") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

func TestHelpTeaches(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"--help"}, {"help"}, {"help", "call"}, {"tools", "-h"}, {"demo-server", "--help"}} {
		code, out, _ := runCLI(t, args...)
		if code != exitOK || !strings.Contains(out, "Usage:") {
			t.Errorf("%q: exit %d, output %q", args, code, out)
		}
	}
	_, out, _ := runCLI(t, "help", "call")
	assertSays(t, "call help", out, "task-support", "output-schema", "--force", "Exit:")
}

func TestHelpOfNoCommandIsAUsageError(t *testing.T) {
	t.Parallel()
	code, out, stderr := runCLI(t, "help", "nope")
	if code != exitUsage || out != "" || !strings.Contains(stderr, `no help for "nope"`) || !strings.Contains(stderr, "prompts") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
}

func TestRecordAndNDJSON(t *testing.T) {
	t.Parallel()
	exe := testBinary(t)
	path := filepath.Join(t.TempDir(), "run.jsonl")
	const canary = "canary-cli-3e9f1d"
	code, out, stderr := runCLI(t, "call", "add", "a=1", "b=2", "--ndjson", "--record", path,
		"-e", "API_KEY="+canary, "--", exe, "demo-server")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	kinds := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var ev struct{ Kind string }
		if err := json.Unmarshal([]byte(line), &ev); err != nil || ev.Kind == "" {
			t.Fatalf("--ndjson line is not an event: %q", line)
		}
		kinds[ev.Kind]++
	}
	for _, k := range []string{"connect", "wire", "page", "walk", "call", "verdict"} {
		if kinds[k] == 0 {
			t.Errorf("--ndjson has no %s event (got %v)", k, kinds)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte(canary)) {
		t.Fatal("the -e secret is in the record")
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<24)
	sc.Scan()
	var h struct {
		Format  string
		Version int
		Target  struct {
			Transport string
			Env       map[string]string
		}
	}
	if err := json.Unmarshal(sc.Bytes(), &h); err != nil || h.Format != "mcpwitness-session" || h.Version != 1 {
		t.Fatalf("header = %s", sc.Bytes())
	}
	if !strings.HasPrefix(h.Target.Env["API_KEY"], "[REDACTED:API_KEY:sha256=") {
		t.Errorf("the header's env is not redacted: %v", h.Target.Env)
	}
	lines := 1
	for sc.Scan() {
		lines++
		if !json.Valid(sc.Bytes()) {
			t.Fatalf("record line %d is not JSON", lines)
		}
	}
	if lines < 20 {
		t.Errorf("the record has only %d lines", lines)
	}
}

func TestDemoServerOverHTTP(t *testing.T) {
	t.Parallel()
	endToEnd(t)
	exe := testBinary(t)
	cmd := exec.Command(exe, "demo-server", "--http", "127.0.0.1:0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		if sc.Scan() {
			lines <- sc.Text()
		}
	}()
	var url string
	select {
	case url = <-lines:
	case <-time.After(time.Minute):
		t.Fatal("demo-server --http printed no address")
	}
	if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/mcp") {
		t.Fatalf("printed %q, want http://127.0.0.1:PORT/mcp", url)
	}
	code, out, stderr := runCLI(t, "tools", "--json", "--url", url, "-H", "Authorization: Bearer x")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, `"transport": "http"`) {
		t.Errorf("not walked over http: %.200s", out)
	}
}

func TestBuildArgsCoercesBySchema(t *testing.T) {
	t.Parallel()
	def := json.RawMessage(`{"inputSchema":{"type":"object","properties":{
		"n":{"type":"integer"},"x":{"type":"number"},"b":{"type":"boolean"},
		"s":{"type":"string"},"o":{"type":"object"},"m":{"type":["null","number"]}}}}`)
	got, err := buildArgs(def, []string{"n=3", "x=2.5", "b=true", "s=42", "o={\"k\":1}", "m=7", "free=[1]", "word=hello"}, "", false)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"n":3,"x":2.5,"b":true,"s":"42","o":{"k":1},"m":7,"free":[1],"word":"hello"}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	for _, bad := range []string{"n=3.5", "x=abc", "b=maybe", "o={"} {
		if _, err := buildArgs(def, []string{bad}, "", false); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// k=v numbers are sent as JSON numbers, whatever way strconv reads them.
func TestBuildArgsWritesJSONNumbers(t *testing.T) {
	t.Parallel()
	def := json.RawMessage(`{"inputSchema":{"type":"object","properties":{"n":{"type":"integer"},"x":{"type":"number"}}}}`)
	got, err := buildArgs(def, []string{"n=+5", "x=007"}, "", false)
	if want := `{"n":5,"x":7}`; err != nil || string(got) != want {
		t.Errorf("got %s (%v), want %s", got, err, want)
	}
	got, err = buildArgs(def, []string{"n=007"}, "", false)
	if want := `{"n":7}`; err != nil || string(got) != want {
		t.Errorf("got %s (%v), want %s", got, err, want)
	}
	for _, bad := range []string{"x=NaN", "x=inf", "x=-Infinity"} {
		if got, err := buildArgs(def, []string{bad}, "", false); err == nil {
			t.Errorf("%s: no error, arguments %s", bad, got)
		}
	}
}

func TestCheckLintsEveryList(t *testing.T) {
	t.Parallel()
	code, out, stderr := runCLI(t, "check", "--json")
	if code != exitCheck {
		t.Fatalf("exit %d, want 3 (the demo server has an unresolved $ref): %s", code, stderr)
	}
	var report struct {
		Servers []struct {
			Walks map[string]struct {
				Method   string
				Complete bool
				Items    int
			}
			Findings []struct{ Check, Severity, Message, Item string }
		}
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil || len(report.Servers) != 1 {
		t.Fatalf("%v: %d servers\n%.500s", err, len(report.Servers), out)
	}
	doc := report.Servers[0]
	if len(doc.Walks) != 4 {
		t.Errorf("walked %d lists, want tools, prompts, resources and templates", len(doc.Walks))
	}
	found := map[string]string{}
	for _, f := range doc.Findings {
		found[f.Item+" "+f.Check] = f.Severity
	}
	if found["unresolved_ref output-schema"] != "error" || found["render_video task-support"] != "info" {
		t.Errorf("findings = %v", found)
	}

	code, out, _ = runCLI(t, "check", "--", hostiletest.Build(t), "-mode", "cursor-loop")
	if code != exitCheck || !strings.Contains(out, "cursor-repeated") {
		t.Errorf("cursor loop: exit %d\n%s", code, out)
	}
}
