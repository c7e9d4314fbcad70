package main

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"mcpwitness/record"
)

// keyedEnviron is testEnviron(vars) with its digest key at a temporary
// path, so no test writes the user's own key.
func keyedEnviron(t *testing.T, vars map[string]string) environ {
	env := testEnviron(vars)
	dir := t.TempDir()
	env.digestKey = func(path string) (*record.DigestKey, error) {
		if path == "" {
			path = filepath.Join(dir, "digest.key")
		}
		return record.LoadDigestKey(path)
	}
	return env
}

func TestConfigServersMergeDuplicates(t *testing.T) {
	t.Parallel()
	file := writeConfig(t, `{"mcpServers": {
		"demo": {"command": "mcpwitness", "args": ["demo-server"], "env": {"K": "${env:TOKEN}"}},
		"demo-again": {"args": ["demo-server"], "command": "mcpwitness", "env": {"K": "${env:TOKEN}"}},
		"broken": {"command": "/no/such/server"},
		"remote": {"url": "https://example.test/mcp", "headers": {"Authorization": "Bearer ${env:TOKEN}"}}}}`)
	env := keyedEnviron(t, map[string]string{"TOKEN": "tok-123456"})
	for _, cmd := range [][]string{{"--config", file}, {"check", "--config", file}} {
		cfg, err := parseArgs(cmd)
		if err != nil {
			t.Fatal(err)
		}
		r, err := resolve(cfg, env)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, s := range r.servers {
			names = append(names, s.name())
			if s.target.Identity == nil || len(s.target.Identity.Hash) != 64 {
				t.Errorf("%s has no identity", s.name())
			}
		}
		if want := []string{"broken", "demo = demo-again", "remote"}; !reflect.DeepEqual(names, want) {
			t.Errorf("%q: servers %q, want %q", cmd, names, want)
		}
	}

	// --server picks some; one picked is the single-server path.
	cfg, _ := parseArgs([]string{"--config", file, "--server", "remote,demo"})
	r, err := resolve(cfg, env)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.servers) != 2 || r.servers[0].name() != "demo" || r.servers[1].name() != "remote" {
		t.Errorf("--server remote,demo: %+v", r.servers)
	}
	cfg, _ = parseArgs([]string{"--config", file, "--server", "remote"})
	if r, err = resolve(cfg, env); err != nil || r.servers != nil || r.target.URL == "" || r.target.Identity == nil {
		t.Errorf("--server remote: servers %v, target %+v, err %v", r.servers, r.target, err)
	}
	cfg, _ = parseArgs([]string{"--config", file, "--server", "demo,nope"})
	if _, err := resolve(cfg, env); err == nil || !strings.Contains(err.Error(), `no server "nope"`) {
		t.Errorf("--server demo,nope: err = %v", err)
	}
	// A command that talks to one server still wants one.
	cfg, _ = parseArgs([]string{"tools", "--config", file})
	if _, err := resolve(cfg, env); err == nil || !strings.Contains(err.Error(), "pick one with --server") {
		t.Errorf("tools with several servers: err = %v", err)
	}
}

func TestConfigHashStableAcrossFileOrder(t *testing.T) {
	t.Parallel()
	env := keyedEnviron(t, map[string]string{"TOKEN": "tok-123456"})
	one := writeConfig(t, `{"mcpServers": {"a": {"command": "srv", "args": ["x", "y"], "env": {"A": "1", "B": "${env:TOKEN}"}}, "b": {"command": "other"}}}`)
	two := writeConfig(t, `{"mcpServers": {"b": {"command": "other"}, "a": {"env": {"B": "${env:TOKEN}", "A": "1"}, "args": ["x", "y"], "command": "srv"}}}`)
	hash := func(file string) string {
		cfg, _ := parseArgs([]string{"tools", "--config", file, "--server", "a"})
		r, err := resolve(cfg, env)
		if err != nil {
			t.Fatal(err)
		}
		return r.target.Identity.Hash
	}
	if h1, h2 := hash(one), hash(two); h1 != h2 {
		t.Errorf("one server in two orders of the file: %s vs %s", h1, h2)
	}
}

func TestConfigSecretsOfEveryServer(t *testing.T) {
	t.Parallel()
	file := writeConfig(t, `{"mcpServers": {
		"a": {"command": "srv", "env": {"A_TOKEN": "alpha-secret-1"}},
		"b": {"url": "https://example.test/mcp", "headers": {"X-Key": "beta-secret-2"}}}}`)
	cfg, _ := parseArgs([]string{"--config", file})
	r, err := resolve(cfg, keyedEnviron(t, nil))
	if err != nil {
		t.Fatal(err)
	}
	if got := r.secrets().String("alpha-secret-1 beta-secret-2"); strings.Contains(got, "secret-") {
		t.Errorf("a secret of one of the servers is left: %s", got)
	}
}

func TestJSONDocumentsCarryTheConfigHash(t *testing.T) {
	t.Parallel()
	hash := func(args ...string) string {
		t.Helper()
		code, out, stderr := runCLI(t, append([]string{"tools", "--json"}, args...)...)
		if code != exitOK {
			t.Fatalf("tools --json %q: exit %d: %s", args, code, stderr)
		}
		var doc struct {
			Server struct {
				ConfigHash string `json:"configHash"`
			} `json:"server"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		if len(doc.Server.ConfigHash) != 64 {
			t.Fatalf("server.configHash = %q", doc.Server.ConfigHash)
		}
		return doc.Server.ConfigHash
	}
	a, b := hash(), hash()
	if a != b {
		t.Errorf("two runs of one target: %s, %s", a, b)
	}
	if c := hash("--protocol", "2025-06-18"); c == a {
		t.Error("another protocol version gave the same config hash")
	}
}

func TestConfigServersRecord(t *testing.T) {
	t.Parallel()
	file := writeConfig(t, `{"mcpServers": {"a": {"command": "x"}, "b": {"command": "y"}}}`)
	env := keyedEnviron(t, nil)
	cfg, _ := parseArgs([]string{"check", "--config", file, "--record", "r.jsonl"})
	if _, err := resolve(cfg, env); err == nil || !strings.Contains(err.Error(), "pick one with --server") {
		t.Errorf("check --record with two servers: err = %v", err)
	}
	cfg, _ = parseArgs([]string{"--config", file, "--record", "r.jsonl"})
	if r, err := resolve(cfg, env); err != nil || len(r.servers) != 2 {
		t.Errorf("the UI records several servers: %v", err)
	}
}

// TestRecordsKeyTheirDigests records one secret three times: with one key
// the placeholders match, with another they differ, and none is the
// unkeyed SHA-256 that anyone could test guesses against.
func TestRecordsKeyTheirDigests(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	placeholder := func(name, key string) string {
		t.Helper()
		rec := filepath.Join(dir, name+".jsonl")
		code, _, stderr := runCLI(t, "tools", "--record", rec, "--digest-key", filepath.Join(dir, key), "-e", "API_KEY=weak-secret-1", "--", testBinary(t), "demo-server")
		if code != exitOK {
			t.Fatalf("tools --record: exit %d: %s", code, stderr)
		}
		f, err := record.OpenFile(rec)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		h := f.Header()
		if h.Target.Config == nil || h.Target.Config.Key == "" {
			t.Errorf("%s: the header has no config identity with its key: %+v", name, h.Target)
		}
		return h.Target.Env["API_KEY"]
	}
	a, b, c := placeholder("a", "k1"), placeholder("b", "k1"), placeholder("c", "k2")
	if a != b {
		t.Errorf("one key, two records: %s vs %s", a, b)
	}
	if a == c {
		t.Errorf("another key gave the same placeholder %s", a)
	}
	if a == record.Placeholder("API_KEY", "weak-secret-1") || strings.Contains(a+c, "weak-secret") {
		t.Errorf("the placeholder is the unkeyed digest or holds the value: %s", a)
	}
}
