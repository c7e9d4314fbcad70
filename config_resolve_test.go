package main

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"mcpwitness/record"
)

// TestResolveErrorOrder holds which error resolve says when several
// apply, word for word, and the exit code each ends with.
func TestResolveErrorOrder(t *testing.T) {
	t.Parallel()
	two := writeConfig(t, `{"mcpServers": {"a": {"command": "x"}, "b": {"command": "y"}}}`)
	dup := writeConfig(t, `{"mcpServers": {"a": {"command": "x"}, "b": {"command": "x"}}}`)
	noExe := testEnviron(nil)
	noExe.executable = func() (string, error) { return "", errors.New("no /proc") }
	badKey := testEnviron(nil)
	badKey.digestKey = func(string) (*record.DigestKey, error) { return nil, errors.New("key file unreadable") }
	tests := []struct {
		name string
		env  environ
		args []string
		want string // "" for none
		code int
	}{
		{"the theme before the config file", testEnviron(nil), []string{"--theme", "plaid", "--config", "/no/such.json"},
			`unknown --theme "plaid"; choose one of `, exitUsage},
		{"the theme before the demo server", noExe, []string{"--theme", "plaid"}, `unknown --theme "plaid"; choose one of `, exitUsage},
		{"check --record follows one server", testEnviron(nil), []string{"check", "--config", two, "--record", "r.jsonl"},
			"check --record and --ndjson follow one server; " + two + " has 2: pick one with --server", exitUsage},
		{"check --ndjson too", testEnviron(nil), []string{"check", "--config", two, "--ndjson"},
			"check --record and --ndjson follow one server; " + two + " has 2: pick one with --server", exitUsage},
		{"a missing server before --record", testEnviron(nil), []string{"check", "--config", two, "--server", "a,zz", "--record", "r.jsonl"},
			`--config ` + two + ` has no server "zz"; it has a, b`, exitUsage},
		{"one server after merging is one", testEnviron(nil), []string{"check", "--config", dup, "--record", "r.jsonl"}, "", 0},
		{"one server named is one", testEnviron(nil), []string{"check", "--config", two, "--server", "b", "--ndjson"}, "", 0},
		{"the demo server needs this program", noExe, []string{"tools"},
			"finding this program to start the demo server: no /proc", exitConnect},
		{"a config server needs no program", noExe, []string{"tools", "--config", two, "--server", "a"}, "", 0},
		{"a digest key that cannot be read", badKey, []string{"tools", "--digest-key", "/k", "--", "node"}, "key file unreadable", exitConnect},
		{"a missing program before the digest key", noExe, []string{"tools", "--digest-key", "/k"},
			"finding this program to start the demo server: no /proc", exitConnect},
		{"a bad -e merged into a config server", testEnviron(nil), []string{"tools", "--config", two, "--server", "a", "-e", "NOEQ"}, `bad -e "NOEQ": want KEY=VALUE`, exitUsage},
		{"and into each of several", testEnviron(nil), []string{"check", "--config", two, "-e", "NOEQ"}, `server "a" in ` + two + `: bad -e "NOEQ": want KEY=VALUE`, exitUsage},
	}
	for _, tc := range tests {
		cfg, err := parseArgs(tc.args)
		if err != nil {
			t.Fatalf("%s: parsing: %v", tc.name, err)
		}
		_, err = resolve(cfg, tc.env)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || exitCode(err) != tc.code):
			t.Errorf("%s: err = %v (exit %d), want %q (exit %d)", tc.name, err, exitCode(err), tc.want, tc.code)
		}
	}
}

// TestResolveFillsEachCommand holds what resolve fills in per command:
// where a headless command's OAuth notice goes, the servers of a config
// file, the identity, and the parsed config left as it was.
func TestResolveFillsEachCommand(t *testing.T) {
	t.Parallel()
	two := writeConfig(t, `{"mcpServers": {"a": {"command": "x"}, "b": {"url": "https://b.test/mcp"}}}`)
	env := keyedEnviron(t, map[string]string{"NO_COLOR": "1"})
	resolved := func(args ...string) *config {
		t.Helper()
		cfg, err := parseArgs(args)
		if err != nil {
			t.Fatal(err)
		}
		r, err := resolve(cfg, env)
		if err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		if cfg.target.Notice != nil || cfg.servers != nil || cfg.noColor {
			t.Errorf("%q: resolve changed the parsed config", args)
		}
		return r
	}

	if r := resolved("tools"); r.target.Notice != os.Stderr || r.target.Identity == nil || !r.noColor {
		t.Errorf("tools: notice %v, identity %v, noColor %v", r.target.Notice, r.target.Identity, r.noColor)
	}
	if r := resolved(); r.target.Notice != nil || r.target.Identity == nil {
		t.Errorf("TUI: notice %v (want none: the UI shows it), identity %v", r.target.Notice, r.target.Identity)
	}
	if r := resolved("report", "f.jsonl"); r.target.Identity != nil || r.target.Command != nil || !r.noColor {
		t.Errorf("report: target %+v, noColor %v; want no server and NO_COLOR read", r.target, r.noColor)
	}

	r := resolved("check", "--config", two)
	if len(r.servers) != 2 || !reflect.DeepEqual(r.target.Command, []string{"x"}) {
		t.Fatalf("check --config: %d servers, target %q", len(r.servers), r.target.Command)
	}
	for _, s := range r.servers {
		if s.target.Notice != os.Stderr || s.target.Identity == nil {
			t.Errorf("check: server %s: notice %v, identity %v", s.name(), s.target.Notice, s.target.Identity)
		}
	}
	if r.target.Identity != r.servers[0].target.Identity {
		t.Errorf("check: the target is not the first server")
	}
	r = resolved("--config", two)
	for _, s := range r.servers {
		if s.target.Notice != nil {
			t.Errorf("TUI: server %s has a notice writer", s.name())
		}
	}
	if r = resolved("tools", "--config", two, "--server", "b", "-H", "X-A: 1"); r.servers != nil || r.target.URL != "https://b.test/mcp" ||
		!reflect.DeepEqual(r.target.Headers, []string{"X-A: 1"}) || r.target.Identity == nil || r.target.Notice != os.Stderr {
		t.Errorf("tools --server b: %+v", r.target)
	}
}
