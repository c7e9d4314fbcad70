package session

import (
	"context"
	"strings"
	"testing"

	"mcpwitness/demo"
	"mcpwitness/internal/hostiletest"
	"mcpwitness/record"
)

// hostileOrigin serves the hostile server in an HTTP mode.
func hostileOrigin(t *testing.T, mode string) *hostiletest.HTTPServer {
	t.Helper()
	return hostiletest.ServeHTTP(t, hostiletest.Build(t), mode)
}

// The other origin a hostile server redirects to sees none of the user's
// headers.
func TestHostileRedirectGetsNoCredentials(t *testing.T) {
	t.Parallel()
	srv := hostileOrigin(t, hostiletest.ModeHTTPRedirectOrigin)
	s := dial(t, credentialTarget(srv.URL), nil)
	if r := s.Ping(context.Background()); r.Err != nil {
		t.Fatal(r.Err)
	}
	seen := srv.Seen(t)
	if len(seen) == 0 {
		t.Fatal("the other origin got no request")
	}
	for _, r := range seen {
		for _, name := range []string{"X-Api-Key", "X-Vended", "Authorization"} {
			if v := r.Headers.Get(name); v != "" {
				t.Errorf("%s %s got %s: %s", r.Method, r.Path, name, v)
			}
		}
	}
}

// A hostile legacy SSE server's endpoint on another origin gets nothing.
func TestHostileSSEEndpointElsewhereRefused(t *testing.T) {
	t.Parallel()
	srv := hostileOrigin(t, hostiletest.ModeHTTPSSEOrigin)
	_, err := dialFails(t, Target{URL: strings.TrimSuffix(srv.URL, "/mcp") + "/sse", SSE: true}, &Options{})
	if !strings.Contains(err.Error(), srv.Inside+"/message, another origin") {
		t.Errorf("error %q does not name the other origin", err)
	}
	if n := len(srv.Seen(t)); n > 0 {
		t.Errorf("the other origin got %d requests", n)
	}
}

// A hostile remote server's metadata naming an authorization server inside
// the user's network gets nothing fetched from there; one naming a file is
// passed over (the SDK takes only http and https metadata) and the file is
// never read.
func TestHostileMetadataInsideRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ mode, want string }{
		{hostiletest.ModeHTTPMetaInside, "refused to connect to 127.0.0.1:"},
		{hostiletest.ModeHTTPMetaFile, "OAuth failed"},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			srv := hostileOrigin(t, tc.mode)
			log, err := dialFails(t, secretTarget(srv.URL), &Options{internal: asRemote(t, strings.TrimSuffix(srv.URL, "/mcp"))})
			if n := len(srv.Seen(t)); n > 0 {
				t.Errorf("the inside listener got %d requests", n)
			}
			if !strings.Contains(err.Error(), tc.want) && !logSays(log, record.KindAuth, tc.want) {
				t.Errorf("neither the error %q nor an OAuth event says %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "root:") || logSays(log, record.KindAuth, "root:") {
				t.Errorf("the error or an event holds /etc/passwd: %v", err)
			}
		})
	}
}

// A hostile server's authorization server on another host gets the client
// secret only when --oauth-issuer names it, and then with the resource.
func TestHostileAuthorizationServerElsewhere(t *testing.T) {
	t.Parallel()
	srv := hostileOrigin(t, hostiletest.ModeHTTPASElsewhere)
	issuer := strings.Replace(srv.Inside, "127.0.0.1", "localhost", 1)
	_, err := dialFails(t, secretTarget(srv.URL), &Options{})
	if want := "pass --oauth-issuer " + issuer + " to trust it"; !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not say %q", err, want)
	}
	if n := len(srv.Seen(t)); n > 0 {
		t.Errorf("the authorization server got %d requests", n)
	}
	target := secretTarget(srv.URL)
	target.OAuthIssuer = issuer
	s := dial(t, target, nil)
	if r := s.Ping(context.Background()); r.Err != nil {
		t.Fatal(r.Err)
	}
	var tokens int
	for _, r := range srv.Seen(t) {
		if r.Path != "/token" {
			continue
		}
		tokens++
		if r.Form.Get("client_secret") != demo.DemoClientSecret || r.Form.Get("resource") != srv.URL {
			t.Errorf("token request %v: want the secret and resource %s", r.Form, srv.URL)
		}
	}
	if tokens == 0 {
		t.Error("no token request")
	}
}
