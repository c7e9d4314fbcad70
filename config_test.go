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

func TestConfigFileTargets(t *testing.T) {
	t.Setenv("MCPW_TEST_TOKEN", "tok123")
	claude := writeConfig(t, `{"mcpServers": {
		"fs": {"command": "npx", "args": ["-y", "server-fs", "/tmp"], "env": {"B": "2", "A": "${env:MCPW_TEST_TOKEN}"}},
		"remote": {"url": "https://example.test/mcp", "headers": {"Authorization": "Bearer ${env:MCPW_TEST_TOKEN}"}}}}`)
	vscode := writeConfig(t, `{"servers": {"old": {"type": "sse", "url": "http://127.0.0.1:9/sse"}}}`)

	cfg, err := parseArgs([]string{"tools", "--config", claude, "--server", "fs", "-e", "C=3"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"npx", "-y", "server-fs", "/tmp"}; !reflect.DeepEqual(cfg.target.Command, want) {
		t.Errorf("command = %q", cfg.target.Command)
	}
	if want := []string{"A=tok123", "B=2", "C=3"}; !reflect.DeepEqual(cfg.target.Env, want) {
		t.Errorf("env = %q, want %q", cfg.target.Env, want)
	}

	cfg, err = parseArgs([]string{"tools", "--config", claude, "--server", "remote"})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.target.URL != "https://example.test/mcp" || len(cfg.target.Headers) != 1 || cfg.target.Headers[0] != "Authorization: Bearer tok123" {
		t.Errorf("target = %+v", cfg.target)
	}

	cfg, err = parseArgs([]string{"tools", "--config", vscode})
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
		_, err := parseArgs(append([]string{"tools"}, tc.args...))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err = %v, want %q", tc.args, err, tc.want)
		}
	}
}
