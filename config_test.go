package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"mcpwitness/demo"
	"mcpwitness/session"
)

func writeConfig(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// testEnviron is an environment of vars, in a program at /opt/mcpwitness.
func testEnviron(vars map[string]string) environ {
	return environ{
		lookup: func(name string) (string, bool) {
			v, ok := vars[name]
			return v, ok
		},
		executable: func() (string, error) { return "/opt/mcpwitness", nil },
	}
}

// parseAndResolve reads a command line as run does, in the environment vars.
func parseAndResolve(vars map[string]string, args ...string) (*config, error) {
	cfg, err := parseArgs(args)
	if err != nil {
		return nil, err
	}
	return resolve(cfg, testEnviron(vars))
}

func TestConfigFileTargets(t *testing.T) {
	env := map[string]string{"MCPW_TEST_TOKEN": "tok123"}
	claude := writeConfig(t, `{"mcpServers": {
		"fs": {"command": "npx", "args": ["-y", "server-fs", "/tmp"], "env": {"B": "2", "A": "${env:MCPW_TEST_TOKEN}"}},
		"remote": {"url": "https://example.test/mcp", "headers": {"Authorization": "Bearer ${env:MCPW_TEST_TOKEN}"}}}}`)
	vscode := writeConfig(t, `{"servers": {"old": {"type": "sse", "url": "http://127.0.0.1:9/sse"}}}`)

	cfg, err := parseAndResolve(env, "tools", "--config", claude, "--server", "fs", "-e", "C=3")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"npx", "-y", "server-fs", "/tmp"}; !reflect.DeepEqual(cfg.target.Command, want) {
		t.Errorf("command = %q", cfg.target.Command)
	}
	if want := []string{"A=tok123", "B=2", "C=3"}; !reflect.DeepEqual(cfg.target.Env, want) {
		t.Errorf("env = %q, want %q", cfg.target.Env, want)
	}

	cfg, err = parseAndResolve(env, "tools", "--config", claude, "--server", "remote")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.target.URL != "https://example.test/mcp" || len(cfg.target.Headers) != 1 || cfg.target.Headers[0] != "Authorization: Bearer tok123" {
		t.Errorf("target = %+v", cfg.target)
	}

	cfg, err = parseAndResolve(env, "tools", "--config", vscode)
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.target.SSE || cfg.target.URL != "http://127.0.0.1:9/sse" {
		t.Errorf("VS Code sse server = %+v", cfg.target)
	}
}

func TestConfigFileErrors(t *testing.T) {
	t.Parallel()
	two := writeConfig(t, `{"mcpServers": {"a": {"command": "x"}, "b": {"command": "y"}}}`)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--config", two}, "pick one with --server (a, b)"},
		{[]string{"--config", two, "--server", "c"}, `no server "c"; it has a, b`},
		{[]string{"--config", writeConfig(t, `{"mcpServers": {"a": {"command": "${env:MCPW_SURELY_UNSET}"}}}`)}, "not set: MCPW_SURELY_UNSET"},
		{[]string{"--config", writeConfig(t, `not json`)}, "not valid JSON"},
		{[]string{"--config", writeConfig(t, `{}`)}, "has no servers"},
		{[]string{"--config", writeConfig(t, `{"mcpServers": {"a": {}}}`)}, "neither a command nor a url"},
		{[]string{"--config", two, "--server", "a", "--url", "http://x/"}, "drop the -- command or --url"},
		{[]string{"--server", "a"}, "give the file too"},
		{[]string{"--config", "/no/such/file.json"}, "no such file"},
	}
	for _, tc := range tests {
		_, err := parseAndResolve(nil, append([]string{"tools"}, tc.args...)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err = %v, want %q", tc.args, err, tc.want)
		}
	}
}

// TestParsingReadsNothing checks that parsing is only the command line:
// --config's file is read, and the environment consulted, when the
// command line is resolved.
func TestParsingReadsNothing(t *testing.T) {
	t.Parallel()
	cfg, err := parseArgs([]string{"tools", "--config", "/no/such/file.json", "--server", "x"})
	if err != nil {
		t.Fatalf("parsing read the config file: %v", err)
	}
	if cfg.target.URL != "" || len(cfg.target.Command) > 0 || cfg.noColor {
		t.Errorf("parsed config already resolved: %+v", cfg)
	}
	if _, err := resolve(cfg, testEnviron(nil)); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("resolving: err = %v, want the missing file named", err)
	}
}

func TestResolveFillsTheRest(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		vars    map[string]string
		args    []string
		command []string
		noColor bool
		err     string
	}{
		{"the demo server by default", nil, []string{"tools"}, []string{"/opt/mcpwitness", "demo-server"}, false, ""},
		{"the TUI too", nil, nil, []string{"/opt/mcpwitness", "demo-server"}, false, ""},
		{"a named server stays", nil, []string{"tools", "--", "node", "s.js"}, []string{"node", "s.js"}, false, ""},
		{"NO_COLOR set", map[string]string{"NO_COLOR": "1"}, []string{"tools"}, []string{"/opt/mcpwitness", "demo-server"}, true, ""},
		{"NO_COLOR empty", map[string]string{"NO_COLOR": ""}, []string{"tools"}, []string{"/opt/mcpwitness", "demo-server"}, false, ""},
		{"a theme that exists", nil, []string{"--theme", "mono"}, []string{"/opt/mcpwitness", "demo-server"}, false, ""},
		{"a theme that does not", nil, []string{"--theme", "plaid"}, nil, false, `unknown --theme "plaid"; choose one of`},
		{"open checks the theme", nil, []string{"open", "f.jsonl", "--theme", "plaid"}, nil, false, `unknown --theme "plaid"`},
		{"no server for report", nil, []string{"report", "f.jsonl"}, nil, false, ""},
	}
	for _, tc := range tests {
		cfg, err := parseAndResolve(tc.vars, tc.args...)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || exitCode(err) != exitUsage {
				t.Errorf("%s: err = %v (exit %d), want a usage error saying %q", tc.name, err, exitCode(err), tc.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !reflect.DeepEqual(cfg.target.Command, tc.command) || cfg.noColor != tc.noColor {
			t.Errorf("%s: command %q, noColor %v; want %q, %v", tc.name, cfg.target.Command, cfg.noColor, tc.command, tc.noColor)
		}
	}
}

// A config entry's headerCmd and oauth settings give the target the same
// flags would; a flag still wins over the entry.
func TestConfigEntryHTTPSettingsAreTheFlags(t *testing.T) {
	t.Parallel()
	env := map[string]string{"MCPW_TEST_SECRET": "s3cret-from-env"}
	file := writeConfig(t, `{"mcpServers": {
		"signed": {"url": "https://example.test/mcp", "headers": {"X-Team": "a"}, "headerCmd": "sign --key ${env:MCPW_TEST_SECRET}"},
		"pre": {"url": "https://example.test/mcp", "oauth": {"mode": "auto", "clientId": "cid", "clientSecret": "${env:MCPW_TEST_SECRET}"}},
		"cimd": {"url": "https://example.test/mcp", "oauth": {"clientMetadataUrl": "https://app.example/oauth/client.json"}},
		"m2m": {"url": "https://example.test/mcp", "oauth": {"mode": "client-credentials", "clientId": "svc", "clientSecret": "pw"}},
		"off": {"url": "https://example.test/mcp", "oauth": {"mode": "off"}}}}`)
	tests := []struct {
		server string
		flags  []string
	}{
		{"signed", []string{"-H", "X-Team: a", "--header-cmd", "sign --key s3cret-from-env"}},
		{"pre", []string{"--client-id", "cid", "--client-secret", "s3cret-from-env"}},
		{"cimd", []string{"--client-metadata-url", "https://app.example/oauth/client.json"}},
		{"m2m", []string{"--oauth", "client-credentials", "--client-id", "svc", "--client-secret", "pw"}},
		{"off", []string{"--oauth", "off"}},
	}
	for _, tc := range tests {
		fromFile, err := parseAndResolve(env, "tools", "--config", file, "--server", tc.server)
		if err != nil {
			t.Fatalf("%s: %v", tc.server, err)
		}
		fromFlags, err := parseAndResolve(env, append([]string{"tools", "--url", "https://example.test/mcp"}, tc.flags...)...)
		if err != nil {
			t.Fatalf("%s flags: %v", tc.server, err)
		}
		got, want := httpSettings(fromFile.target), httpSettings(fromFlags.target)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the entry gives %+v, the flags %+v", tc.server, got, want)
		}
	}
	cfg, err := parseAndResolve(env, "tools", "--config", file, "--server", "pre", "--client-id", "other")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.target.ClientID != "other" || cfg.target.ClientSecret != "s3cret-from-env" {
		t.Errorf("--client-id over the entry: id %q, secret kept %v", cfg.target.ClientID, cfg.target.ClientSecret == "s3cret-from-env")
	}
}

// httpSettings are the HTTP fields of a target that flags and config
// entries both set.
func httpSettings(t session.Target) []string {
	return append([]string{t.URL, t.HeaderCmd, string(t.OAuth), t.ClientID, t.ClientSecret, t.ClientMetadataURL}, t.Headers...)
}

// A bad value in an entry is a usage error naming the entry and the field.
func TestConfigEntryBadValuesNameEntryAndField(t *testing.T) {
	t.Parallel()
	tests := []struct {
		entry string
		want  string
	}{
		{`{"url": "https://x.test/mcp", "oauth": {"mode": "implicit"}}`, `server "s" in CONFIG has oauth.mode "implicit", which is not one of auto, off, client-credentials`},
		{`{"url": "https://x.test/mcp", "oauth": {"mode": "client-credentials", "clientId": "svc"}}`, `server "s" in CONFIG has a bad oauth entry: oauth.mode "client-credentials" needs oauth.clientId, and oauth.clientSecret or oauth.clientKeyFile`},
		{`{"url": "https://x.test/mcp", "oauth": {"clientId": "svc", "clientKeyFile": "k.pem"}}`, `server "s" in CONFIG has a bad oauth entry: oauth.clientKeyFile signs the client credentials grant: it goes with oauth.mode "client-credentials"`},
		{`{"url": "https://x.test/mcp", "oauth": {"mode": "client-credentials", "clientId": "svc", "clientSecret": "s", "clientKeyFile": "k.pem"}}`, `server "s" in CONFIG has a bad oauth entry: oauth.clientSecret and oauth.clientKeyFile are two ways for the client to authenticate: give one`},
		{`{"url": "https://x.test/mcp", "oauth": {"mode": "client-credentials", "clientId": "svc", "clientKeyFile": "/nonexistent/k.pem"}}`, `server "s" in CONFIG has a bad oauth entry: oauth.clientKeyFile /nonexistent/k.pem: no such file or directory`},
		{`{"url": "https://x.test/mcp", "oauth": {"clientMetadataUrl": "http://app.example/client.json"}}`, `server "s" in CONFIG has oauth.clientMetadataUrl "http://app.example/client.json", which is not an https URL with a path`},
		{`{"url": "https://x.test/mcp", "oauth": {"clientMetadataUrl": "https://app.example"}}`, `oauth.clientMetadataUrl "https://app.example", which is not an https URL with a path`},
		{`{"url": "https://x.test/mcp", "headers": {"Bad Name": "v"}}`, `server "s" in CONFIG has headers.Bad Name, which is not a header name`},
		{`{"url": "https://x.test/mcp", "headers": {"X-Count": 5}}`, `server "s" in CONFIG: headers holds a JSON number where a JSON string belongs`},
		{`{"url": "https://x.test/mcp", "headerCmd": ["sign"]}`, `server "s" in CONFIG: headerCmd holds a JSON array where a JSON string belongs`},
		{`{"url": "https://x.test/mcp", "oauth": "yes"}`, `server "s" in CONFIG: oauth holds a JSON string where a JSON object belongs`},
		{`{"url": "http://x", "inheritEnv": true}`, `server "s" in CONFIG has a url and inheritEnv, which applies to a command server only`},
		{`{"command": "node", "headerCmd": "sign"}`, `server "s" in CONFIG has a command and headerCmd, which applies to a url server only`},
		{`{"command": "node", "oauth": {"clientId": "x"}}`, `server "s" in CONFIG has a command and oauth, which applies to a url server only`},
	}
	for _, tc := range tests {
		file := writeConfig(t, `{"mcpServers": {"s": `+tc.entry+`}}`)
		_, err := parseAndResolve(nil, "tools", "--config", file)
		want := strings.ReplaceAll(tc.want, "CONFIG", file)
		if err == nil || !strings.Contains(err.Error(), want) || exitCode(err) != exitUsage {
			t.Errorf("%s: err = %v (exit %d), want a usage error saying %q", tc.entry, err, exitCode(err), want)
		}
	}
}

// A headerCmd from a config entry runs for every request of a real HTTP
// server, as --header-cmd does: the server sees its header on each POST.
func TestConfigHeaderCmdReachesTheServer(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var posts, signed int
	inner := demo.Handler(nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			sum := sha256.Sum256(body)
			mu.Lock()
			posts++
			if r.Header.Get("X-Body-Digest") == hex.EncodeToString(sum[:]) {
				signed++
			}
			mu.Unlock()
		}
		inner.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	file := writeConfig(t, `{"mcpServers": {"signed": {"url": "`+srv.URL+`", "headerCmd": "echo \"X-Body-Digest: $MCPWITNESS_BODY_SHA256\""}}}`)
	code, _, stderr := runCLI(t, "tools", "--config", file)
	if code != 0 {
		t.Fatalf("tools exited %d: %s", code, stderr)
	}
	mu.Lock()
	defer mu.Unlock()
	if posts == 0 || signed != posts {
		t.Errorf("%d of %d POSTs carried the entry's vended header", signed, posts)
	}
}

// A field no client gives (a typo such as "comand", or oauth.clientSecretFle)
// makes its entry broken, naming the field and what is read; fields other
// clients give (disabled, autoApprove, timeout, …) are ignored.
func TestConfigEntryUnknownField(t *testing.T) {
	t.Parallel()
	path := writeConfig(t, `{"mcpServers": {
		"typo": {"comand": "node", "args": ["s.js"]},
		"oauth-typo": {"url": "https://example.com/mcp", "oauth": {"clientSecretFle": "x"}},
		"claude": {"command": "node", "args": ["s.js"], "disabled": false, "autoApprove": ["a"], "timeout": 60}
	}}`)
	servers, err := readServers(path)
	if err != nil {
		t.Fatal(err)
	}
	for name, field := range map[string]string{"typo": `"comand"`, "oauth-typo": `"oauth.clientSecretFle"`} {
		if bad := servers[name].bad; bad == nil || !strings.Contains(bad.Error(), "has the field "+field) {
			t.Errorf("%s: %v, want the entry broken by %s", name, bad, field)
		}
	}
	if bad := servers["claude"].bad; bad != nil || servers["claude"].Command != "node" {
		t.Errorf("claude: %v, %+v; want other clients' fields ignored", bad, servers["claude"])
	}
}
