package report_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mcpwitness/record"
	"mcpwitness/report"
	"mcpwitness/session"
)

// testKey is a fixed digest key, so no test reads or makes the user's.
func testKey(t *testing.T, seed string) *record.DigestKey {
	t.Helper()
	k, err := record.NewDigestKey([]byte(strings.Repeat(seed, 32)[:32]))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// testScrubber scrubs with testKey(t, "k").
func testScrubber(t *testing.T) *report.Scrubber { return report.KeyedScrubber(testKey(t, "k")) }

func TestScrub(t *testing.T) {
	k := testKey(t, "k")
	tests := []struct{ in, want string }{
		{"see https://bob:pw-1@host/x", "see https://" + record.KeyedPlaceholder(k, "userinfo", "bob:pw-1") + "@host/x"},
		{"https://[REDACTED:userinfo:sha256=00]@host", "https://[REDACTED:userinfo:sha256=00]@host"},
		{"Authorization: Bearer abcdef0123456789", "Authorization: Bearer " + record.KeyedPlaceholder(k, "Authorization", "abcdef0123456789")},
		{"Bearer tokens are described here", "Bearer tokens are described here"},
		{"mailto:someone@example.com", "mailto:someone@example.com"},
	}
	for _, tc := range tests {
		got, err := report.KeyedScrubber(k).Scrub(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("Scrub(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
		if strings.Contains(got, record.Placeholder("userinfo", "bob:pw-1")) || strings.Contains(got, record.Placeholder("Authorization", "abcdef0123456789")) {
			t.Errorf("Scrub(%q) wrote the unkeyed SHA-256: %q", tc.in, got)
		}
	}
}

// The report's last-resort scrub writes the record's placeholder for the
// same secret with the same key: a token the recorder redacts (a bearer
// header's token, URL userinfo) reads the same in the record and in a
// report of a file that still held it; with another key both differ, and
// neither is the unkeyed SHA-256.
func TestScrubMatchesTheRecord(t *testing.T) {
	const token, userinfo = "tok-0123456789abcdef", "bob:hunter2-weak"
	k, other := testKey(t, "k"), testKey(t, "o")
	recorded := func(k *record.DigestKey) (tok, user string) {
		r := session.Target{URL: "https://" + userinfo + "@example.com/mcp", Headers: []string{"Authorization: Bearer " + token}, DigestKey: k}.Secrets()
		return r.String(token), r.String("https://" + userinfo + "@example.com/")
	}
	text := "auth failed for Bearer " + token + " at https://" + userinfo + "@example.com/"
	scrubbed := func(k *record.DigestKey) string {
		s, err := report.KeyedScrubber(k).Scrub(text)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	recTok, recURL := recorded(k)
	got := scrubbed(k)
	want := "auth failed for Bearer " + recTok + " at " + recURL
	if got != want {
		t.Errorf("the report scrubs\n%q\nthe record redacts\n%q", got, want)
	}
	otherTok, _ := recorded(other)
	gotOther := scrubbed(other)
	if otherTok == recTok || gotOther == got || !strings.Contains(gotOther, otherTok) {
		t.Errorf("another key: record %q (was %q), report %q (was %q)", otherTok, recTok, gotOther, got)
	}
	for _, s := range []string{got, gotOther} {
		if strings.Contains(s, record.Placeholder("Authorization", token)) || strings.Contains(s, record.Placeholder("userinfo", userinfo)) ||
			strings.Contains(s, token) || strings.Contains(s, "hunter2") {
			t.Errorf("the scrub leaves the secret or its unkeyed digest: %q", s)
		}
	}
}

// The key is asked for only when there is a credential to replace; when
// it cannot be had, nothing is written and the error names the cause.
func TestScrubAsksTheKeyOnlyWhenNeeded(t *testing.T) {
	asked := 0
	broken := report.NewScrubber(func() (*record.DigestKey, error) {
		asked++
		return nil, errors.New("reading the digest key: permission denied (pass --digest-key FILE)")
	})
	if s, err := broken.Scrub("nothing secret here"); err != nil || s != "nothing secret here" || asked != 0 {
		t.Errorf("no credential: %q, %v, key asked %d times", s, err, asked)
	}
	s, err := broken.Scrub("Bearer abcdef0123456789 and Basic Ym9iOmh1bnRlcjI0NQ==")
	if err == nil || !strings.Contains(err.Error(), "permission denied") || !strings.Contains(err.Error(), "--digest-key") || asked != 1 {
		t.Errorf("a broken key: err %v, asked %d times", err, asked)
	}
	if strings.Contains(s, "abcdef0123456789") || strings.Contains(s, "sha256=") {
		t.Errorf("a broken key left %q", s)
	}
	// A report through it fails rather than writing the credential.
	file := `{"format":"mcpwitness-session","version":1,"tool":"other","target":{"transport":"http","url":"https://example.com/mcp","headers":{"Authorization":"Bearer canary-header-0123456789"}},"started":"2026-01-02T03:04:05Z"}
`
	path := filepath.Join(t.TempDir(), "other.jsonl")
	if err := os.WriteFile(path, []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	sum, err := report.Summarize(openFile(t, path), nil)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := sum.Markdown(&b, &report.MarkdownOptions{Scrubber: broken}); err == nil || b.Len() > 0 {
		t.Errorf("a report with a credential and no key: err %v, wrote %d bytes", err, b.Len())
	}
	// --digest-key FILE: the key kept there.
	keyFile := filepath.Join(t.TempDir(), "digest.key")
	at := report.ScrubberAt(keyFile)
	s, err = at.Scrub("Bearer abcdef0123456789")
	loaded, lerr := record.LoadDigestKey(keyFile)
	if err != nil || lerr != nil || s != "Bearer "+record.KeyedPlaceholder(loaded, "Authorization", "abcdef0123456789") {
		t.Errorf("ScrubberAt: %q, %v, %v", s, err, lerr)
	}
}
