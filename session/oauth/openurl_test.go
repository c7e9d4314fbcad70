package oauth

import (
	"mcpwitness/internal/oauthtest"
	"os"
	"strings"
	"testing"
)

func TestCheckOpenURL(t *testing.T) {
	t.Parallel()
	tests := []struct {
		raw      string
		loopback bool   // the target is on loopback
		refusal  string // "" when allowed, else what the error says
	}{
		{"https://auth.example.com/authorize?client_id=x&state=y", false, ""},
		{"HTTPS://auth.example.com/authorize", false, ""},
		{"https://[2001:db8::1]:8443/a", false, ""},
		{"http://127.0.0.1:6277/authorize", true, ""},
		{"http://127.3.4.5/authorize", true, ""},
		{"http://localhost:8080/authorize", true, ""},
		{"http://[::1]:8080/authorize", true, ""},
		{"http://127.0.0.1:6277/authorize", false, `scheme "http" is not https`},
		{"http://localhost/authorize", false, `scheme "http" is not https`},
		{"http://auth.example.com/authorize", true, `scheme "http" on host "auth.example.com" is not https`},
		{"http://127.0.0.1.example.com/", true, `is not https`},
		{"file://localhost/etc/passwd", true, `scheme "file" is not https`},
		{"file:///etc/passwd", false, `scheme "file" is not https`},
		{"smb://localhost/share", true, `scheme "smb" is not https`},
		{"vscode://localhost/x", true, `scheme "vscode" is not https`},
		{"javascript:alert(1)", false, `scheme "javascript" is not https`},
		{"data:text/html,<script>alert(1)</script>", false, `scheme "data" is not https`},
		{"--gpu-launcher=touch /tmp/pwned", false, "starts with a dash"},
		{"-https://example.com/", false, "starts with a dash"},
		{"https://user:pw@example.com/", false, "user name or password"},
		{"https://user@example.com/", false, "user name or password"},
		{"https:///path", false, "no host"},
		{"https://:443/path", false, "no host"},
		{"https:example.com", false, `no "//"`},
		{"//example.com/x", false, "no scheme"},
		{"/authorize", false, "no scheme"},
		{"", false, "empty URL"},
		{"https://example.com/a b", false, "whitespace"},
		{"https://example.com/\u00a0", false, "whitespace"},
		{"https://example.com/\t", false, "control character"},
		{"https://example.com/\x1b]52;c;aGk=\a", false, "control character"},
		{"https://example.com/\r\nX", false, "control character"},
		{"https://example.com/\u0085", false, "control character"},
		{"https://example.com/\x7f", false, "control character"},
		{"https://exa\u202emple.com/", false, "U+202E"},
		{"https://example.com/\u2066x", false, "U+2066"},
		{"https://exa\u200bmple.com/", false, "U+200B"},
		{"https://example.com/\u200d", false, "U+200D"},
		{"https://example.com/\ufeff", false, "U+FEFF"},
		{"https://example.com/\U000e0041", false, "U+E0041"},
		{"https://example.com/\U000e0000", false, "U+E0000"},
		{"https://example.com/\xff", false, "invalid UTF-8"},
	}
	for _, tt := range tests {
		u, err := CheckOpenURL(tt.raw, tt.loopback)
		switch {
		case tt.refusal == "" && err != nil:
			t.Errorf("CheckOpenURL(%q, %v): %v, want it allowed", tt.raw, tt.loopback, err)
		case tt.refusal == "" && u == nil:
			t.Errorf("CheckOpenURL(%q, %v) allowed it with no URL", tt.raw, tt.loopback)
		case tt.refusal != "" && err == nil:
			t.Errorf("CheckOpenURL(%q, %v) allowed it, want a refusal saying %q", tt.raw, tt.loopback, tt.refusal)
		case tt.refusal != "" && !strings.Contains(err.Error(), tt.refusal):
			t.Errorf("CheckOpenURL(%q, %v): %q, want it to say %q", tt.raw, tt.loopback, err, tt.refusal)
		case err != nil && (strings.ContainsAny(err.Error(), "\x1b\r\n\t\a\u202e\u200b") || !strings.HasPrefix(err.Error(), "refusing to open")):
			t.Errorf("CheckOpenURL(%q, %v): error %q is not one sanitised refusal", tt.raw, tt.loopback, err)
		}
	}
}

func TestOpenURLRefusesBeforeRunningTheBrowser(t *testing.T) {
	out := oauthtest.RecordingBrowser(t)
	for _, raw := range []string{"--gpu-launcher=touch /tmp/x", "javascript:alert(1)", "file://localhost/etc/passwd"} {
		if cmd, err := OpenURL(t.Context(), raw, true); err == nil || cmd != "" {
			t.Errorf("OpenURL(%q) = %q, %v; want a refusal that runs nothing", raw, cmd, err)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		b, _ := os.ReadFile(out)
		t.Fatalf("the browser ran with %q", b)
	}
	const good = "https://example.com/authorize?state=1"
	if _, err := OpenURL(t.Context(), good, false); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil || string(b) != good+"\n" {
		t.Errorf("the browser got %q (%v), want the URL alone as its last argument", b, err)
	}
}
