package session

import (
	"mcpwitness/record"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDigestKeyIsMadeOnceWithMode0600(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "cfg", "mcpwitness", "digest.key")
	k1, err := record.LoadDigestKey(path)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("key file mode = %v, want 0600", st.Mode().Perm())
	}
	before, _ := os.ReadFile(path)
	k2, err := record.LoadDigestKey(path)
	if err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(path)
	if string(before) != string(after) {
		t.Error("loading the key again rewrote it")
	}
	if k1.Digest("p", "secret", 0) != k2.Digest("p", "secret", 0) || k1.ID() != k2.ID() {
		t.Error("two loads of one key file digest differently")
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("the key's directory holds %d entries, want only the key", len(entries))
	}
}

func TestDigestKeyNeverOverwritten(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "digest.key")
	if err := os.WriteFile(path, []byte("not a key\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := record.LoadDigestKey(path)
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "is not a key") {
		t.Errorf("err = %v, want one naming %s as not a key", err, path)
	}
	if b, _ := os.ReadFile(path); string(b) != "not a key\n" {
		t.Errorf("the file was overwritten: %q", b)
	}
}

func TestKeyedPlaceholders(t *testing.T) {
	t.Parallel()
	k1, _ := record.NewDigestKey([]byte("0123456789abcdef0123456789abcdef"))
	k2, _ := record.NewDigestKey([]byte("fedcba9876543210fedcba9876543210"))
	target := Target{Command: []string{"srv"}, Env: []string{"API_KEY=hunter2-secret"}}
	a, b := target, target
	a.DigestKey, b.DigestKey = k1, k2
	pa, pb := a.Describe().Env["API_KEY"], b.Describe().Env["API_KEY"]
	if pa == pb {
		t.Errorf("two keys give one placeholder %s", pa)
	}
	if again := a.Describe().Env["API_KEY"]; again != pa {
		t.Errorf("one key gives two placeholders: %s, %s", pa, again)
	}
	if plain := record.Placeholder("API_KEY", "hunter2-secret"); pa == plain || pb == plain {
		t.Errorf("the keyed placeholder is the unkeyed SHA-256 one: %s", plain)
	}
	if got := string(a.Secrets().JSON([]byte(`{"x":"hunter2-secret"}`))); !strings.Contains(got, pa) {
		t.Errorf("the redactor wrote %s, want %s in it", got, pa)
	}
}

func TestRedactorMerge(t *testing.T) {
	k, _ := record.NewDigestKey([]byte("0123456789abcdef0123456789abcdef"))
	a := Target{Command: []string{"a"}, Env: []string{"A_KEY=alpha-secret-1"}, DigestKey: k}
	b := Target{URL: "http://127.0.0.1:9/mcp", Headers: []string{"Authorization: Bearer beta-secret-22"}, DigestKey: k}
	red := a.Secrets()
	red.Merge(b.Secrets())
	got := red.String("alpha-secret-1 and beta-secret-22 and Bearer beta-secret-22")
	if strings.Contains(got, "alpha-secret") || strings.Contains(got, "beta-secret") {
		t.Errorf("a merged redactor left a secret: %s", got)
	}
	if !strings.Contains(got, b.Describe().Headers["Authorization"]) && !strings.Contains(got, "[REDACTED:Authorization:") {
		t.Errorf("the second target's placeholder is not used: %s", got)
	}
}
