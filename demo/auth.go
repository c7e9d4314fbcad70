package demo

import (
	"context"
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// The demo's pre-registered confidential client, for trying
// --oauth client-credentials (or --client-id with the authorization code
// flow) against demo-server --auth.
const (
	DemoClientID     = "mcpwitness-demo"
	DemoClientSecret = "demo-secret"
	// DemoScope is the scope the demo's MCP endpoint requires.
	DemoScope = "mcp:tools"
)

// tokenLifetime is how long the demo's access tokens last.
const tokenLifetime = time.Hour

// authServer is a small OAuth 2.1 authorization server in front of the
// demo server: metadata (RFC 8414, RFC 9728), dynamic registration (RFC
// 7591), an authorization endpoint that approves at once and redirects
// back with a code, and a token endpoint for authorization codes with
// PKCE (S256 only), refresh tokens and client credentials. Everything is
// in memory.
type authServer struct {
	issuer string

	mu      sync.Mutex
	clients map[string]authClient
	// keys are the public keys of the clients that authenticate with a
	// signed assertion (private_key_jwt); used, the assertion ids spent.
	keys    map[string]*ecdsa.PublicKey
	used    map[string]time.Time
	codes   map[string]authCode
	tokens  map[string]auth.TokenInfo
	refresh map[string]string // refresh token → client id
}

type authClient struct {
	secret    string
	redirects []string
}

type authCode struct {
	client, redirect, challenge, scope, resource string
	expires                                      time.Time
}

// AuthHandler serves the demo server over Streamable HTTP at [Endpoint]
// behind OAuth, with its authorization server at base (the server's own
// URL, "http://127.0.0.1:PORT"): a request without a valid bearer token
// gets 401 and a WWW-Authenticate challenge naming the resource metadata.
func AuthHandler(opts *Options, base string) http.Handler {
	a := &authServer{
		issuer:  strings.TrimSuffix(base, "/"),
		clients: map[string]authClient{DemoClientID: {secret: DemoClientSecret}},
		keys:    map[string]*ecdsa.PublicKey{DemoJWTClientID: demoClientKey()},
		used:    map[string]time.Time{},
		codes:   map[string]authCode{},
		tokens:  map[string]auth.TokenInfo{},
		refresh: map[string]string{},
	}
	prm := &oauthex.ProtectedResourceMetadata{
		Resource:               a.issuer + Endpoint,
		AuthorizationServers:   []string{a.issuer},
		ScopesSupported:        []string{DemoScope},
		BearerMethodsSupported: []string{"header"},
	}
	mux := http.NewServeMux()
	mux.Handle("/.well-known/oauth-protected-resource"+Endpoint, auth.ProtectedResourceMetadataHandler(prm))
	mux.HandleFunc("/.well-known/oauth-authorization-server", a.metadata)
	mux.HandleFunc("/register", a.register)
	mux.HandleFunc("/authorize", a.authorize)
	mux.HandleFunc("/token", a.token)
	protect := auth.RequireBearerToken(a.verify, &auth.RequireBearerTokenOptions{
		ResourceMetadataURL: a.issuer + "/.well-known/oauth-protected-resource" + Endpoint,
		Scopes:              []string{DemoScope},
	})
	mux.Handle(Endpoint, protect(Handler(opts)))
	return mux
}

func (a *authServer) metadata(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{
		"issuer":                                           a.issuer,
		"authorization_endpoint":                           a.issuer + "/authorize",
		"token_endpoint":                                   a.issuer + "/token",
		"registration_endpoint":                            a.issuer + "/register",
		"scopes_supported":                                 []string{DemoScope},
		"response_types_supported":                         []string{"code"},
		"grant_types_supported":                            []string{"authorization_code", "refresh_token", "client_credentials"},
		"code_challenge_methods_supported":                 []string{"S256"},
		"token_endpoint_auth_methods_supported":            []string{"client_secret_basic", "client_secret_post", "private_key_jwt", "none"},
		"token_endpoint_auth_signing_alg_values_supported": []string{"ES256"},
	})
}

func (a *authServer) register(w http.ResponseWriter, r *http.Request) {
	var meta oauthex.ClientRegistrationMetadata
	if r.Method != http.MethodPost || json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<10)).Decode(&meta) != nil || len(meta.RedirectURIs) == 0 {
		oauthError(w, http.StatusBadRequest, "invalid_client_metadata", "POST a JSON body with redirect_uris")
		return
	}
	id, secret := "client-"+rand.Text()[:12], ""
	if meta.TokenEndpointAuthMethod != "none" {
		secret = rand.Text()
	}
	a.mu.Lock()
	a.clients[id] = authClient{secret: secret, redirects: meta.RedirectURIs}
	a.mu.Unlock()
	resp := map[string]any{"client_id": id, "redirect_uris": meta.RedirectURIs, "client_id_issued_at": time.Now().Unix()}
	if secret != "" {
		resp["client_secret"] = secret
		resp["token_endpoint_auth_method"] = "client_secret_basic"
	} else {
		resp["token_endpoint_auth_method"] = "none"
	}
	writeJSON(w, http.StatusCreated, resp)
}

// authorize approves at once: the demo has no users, only the flow.
func (a *authServer) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	a.mu.Lock()
	c, ok := a.clients[q.Get("client_id")]
	a.mu.Unlock()
	redirect := q.Get("redirect_uri")
	switch {
	case !ok:
		http.Error(w, "unknown client_id", http.StatusBadRequest)
		return
	case len(c.redirects) > 0 && !slices.Contains(c.redirects, redirect):
		http.Error(w, "redirect_uri is not one the client registered", http.StatusBadRequest)
		return
	case !isLoopback(redirect):
		http.Error(w, "the demo redirects to loopback addresses only", http.StatusBadRequest)
		return
	}
	back, _ := url.Parse(redirect)
	bq := back.Query()
	bq.Set("state", q.Get("state"))
	if q.Get("response_type") != "code" || q.Get("code_challenge") == "" || q.Get("code_challenge_method") != "S256" {
		bq.Set("error", "invalid_request")
		bq.Set("error_description", "want response_type=code with a S256 code_challenge (PKCE)")
	} else {
		code := rand.Text()
		a.mu.Lock()
		a.codes[code] = authCode{client: q.Get("client_id"), redirect: redirect, challenge: q.Get("code_challenge"),
			scope: q.Get("scope"), resource: q.Get("resource"), expires: time.Now().Add(time.Minute)}
		a.mu.Unlock()
		bq.Set("code", code)
	}
	back.RawQuery = bq.Encode()
	http.Redirect(w, r, back.String(), http.StatusFound)
}

func isLoopback(u string) bool {
	p, err := url.Parse(u)
	return err == nil && p.Scheme == "http" && (p.Hostname() == "127.0.0.1" || p.Hostname() == "localhost" || p.Hostname() == "::1")
}

func (a *authServer) token(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.ParseForm() != nil {
		oauthError(w, http.StatusBadRequest, "invalid_request", "POST a form")
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	id, ok := a.client(w, r)
	if !ok {
		return
	}
	scope := DemoScope
	switch r.PostForm.Get("grant_type") {
	case "authorization_code":
		code, ok := a.codes[r.PostForm.Get("code")]
		delete(a.codes, r.PostForm.Get("code"))
		sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
		switch {
		case !ok || code.client != id || time.Now().After(code.expires):
			oauthError(w, http.StatusBadRequest, "invalid_grant", "unknown, used or expired code")
			return
		case base64.RawURLEncoding.EncodeToString(sum[:]) != code.challenge:
			oauthError(w, http.StatusBadRequest, "invalid_grant", "code_verifier does not match the code_challenge")
			return
		case code.redirect != r.PostForm.Get("redirect_uri"):
			oauthError(w, http.StatusBadRequest, "invalid_grant", "redirect_uri differs from the authorization request's")
			return
		}
		if code.scope != "" {
			scope = code.scope
		}
	case "refresh_token":
		if a.refresh[r.PostForm.Get("refresh_token")] != id {
			oauthError(w, http.StatusBadRequest, "invalid_grant", "unknown refresh token")
			return
		}
		delete(a.refresh, r.PostForm.Get("refresh_token"))
	case "client_credentials":
	default:
		oauthError(w, http.StatusBadRequest, "unsupported_grant_type", "authorization_code, refresh_token or client_credentials")
		return
	}
	access, refresh := rand.Text(), rand.Text()
	a.tokens[access] = auth.TokenInfo{Scopes: strings.Fields(scope), Expiration: time.Now().Add(tokenLifetime), UserID: id}
	a.refresh[refresh] = id
	writeJSON(w, http.StatusOK, map[string]any{
		"access_token": access, "token_type": "Bearer", "expires_in": int(tokenLifetime / time.Second),
		"refresh_token": refresh, "scope": scope,
	})
}

// client authenticates the client of a token request, by its secret or
// by a signed assertion (client credentials only); when it cannot, it has
// answered the request. a.mu is held.
func (a *authServer) client(w http.ResponseWriter, r *http.Request) (string, bool) {
	if r.PostForm.Get("client_assertion_type") == clientAssertionType {
		id, err := checkAssertion(r.PostForm.Get("client_assertion"), a.issuer, a.keys, a.used, time.Now())
		switch {
		case err != nil:
			oauthError(w, http.StatusUnauthorized, "invalid_client", err.Error())
			return "", false
		case r.PostForm.Get("client_id") != "" && r.PostForm.Get("client_id") != id:
			oauthError(w, http.StatusUnauthorized, "invalid_client", "client_id is not the client the assertion names")
			return "", false
		case r.PostForm.Get("grant_type") != "client_credentials":
			oauthError(w, http.StatusBadRequest, "unauthorized_client", "a client with a key has the client_credentials grant only")
			return "", false
		}
		return id, true
	}
	id, secret, basic := r.BasicAuth()
	if !basic {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	c, ok := a.clients[id]
	if !ok || subtle.ConstantTimeCompare([]byte(c.secret), []byte(secret)) != 1 {
		oauthError(w, http.StatusUnauthorized, "invalid_client", "unknown client or wrong secret")
		return "", false
	}
	return id, true
}

func (a *authServer) verify(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	info, ok := a.tokens[token]
	if !ok || time.Now().After(info.Expiration) {
		return nil, fmt.Errorf("%w: unknown or expired token", auth.ErrInvalidToken)
	}
	return &info, nil
}

func oauthError(w http.ResponseWriter, status int, code, desc string) {
	writeJSON(w, status, map[string]string{"error": code, "error_description": desc})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
