package session

import (
	"path/filepath"
	"strings"
	"testing"

	"mcpwitness/session/oauth"
)

func TestTargetLoopback(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		t    Target
		want bool
	}{
		{Target{URL: "http://127.0.0.1:8080/mcp"}, true},
		{Target{URL: "http://localhost/mcp"}, true},
		{Target{URL: "http://[::1]:9/mcp"}, true},
		{Target{URL: "https://mcp.example.com/mcp"}, false},
		{Target{Command: []string{"server"}}, false},
	} {
		if got := tt.t.Loopback(); got != tt.want {
			t.Errorf("%+v.Loopback() = %v, want %v", tt.t, got, tt.want)
		}
	}
}

// A --client-key that does not load is named, with its file, by Validate.
func TestValidateNamesABadClientKey(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "missing.pem")
	err := Target{URL: "https://x.test/mcp", OAuth: oauth.ClientCredentials, ClientID: "svc", ClientKey: path}.Validate()
	if err == nil || !strings.HasPrefix(err.Error(), "--client-key "+path+": ") {
		t.Errorf("Validate says %v; want it to name --client-key and the file", err)
	}
}
