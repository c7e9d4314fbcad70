package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
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
