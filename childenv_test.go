package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"mcpwitness/internal/hostiletest"
)

// A stdio server gets neither GITHUB_TOKEN nor the rest of our environment
// beyond the usual few, but gets -e, and everything with --inherit-env or
// a config entry's "inheritEnv": true.
func TestChildEnvironmentIsMinimal(t *testing.T) {
	const canary = "ghp-canary-5a0e"
	t.Setenv("GITHUB_TOKEN", canary)
	bin := hostiletest.Build(t)
	server := []string{"--", bin, "-mode", hostiletest.ModeEnv}
	inherit := writeConfig(t, `{"mcpServers": {"env": {"command": `+quoteJSON(bin)+`, "args": ["-mode", "env"], "inheritEnv": true}}}`)
	for _, tc := range []struct {
		name string
		args []string
		code int
		says string
	}{
		{"token kept back", append([]string{"call", "env", "name=GITHUB_TOKEN"}, server...), exitToolError, "GITHUB_TOKEN is not set"},
		{"PATH passed", append([]string{"call", "env", "name=PATH", "--json"}, server...), exitOK, os.Getenv("PATH")},
		{"-e passed", append([]string{"call", "env", "name=GREETING", "-e", "GREETING=hello-3b1f"}, server...), exitOK, "hello-3b1f"}, // an ordinary value, recorded as given
		// Inherited whole, a secret-named variable reaches the child and is
		// masked when the server echoes it.
		{"--inherit-env", append([]string{"call", "env", "name=GITHUB_TOKEN", "--inherit-env"}, server...), exitOK, "[REDACTED:GITHUB_TOKEN:"},
		{"inheritEnv in the config", []string{"call", "env", "name=GITHUB_TOKEN", "--config", inherit}, exitOK, "[REDACTED:GITHUB_TOKEN:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, stderr := runCLI(t, tc.args...)
			if code != tc.code || !strings.Contains(out, tc.says) {
				t.Errorf("exit %d (want %d), output does not say %s:\n%s%s", code, tc.code, tc.says, out, stderr)
			}
			if strings.Contains(out+stderr, canary) {
				t.Errorf("the token's value reached the output:\n%s%s", out, stderr)
			}
		})
	}
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
