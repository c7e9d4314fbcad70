package session

import (
	"encoding/json"
	"mcpwitness/record"
	"slices"
	"strings"
	"testing"
)

func testKey(t *testing.T, seed string) *record.DigestKey {
	t.Helper()
	k, err := record.NewDigestKey([]byte(strings.Repeat(seed, 32)[:32]))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

var identityOpts = record.IdentityOptions{Protocol: "2025-06-18", ClientName: "mcpwitness", ClientVersion: "v1"}

func stdioTarget(k *record.DigestKey) Target {
	return Target{Command: []string{"node", "server.js", "--port", "1"}, Dir: "/srv",
		Env: []string{"API_KEY=hunter2-secret", "MODE=fast"}, DigestKey: k}
}

func httpTarget(k *record.DigestKey) Target {
	return Target{URL: "https://example.test/mcp?token=tok-secret-1", HeaderCmd: "vend",
		Headers: []string{"Authorization: Bearer bearer-secret-2", "X-Team: blue"}, DigestKey: k}
}

func TestIdentityIsStable(t *testing.T) {
	t.Parallel()
	k := testKey(t, "a")
	a := stdioTarget(k).Identify(identityOpts)
	b := stdioTarget(k).Identify(identityOpts)
	if a.Hash != b.Hash || len(a.Hash) != 64 {
		t.Fatalf("hashes %s and %s", a.Hash, b.Hash)
	}
	// The order of the environment (a config file's map order) does not count.
	swapped := stdioTarget(k)
	slices.Reverse(swapped.Env)
	if got := swapped.Identify(identityOpts); got.Hash != a.Hash {
		t.Errorf("env order changed the hash: %s vs %s", got.Hash, a.Hash)
	}
	hdr := httpTarget(k)
	slices.Reverse(hdr.Headers)
	if hdr.Identify(identityOpts).Hash != httpTarget(k).Identify(identityOpts).Hash {
		t.Error("header order changed the hash")
	}
	// A name a config file gives the server is no part of it.
	named := stdioTarget(k)
	named.Name = "other"
	if named.Identify(identityOpts).Hash != a.Hash {
		t.Error("the entry's name changed the hash")
	}
}

func TestIdentityChangesWithEachPart(t *testing.T) {
	t.Parallel()
	k := testKey(t, "a")
	baseS, baseH := stdioTarget(k).Identify(identityOpts), httpTarget(k).Identify(identityOpts)
	tests := []struct {
		name   string
		change func(t *Target, o *record.IdentityOptions)
		http   bool
		part   string
	}{
		{"command", func(t *Target, _ *record.IdentityOptions) { t.Command[0] = "deno" }, false, record.PartCommand},
		{"args", func(t *Target, _ *record.IdentityOptions) { t.Command[3] = "2" }, false, record.PartArgs},
		{"arg order", func(t *Target, _ *record.IdentityOptions) { t.Command[2], t.Command[3] = t.Command[3], t.Command[2] }, false, record.PartArgs},
		{"cwd", func(t *Target, _ *record.IdentityOptions) { t.Dir = "/tmp" }, false, record.PartCwd},
		{"env value", func(t *Target, _ *record.IdentityOptions) { t.Env[0] = "API_KEY=other" }, false, "env:API_KEY"},
		{"env name", func(t *Target, _ *record.IdentityOptions) { t.Env[1] = "SPEED=fast" }, false, "env:MODE"},
		{"protocol", func(_ *Target, o *record.IdentityOptions) { o.Protocol = "2025-03-26" }, false, record.PartProtocol},
		{"client", func(_ *Target, o *record.IdentityOptions) { o.ClientVersion = "v2" }, false, record.PartClient},
		{"url", func(t *Target, _ *record.IdentityOptions) { t.URL = "https://example.test/other?token=tok-secret-1" }, true, record.PartURL},
		{"url secret", func(t *Target, _ *record.IdentityOptions) { t.URL = "https://example.test/mcp?token=tok-secret-9" }, true, record.PartURL},
		{"header value", func(t *Target, _ *record.IdentityOptions) { t.Headers[1] = "X-Team: red" }, true, "header:X-Team"},
		{"header name", func(t *Target, _ *record.IdentityOptions) { t.Headers[1] = "X-Group: blue" }, true, "header:X-Group"},
		{"header-cmd", func(t *Target, _ *record.IdentityOptions) { t.HeaderCmd = "vend2" }, true, record.PartHeaderCmd},
		{"transport", func(t *Target, _ *record.IdentityOptions) { t.SSE = true }, true, record.PartTransport},
	}
	for _, tc := range tests {
		target, o, base := stdioTarget(k), identityOpts, baseS
		if tc.http {
			target, base = httpTarget(k), baseH
		}
		tc.change(&target, &o)
		got := target.Identify(o)
		if got.Hash == base.Hash {
			t.Errorf("%s: the hash did not change", tc.name)
			continue
		}
		if diff := base.Differences(got); !slices.Contains(diff, tc.part) {
			t.Errorf("%s: differences %q do not name %s", tc.name, diff, tc.part)
		}
	}
	if d := baseS.Differences(stdioTarget(k).Identify(identityOpts)); d != nil {
		t.Errorf("equal identities differ in %q", d)
	}
}

func TestIdentityRevealsNoValue(t *testing.T) {
	t.Parallel()
	k := testKey(t, "a")
	for _, target := range []Target{stdioTarget(k), httpTarget(k)} {
		id := target.Identify(identityOpts)
		b, _ := json.Marshal(id)
		info, _ := json.Marshal(target.Describe())
		for _, value := range []string{"hunter2-secret", "tok-secret-1", "bearer-secret-2", "blue", "fast"} {
			if strings.Contains(string(b), value) {
				t.Errorf("%s is in %s", value, b)
			}
		}
		// Values that are not secrets (MODE=fast, X-Team: blue) are
		// described as given.
		for _, secret := range []string{"hunter2-secret", "tok-secret-1", "bearer-secret-2"} {
			if strings.Contains(string(info), secret) {
				t.Errorf("%s is in %s", secret, info)
			}
		}
	}
}

func TestIdentityKeyedAcrossSessions(t *testing.T) {
	t.Parallel()
	k1, again, k2 := testKey(t, "a"), testKey(t, "a"), testKey(t, "b")
	one, two := httpTarget(k1).Identify(identityOpts), httpTarget(again).Identify(identityOpts)
	if one.Hash != two.Hash || one.Key != two.Key {
		t.Errorf("one key, two sessions: %s vs %s", one.Hash, two.Hash)
	}
	other := httpTarget(k2).Identify(identityOpts)
	if other.Hash == one.Hash || other.Key == one.Key {
		t.Error("another key gave the same hash for secret values")
	}
	diff := one.Differences(other)
	if slices.Contains(diff, "header:X-Team") == false || slices.Contains(diff, record.PartHeaderCmd) {
		t.Errorf("differences with another key = %q, want the digested parts only", diff)
	}
}
