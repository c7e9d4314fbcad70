package session

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"mcpwitness/demo"
	"mcpwitness/record"

	"mcpwitness/session/oauth"
)

// foreignAS serves an MCP server on 127.0.0.1 whose resource metadata
// names an authorization server on another host, http://localhost:PORT
// (the demo's). It returns the MCP endpoint, the issuer, and the token
// requests the authorization server got (their forms, with the Basic
// credentials as client_id and client_secret).
func foreignAS(t *testing.T) (endpoint, issuer string, forms func() []url.Values) {
	t.Helper()
	var mu sync.Mutex
	var got []url.Values
	as := httptest.NewUnstartedServer(nil)
	issuer = "http://localhost:" + strings.TrimPrefix(as.Listener.Addr().String(), "127.0.0.1:")
	h := demo.AuthHandler(nil, issuer)
	as.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/token" {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			form, _ := url.ParseQuery(string(body))
			if id, secret, ok := r.BasicAuth(); ok {
				form.Set("client_id", id)
				form.Set("client_secret", secret)
			}
			mu.Lock()
			got = append(got, form)
			mu.Unlock()
		}
		h.ServeHTTP(w, r)
	})
	as.Start()
	t.Cleanup(as.Close)

	mcp := demo.Handler(nil)
	srv := httptest.NewServer(nil)
	t.Cleanup(srv.Close)
	endpoint = srv.URL + "/mcp"
	meta := srv.URL + "/.well-known/oauth-protected-resource/mcp"
	srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/.well-known/oauth-protected-resource/mcp":
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(map[string]any{"resource": endpoint, "authorization_servers": []string{issuer}})
		case r.URL.Path != "/mcp":
			http.NotFound(w, r)
		case strings.HasPrefix(r.Header.Get("Authorization"), "Bearer "):
			mcp.ServeHTTP(w, r)
		default:
			w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer resource_metadata=%q`, meta))
			w.WriteHeader(http.StatusUnauthorized)
		}
	})
	return endpoint, issuer, func() []url.Values {
		mu.Lock()
		defer mu.Unlock()
		return got
	}
}

func secretTarget(endpoint string) Target {
	return Target{URL: endpoint, OAuth: oauth.ClientCredentials, ClientID: demo.DemoClientID, ClientSecret: demo.DemoClientSecret}
}

// The client secret does not go to an authorization server on another
// host than the server's without --oauth-issuer; the error says how to
// trust it.
func TestClientSecretRefusedForAnotherHost(t *testing.T) {
	t.Parallel()
	endpoint, issuer, forms := foreignAS(t)
	_, err := dialFails(t, secretTarget(endpoint), &Options{})
	if n := len(forms()); n > 0 {
		t.Errorf("the authorization server got %d token requests", n)
	}
	want := "names authorization server " + issuer + ", on another host than the server; pass --oauth-issuer " + issuer + " to trust it"
	if !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not say %q", err, want)
	}
}

// With --oauth-issuer naming it, the authorization server gets the secret,
// and the grant names the MCP server as its resource (RFC 8707).
func TestClientSecretGoesToThePinnedIssuerWithTheResource(t *testing.T) {
	t.Parallel()
	endpoint, issuer, forms := foreignAS(t)
	target := secretTarget(endpoint)
	target.OAuthIssuer = issuer
	s := dial(t, target, nil)
	if r := s.Ping(context.Background()); r.Err != nil {
		t.Fatal(r.Err)
	}
	got := forms()
	if len(got) == 0 {
		t.Fatal("no token request")
	}
	for _, f := range got {
		if f.Get("grant_type") != "client_credentials" || f.Get("client_secret") != demo.DemoClientSecret || f.Get("resource") != endpoint {
			t.Errorf("token request %v: want the client credentials grant with the secret and resource %s", f, endpoint)
		}
	}
}

// A pinned issuer other than the one the metadata names is refused before
// anything is sent.
func TestClientSecretRefusedForAnotherIssuerThanPinned(t *testing.T) {
	t.Parallel()
	endpoint, issuer, forms := foreignAS(t)
	target := secretTarget(endpoint)
	target.OAuthIssuer = "https://auth.example.com"
	_, err := dialFails(t, target, &Options{Timeout: 10 * time.Second})
	if n := len(forms()); n > 0 {
		t.Errorf("the authorization server got %d token requests", n)
	}
	if want := "names authorization server " + issuer + ", not https://auth.example.com (--oauth-issuer)"; !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not say %q", err, want)
	}
}

// In the authorization code flow too, a pre-registered client's secret
// does not go to an authorization server on another host without
// --oauth-issuer: nothing is asked of it; with the flag the flow runs.
func TestPreregisteredSecretRefusedForAnotherHost(t *testing.T) {
	fetchingBrowser(t)
	endpoint, issuer, forms := foreignAS(t)
	target := Target{URL: endpoint, ClientID: demo.DemoClientID, ClientSecret: demo.DemoClientSecret}
	log, err := dialFails(t, target, &Options{})
	if n := len(forms()); n > 0 {
		t.Errorf("the authorization server got %d token requests", n)
	}
	want := "names authorization server " + issuer + ", on another host than the server; pass --oauth-issuer " + issuer
	if !strings.Contains(err.Error(), want) && !logSays(log, record.KindAuth, want) {
		t.Errorf("neither the error %q nor an event says %q", err, want)
	}
	if logSays(log, record.KindAuth, "authorize mcpwitness in a browser") {
		t.Error("the authorization URL was opened")
	}
	target.OAuthIssuer = issuer
	s := dial(t, target, nil)
	if r := s.Ping(context.Background()); r.Err != nil {
		t.Fatal(r.Err)
	}
	if len(forms()) == 0 {
		t.Error("no token request with the issuer pinned")
	}
}
