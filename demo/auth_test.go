package demo

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// serveAuth runs ServeHTTP with --auth on 127.0.0.1 and returns the
// endpoint URL.
func serveAuth(t *testing.T) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	urls := make(chan string, 1)
	served := make(chan error, 1)
	go func() { served <- ServeHTTP(ctx, "127.0.0.1:0", &Options{Auth: true}, func(u string) { urls <- u }) }()
	t.Cleanup(func() {
		cancel()
		<-served
	})
	select {
	case u := <-urls:
		return u
	case err := <-served:
		t.Fatalf("ServeHTTP: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("ServeHTTP never listened")
	}
	return ""
}

func TestServeHTTPAuthChallengesAndServesMetadata(t *testing.T) {
	endpoint := serveAuth(t)
	resp, err := http.Post(endpoint, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	challenge := resp.Header.Get("WWW-Authenticate")
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(challenge, "resource_metadata=") {
		t.Fatalf("POST without a token: %s, WWW-Authenticate %q; want 401 naming the resource metadata", resp.Status, challenge)
	}
	base := strings.TrimSuffix(endpoint, Endpoint)
	var prm struct {
		Resource             string   `json:"resource"`
		AuthorizationServers []string `json:"authorization_servers"`
	}
	getJSON(t, base+"/.well-known/oauth-protected-resource"+Endpoint, &prm)
	if prm.Resource != endpoint || len(prm.AuthorizationServers) != 1 || prm.AuthorizationServers[0] != base {
		t.Errorf("protected resource metadata %+v: want resource %s served by %s", prm, endpoint, base)
	}
	var asm map[string]any
	getJSON(t, base+"/.well-known/oauth-authorization-server", &asm)
	if asm["issuer"] != base || asm["token_endpoint"] != base+"/token" {
		t.Errorf("authorization server metadata %v", asm)
	}
	// The pre-registered client gets a token by client credentials, and the
	// token opens the endpoint.
	form := url.Values{"grant_type": {"client_credentials"}}
	req, _ := http.NewRequest(http.MethodPost, base+"/token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(DemoClientID, DemoClientSecret)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&tok)
	resp.Body.Close()
	if tok.AccessToken == "" {
		t.Fatalf("token endpoint: %s, no access token", resp.Status)
	}
	req, _ = http.NewRequest(http.MethodPost, endpoint, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("initialize with the token: %s", resp.Status)
	}
}

func getJSON(t *testing.T, u string, v any) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", u, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
}
