package main

import (
	"slices"
	"strings"
	"testing"
)

// Every ${env:NAME} value filled into a config entry is a secret wherever
// it stands (command, args, cwd, env), described as the reference; the
// entry's "secrets" and --secret mark names; other values are kept.
func TestConfigEnvValuesAndSecretsField(t *testing.T) {
	t.Parallel()
	env := map[string]string{"MCPW_DIR": "/srv/private-dir", "MCPW_BIN": "/opt/private-bin"}
	path := writeConfig(t, `{"mcpServers": {"s": {"command": "${env:MCPW_BIN}", "args": ["--root", "${env:MCPW_DIR}/data"],
		"cwd": "${env:MCPW_DIR}", "env": {"PLAIN": "kept-as-given", "MARKED": "marked-value", "FLAGGED": "flagged-value"},
		"secrets": ["MARKED"]}}}`)
	cfg, err := parseAndResolve(env, "tools", "--config", path, "--secret", "FLAGGED")
	if err != nil {
		t.Fatal(err)
	}
	info := cfg.target.Describe()
	if want := []string{"${env:MCPW_BIN}", "--root", "${env:MCPW_DIR}/data"}; !slices.Equal(info.Command, want) {
		t.Errorf("command described as %q, want %q", info.Command, want)
	}
	if info.Dir != "${env:MCPW_DIR}" {
		t.Errorf("cwd described as %q", info.Dir)
	}
	if info.Env["PLAIN"] != "kept-as-given" {
		t.Errorf("PLAIN described as %q", info.Env["PLAIN"])
	}
	for _, name := range []string{"MARKED", "FLAGGED"} {
		if !strings.HasPrefix(info.Env[name], "[REDACTED:"+name+":") {
			t.Errorf("%s described as %q", name, info.Env[name])
		}
	}
	got := cfg.secrets().String("ran /opt/private-bin in /srv/private-dir with marked-value, flagged-value and kept-as-given")
	for _, secret := range []string{"private-bin", "private-dir", "marked-value", "flagged-value"} {
		if strings.Contains(got, secret) {
			t.Errorf("%s is not masked: %s", secret, got)
		}
	}
	if !strings.Contains(got, "kept-as-given") {
		t.Errorf("a plain value was masked: %s", got)
	}
}

// An empty name in "secrets" is refused.
func TestConfigEmptySecretName(t *testing.T) {
	t.Parallel()
	path := writeConfig(t, `{"mcpServers": {"s": {"command": "srv", "secrets": [""]}}}`)
	if _, err := parseAndResolve(nil, "tools", "--config", path); err == nil || !strings.Contains(err.Error(), "secret") {
		t.Errorf("an empty secret name: %v", err)
	}
}
