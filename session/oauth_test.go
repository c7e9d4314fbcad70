package session

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mcpwitness/internal/oauthtest"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"mcpwitness/demo"
	"mcpwitness/paging"
	"mcpwitness/record"

	"mcpwitness/session/oauth"
)

// authDemo serves the demo server behind OAuth (demo.AuthHandler) on
// 127.0.0.1 and returns its MCP endpoint, and the bearer tokens and
// client assertions it was sent so far.
func authDemo(t *testing.T) (string, func() []string) {
	t.Helper()
	var lc net.ListenConfig
	ln, err := lc.Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	var mu sync.Mutex
	var tokens []string
	h := demo.AuthHandler(nil, base)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
			mu.Lock()
			tokens = append(tokens, tok)
			mu.Unlock()
		}
		if r.URL.Path == "/token" {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			if form, err := url.ParseQuery(string(body)); err == nil && form.Get("client_assertion") != "" {
				mu.Lock()
				tokens = append(tokens, form.Get("client_assertion"))
				mu.Unlock()
			}
		}
		h.ServeHTTP(w, r)
	}))
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	return base + demo.Endpoint, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(tokens)
	}
}

// fetchingBrowser sets $BROWSER to curl, which follows the authorization
// URL to the loopback redirect as a person's browser would.
func fetchingBrowser(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("curl"); err != nil {
		t.Fatalf("the OAuth tests need curl as the browser: %v", err)
	}
	t.Setenv("BROWSER", "curl -sSfL -o /dev/null")
}

// assertNoTokens fails when any event of log holds one of secrets (there
// must be some: a test that saw no token proves nothing).
func assertNoTokens(t *testing.T, log *record.Log, secrets ...string) {
	t.Helper()
	var all bytes.Buffer
	for _, ev := range log.Events() {
		b, _ := json.Marshal(ev)
		all.Write(b)
		all.WriteByte('\n')
	}
	if len(secrets) == 0 {
		t.Fatal("no token was sent to check for")
	}
	for _, word := range secrets {
		if strings.Contains(all.String(), word) {
			t.Errorf("the events hold the secret %q", word)
		}
	}
}

func TestOAuthFromThe401ToAListedTool(t *testing.T) {
	fetchingBrowser(t)
	url, sent := authDemo(t)
	log := record.NewLog(&record.LogOptions{History: true})
	var notice bytes.Buffer
	s := dial(t, Target{URL: url, Notice: &notice}, &Options{Log: log})
	_, res := s.Walk(context.Background(), paging.Tools())
	if res.Err != nil || len(res.Items()) == 0 {
		t.Fatalf("walk after OAuth: %v, %d tools", res.Err, len(res.Items()))
	}
	if !slices.Contains(toolNames(res.Items()), "add") {
		t.Errorf("tools %v do not list add", toolNames(res.Items()))
	}
	var steps []record.AuthStep
	var token *record.AuthInfo
	for _, ev := range log.Events() {
		if ev.Kind == record.KindAuth {
			steps = append(steps, ev.Auth.Step)
			if ev.Auth.Step == record.AuthToken {
				token = ev.Auth
			}
			if ev.Auth.Step == record.AuthClient && (ev.Auth.ClientID == "" || ev.Auth.Registration != "dynamic") {
				t.Errorf("client event %+v: want a dynamically registered client id", ev.Auth)
			}
		}
	}
	for _, want := range []record.AuthStep{record.AuthChallenge, record.AuthResourceMeta, record.AuthServerMeta, record.AuthClient, record.AuthOpen, record.AuthRedirect, record.AuthToken} {
		if !slices.Contains(steps, want) {
			t.Errorf("auth steps %v lack %q", steps, want)
		}
	}
	if token == nil || token.TokenType != "Bearer" || token.Expires == "" || !slices.Contains(token.Scopes, demo.DemoScope) {
		t.Errorf("token event %+v: want type Bearer, an expiry and scope %s", token, demo.DemoScope)
	}
	if !strings.Contains(notice.String(), "/authorize?") {
		t.Errorf("the notice %q does not show the authorization URL", notice.String())
	}
	assertNoTokens(t, log, sent()...)
}

func TestOAuthClientCredentials(t *testing.T) {
	t.Parallel()
	url, sent := authDemo(t)
	log := record.NewLog(&record.LogOptions{History: true})
	s := dial(t, Target{URL: url, OAuth: oauth.ClientCredentials, ClientID: demo.DemoClientID, ClientSecret: demo.DemoClientSecret}, &Options{Log: log})
	_, res := s.Walk(context.Background(), paging.Tools())
	if res.Err != nil || len(res.Items()) == 0 {
		t.Fatalf("walk with client credentials: %v, %d tools", res.Err, len(res.Items()))
	}
	assertNoTokens(t, log, append(sent(), demo.DemoClientSecret)...)
	// The record, written as --record writes it, holds neither.
	target := Target{URL: url, OAuth: oauth.ClientCredentials, ClientID: demo.DemoClientID, ClientSecret: demo.DemoClientSecret}
	var rec bytes.Buffer
	r, err := record.NewRecorder(&rec, record.NewHeader("mcpwitness", target.Describe()), target.Secrets())
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range log.Events() {
		r.Write(ev)
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	for _, secret := range append(sent(), demo.DemoClientSecret) {
		if strings.Contains(rec.String(), secret) {
			t.Errorf("the record holds the secret %q", secret)
		}
	}
	if !strings.Contains(rec.String(), `"kind":"auth"`) {
		t.Error("the record has no auth events")
	}
}

// TestOAuthClientCredentialsKey runs the client credentials grant with a
// private key (private_key_jwt) against the demo's authorization server,
// which checks each assertion's signature, claims and id: the walk gets
// through, and neither an assertion nor a token reaches the events. A key
// the server does not know for the client fails, saying why.
func TestOAuthClientCredentialsKey(t *testing.T) {
	t.Parallel()
	url, sent := authDemo(t)
	key := filepath.Join(t.TempDir(), "client.pem")
	if err := os.WriteFile(key, []byte(demo.DemoClientKeyPEM), 0o600); err != nil {
		t.Fatal(err)
	}
	log := record.NewLog(&record.LogOptions{History: true})
	target := Target{URL: url, OAuth: oauth.ClientCredentials, ClientID: demo.DemoJWTClientID, ClientKey: key}
	s := dial(t, target, &Options{Log: log})
	_, res := s.Walk(context.Background(), paging.Tools())
	if res.Err != nil || len(res.Items()) == 0 {
		t.Fatalf("walk with a client key: %v, %d tools", res.Err, len(res.Items()))
	}
	var assertions int
	for _, v := range sent() {
		if strings.Count(v, ".") == 2 {
			assertions++
		}
	}
	if assertions == 0 {
		t.Fatal("no client assertion reached the token endpoint")
	}
	assertNoTokens(t, log, append(sent(), strings.Split(demo.DemoClientKeyPEM, "\n")[1])...)
	if !slices.ContainsFunc(log.Events(), func(ev record.Event) bool {
		return ev.Kind == record.KindAuth && strings.Contains(ev.Text, "private_key_jwt, ES256")
	}) {
		t.Error("no auth event says the client authenticates with its key")
	}

	other := filepath.Join(t.TempDir(), "other.pem")
	oauthtest.WriteECKey(t, other)
	target.ClientKey = other
	_, err := Dial(context.Background(), target, &Options{Log: record.NewLog(nil), Timeout: 10 * time.Second})
	if err == nil || !strings.Contains(err.Error(), "invalid_client: the client assertion's signature does not verify") {
		t.Fatalf("dial with a key the server does not know: %v; want the server's invalid_client and why", err)
	}
}

func TestOAuthOffSaysTheChallenge(t *testing.T) {
	t.Parallel()
	url, _ := authDemo(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := Dial(ctx, Target{URL: url, OAuth: oauth.Off}, &Options{Timeout: 10 * time.Second})
	if err == nil {
		s.Close()
		t.Fatal("Dial succeeded without a token")
	}
	if !strings.Contains(err.Error(), "resource_metadata=") || !strings.Contains(err.Error(), "HTTP 401") {
		t.Errorf("error %q does not say the 401 and its resource_metadata", err)
	}
}

func TestOAuthFailureSaysWhy(t *testing.T) {
	// A browser that fails: nothing comes back, and the error says both the
	// challenge and that OAuth failed.
	t.Setenv("BROWSER", filepath.Join(t.TempDir(), "no-such-browser"))
	url, _ := authDemo(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := Dial(ctx, Target{URL: url, Notice: os.Stderr}, &Options{Timeout: 3 * time.Second})
	if err == nil {
		s.Close()
		t.Fatal("Dial succeeded without a browser")
	}
	for _, want := range []string{"HTTP 401", "OAuth failed", "no redirect came back"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

// Unattended (no terminal for a person to open the URL), a browser that
// cannot be opened fails the flow at once, naming the ways that need no
// browser, instead of waiting for a redirect that cannot come.
func TestOAuthUnattendedWithoutABrowserFailsAtOnce(t *testing.T) {
	t.Setenv("BROWSER", filepath.Join(t.TempDir(), "no-such-browser"))
	url, _ := authDemo(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := Dial(ctx, Target{URL: url, Notice: io.Discard, Unattended: true}, &Options{Timeout: 10 * time.Second})
	if err == nil {
		s.Close()
		t.Fatal("Dial succeeded without a browser")
	}
	for _, want := range []string{"none could be opened", "--oauth client-credentials", `-H "Authorization: Bearer`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "no redirect came back") {
		t.Errorf("error %q: the flow waited for a redirect", err)
	}
}
