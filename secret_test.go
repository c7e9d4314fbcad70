package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --client-secret-file and --client-secret-env give the secret as
// --client-secret does, without it on the command line; a config entry's
// oauth.clientSecretFile and oauth.clientSecretEnv do the same.
func TestClientSecretFromFileOrEnvironment(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(file, []byte("s3cret-in-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"MCPW_TEST_SECRET": "s3cret-in-env"}
	cc := []string{"ping", "--url", "https://x.test/mcp", "--oauth", "client-credentials", "--client-id", "svc"}
	config := writeConfig(t, `{"mcpServers": {
		"file": {"url": "https://x.test/mcp", "oauth": {"mode": "client-credentials", "clientId": "svc", "clientSecretFile": "`+file+`"}},
		"env": {"url": "https://x.test/mcp", "oauth": {"mode": "client-credentials", "clientId": "svc", "clientSecretEnv": "MCPW_TEST_SECRET"}}}}`)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{append(cc, "--client-secret-file", file), "s3cret-in-file"},
		{append(cc, "--client-secret-env", "MCPW_TEST_SECRET"), "s3cret-in-env"},
		{[]string{"ping", "--config", config, "--server", "file"}, "s3cret-in-file"},
		{[]string{"ping", "--config", config, "--server", "env"}, "s3cret-in-env"},
	} {
		cfg, err := parseAndResolve(env, tc.args...)
		if err != nil {
			t.Errorf("%q: %v", tc.args, err)
			continue
		}
		if cfg.target.ClientSecret != tc.want {
			t.Errorf("%q: secret %q, want %q", tc.args, cfg.target.ClientSecret, tc.want)
		}
	}
}

// More than one source of the secret, a missing file and an unset
// variable are usage errors naming the flag or field.
func TestClientSecretSourcesSayWhatIsWrong(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing")
	cc := []string{"ping", "--url", "https://x.test/mcp", "--oauth", "client-credentials", "--client-id", "svc"}
	entry := func(oauth string) string {
		return writeConfig(t, `{"mcpServers": {"s": {"url": "https://x.test/mcp", "oauth": {"mode": "client-credentials", "clientId": "svc", `+oauth+`}}}}`)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{append(cc, "--client-secret", "s", "--client-secret-env", "X"), "--client-secret and --client-secret-env are ways to give one client secret: give one of --client-secret, --client-secret-file, --client-secret-env"},
		{append(cc, "--client-secret-file", missing, "--client-secret-env", "X"), "--client-secret-file and --client-secret-env are ways"},
		{append(cc, "--client-secret-file", missing), "--client-secret-file " + missing + ": cannot read the client secret"},
		{append(cc, "--client-secret-env", "MCPW_UNSET"), "--client-secret-env MCPW_UNSET: the environment variable MCPW_UNSET is not set"},
		{[]string{"ping", "--client-secret-env", "MCPW_UNSET"}, "give --url"},
		{[]string{"ping", "--config", entry(`"clientSecretEnv": "MCPW_UNSET"`)}, "has a bad oauth entry: oauth.clientSecretEnv MCPW_UNSET: the environment variable MCPW_UNSET is not set"},
		{[]string{"ping", "--config", entry(`"clientSecret": "s", "clientSecretFile": "f"`)}, "oauth.clientSecret and oauth.clientSecretFile are ways to give one client secret"},
		{[]string{"ping", "--config", entry(`"clientSecretFile": "` + missing + `"`)}, "oauth.clientSecretFile " + missing + ": cannot read the client secret"},
		{append(cc, "--client-secret", "s", "--oauth-issuer", "auth.example.com"), `bad --oauth-issuer: "auth.example.com" is not an authorization server's issuer URL`},
		{[]string{"ping", "--config", entry(`"clientSecret": "s", "issuer": "ftp://auth.example.com"`)}, "has a bad oauth.issuer"},
	} {
		_, err := parseAndResolve(nil, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) || exitCode(err) != exitUsage {
			t.Errorf("%q: err = %v (exit %d), want a usage error saying %q", tc.args, err, exitCode(err), tc.want)
		}
	}
}

// A config entry's oauth.issuer is --oauth-issuer; the flag wins.
func TestConfigEntryOAuthIssuer(t *testing.T) {
	t.Parallel()
	config := writeConfig(t, `{"mcpServers": {"s": {"url": "https://x.test/mcp", "oauth": {"mode": "client-credentials", "clientId": "svc", "clientSecret": "s", "issuer": "https://auth.example.com"}}}}`)
	cfg, err := parseAndResolve(nil, "ping", "--config", config)
	if err != nil || cfg.target.OAuthIssuer != "https://auth.example.com" {
		t.Fatalf("issuer from the entry: %v, %v", cfg, err)
	}
	cfg, err = parseAndResolve(nil, "ping", "--config", config, "--oauth-issuer", "https://other.example.com")
	if err != nil || cfg.target.OAuthIssuer != "https://other.example.com" {
		t.Fatalf("--oauth-issuer over the entry: %v, %v", cfg, err)
	}
}
