package session

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/auth/extauth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
)

// OAuthMode says how a session answers an HTTP 401.
type OAuthMode string

// The OAuth modes.
const (
	// OAuthAuto runs the authorization code flow with PKCE on a 401 (the
	// default).
	OAuthAuto OAuthMode = ""
	// OAuthOff never runs OAuth: a 401 or 403 fails with its challenge.
	OAuthOff OAuthMode = "off"
	// OAuthClientCredentials uses the client credentials grant with the
	// target's ClientID and ClientSecret (machine to machine).
	OAuthClientCredentials OAuthMode = "client-credentials"
)

// OAuthModes lists the values --oauth takes.
func OAuthModes() []string {
	return []string{"auto", string(OAuthOff), string(OAuthClientCredentials)}
}

// oauth is a session's OAuth: the SDK's handler, with every step an
// event. Tokens stay in memory, inside the SDK's token source.
type oauth struct {
	inner   auth.OAuthHandler
	log     *Log
	target  Target
	secrets *Redactor
	// ln is the loopback redirect listener (authorization code only).
	ln  net.Listener
	srv *http.Server
	// codes carries what the browser brought back to the listener.
	codes chan redirect

	mu        sync.Mutex
	lastToken string          // the access token last handed out, to notice a refresh
	failed    *ChallengeError // the last flow that failed, for the dial's error
}

// failure is the last OAuth flow that failed, or nil; o may be nil.
func (o *oauth) failure() *ChallengeError {
	if o == nil {
		return nil
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.failed
}

type redirect struct {
	res *auth.AuthorizationResult
	err error
}

// newOAuth makes the OAuth handler for t, or nil when t turns it off.
// Its own requests (metadata, registration, token) go through base with
// an event each, never through the tap: their bodies hold secrets.
func newOAuth(t Target, log *Log, secrets *Redactor, base http.RoundTripper) (*oauth, error) {
	o := &oauth{log: log, target: t, secrets: secrets}
	client := &http.Client{Transport: &authTap{next: base, log: log}, Timeout: 30 * time.Second}
	switch t.OAuth {
	case OAuthOff:
		return nil, nil
	case OAuthClientCredentials:
		return o.useClientCredentials(client)
	case OAuthAuto:
		return o.useAuthorizationCode(client)
	default:
		return nil, fmt.Errorf("unknown --oauth %q; choose one of %s", t.OAuth, strings.Join(OAuthModes(), ", "))
	}
}

// useClientCredentials gives o a client credentials handler for the
// target's pre-registered client, asking through client: the SDK's for a
// client secret, ours for a private key (--client-key).
func (o *oauth) useClientCredentials(client *http.Client) (*oauth, error) {
	t := o.target // checked by Dial (see [Target.CheckClientAuth])
	how := "OAuth client credentials as client " + t.ClientID
	if t.ClientKey != "" {
		key, err := loadClientKey(t.ClientKey)
		if err != nil {
			return nil, fmt.Errorf("--client-key %w", err)
		}
		o.inner = &jwtClient{id: t.ClientID, key: key, client: client, granted: map[string][]string{}, secrets: o.secrets}
		how += " (" + privateKeyJWT + ", " + key.alg + ")"
	} else {
		h, err := extauth.NewClientCredentialsHandler(&extauth.ClientCredentialsHandlerConfig{
			Credentials: &oauthex.ClientCredentials{ClientID: t.ClientID, ClientSecretAuth: &oauthex.ClientSecretAuth{ClientSecret: t.ClientSecret}},
			HTTPClient:  client,
		})
		if err != nil {
			return nil, fmt.Errorf("OAuth client credentials: %w", err)
		}
		o.inner = h
	}
	o.log.Append(Event{Kind: KindAuth, Auth: &AuthInfo{Step: AuthClient, ClientID: t.ClientID, Registration: "pre-registered"}, Text: how})
	return o, nil
}

// useAuthorizationCode gives o the SDK's authorization code handler,
// asking through client, with the loopback listener the browser is
// redirected to; the listener is closed again if the handler cannot be
// made.
func (o *oauth) useAuthorizationCode(client *http.Client) (*oauth, error) {
	var lc net.ListenConfig
	ln, err := lc.Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("OAuth: opening the loopback redirect listener: %w", err)
	}
	o.ln = ln
	o.codes = make(chan redirect, 1)
	redirectURL := "http://" + ln.Addr().String() + "/callback"
	o.srv = &http.Server{Handler: http.HandlerFunc(o.callback), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = o.srv.Serve(ln) }()
	h, err := auth.NewAuthorizationCodeHandler(o.authorizationCodeConfig(redirectURL, client))
	if err != nil {
		o.close()
		return nil, fmt.Errorf("OAuth: %w", err)
	}
	o.inner = h
	return o, nil
}

// authorizationCodeConfig configures the authorization code flow for the
// target: dynamic registration as "mcpwitness" redirected to redirectURL,
// and the client ID metadata document or pre-registered client the
// target names.
func (o *oauth) authorizationCodeConfig(redirectURL string, client *http.Client) *auth.AuthorizationCodeHandlerConfig {
	t := o.target
	cfg := &auth.AuthorizationCodeHandlerConfig{
		RedirectURL:              redirectURL,
		AuthorizationCodeFetcher: o.fetch,
		Client:                   client,
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			RedirectURIs: []string{redirectURL},
			ClientName:   "mcpwitness",
		}},
	}
	if t.ClientMetadataURL != "" {
		cfg.ClientIDMetadataDocumentConfig = &auth.ClientIDMetadataDocumentConfig{URL: t.ClientMetadataURL}
	}
	if t.ClientID != "" {
		pre := &oauthex.ClientCredentials{ClientID: t.ClientID}
		if t.ClientSecret != "" {
			pre.ClientSecretAuth = &oauthex.ClientSecretAuth{ClientSecret: t.ClientSecret}
		}
		cfg.PreregisteredClient = pre
	}
	return cfg
}

// close stops the redirect listener.
func (o *oauth) close() {
	if o != nil && o.srv != nil {
		_ = o.srv.Close()
	}
}

// TokenSource hands the SDK our token source, which notices refreshes.
func (o *oauth) TokenSource(ctx context.Context) (oauth2.TokenSource, error) {
	ts, err := o.inner.TokenSource(ctx)
	if ts == nil || err != nil {
		return ts, err
	}
	return &watchedTokens{o: o, ts: ts}, nil
}

// Authorize runs the SDK's flow on a 401 or 403, with its challenge and
// the token obtained as events.
func (o *oauth) Authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	info := &AuthInfo{Step: AuthChallenge, URL: eventURL(req.URL, o.secrets)}
	ce := newChallengeError(req, resp, info.URL)
	ce.Why = "mcpwitness runs OAuth"
	o.log.Append(Event{Kind: KindAuth, Auth: info, Text: ce.Error()})
	if err := o.inner.Authorize(ctx, req, resp); err != nil {
		ce.Why = "OAuth failed: " + err.Error()
		o.log.Append(Event{Kind: KindAuth, Auth: &AuthInfo{Step: AuthFailed, Error: err.Error()}, Text: ce.Why})
		o.mu.Lock()
		o.failed = ce
		o.mu.Unlock()
		return ce
	}
	ts, err := o.inner.TokenSource(ctx)
	if err != nil || ts == nil {
		return err
	}
	tok, err := ts.Token()
	if err != nil {
		return err
	}
	o.mu.Lock()
	o.lastToken, o.failed = tok.AccessToken, nil
	o.mu.Unlock()
	o.logToken(AuthToken, tok)
	return nil
}

// logToken records that a token was obtained: its type, expiry and
// scopes, never the token.
func (o *oauth) logToken(step AuthStep, tok *oauth2.Token) {
	o.keepSecret(tok)
	info := &AuthInfo{Step: step, TokenType: tok.Type()}
	if !tok.Expiry.IsZero() {
		info.Expires = tok.Expiry.UTC().Format(time.RFC3339)
	}
	if sc, ok := tok.Extra("scope").(string); ok && sc != "" {
		info.Scopes = strings.Fields(sc)
	}
	text := fmt.Sprintf("OAuth %s token obtained", info.TokenType)
	if step == AuthRefresh {
		text = fmt.Sprintf("OAuth %s token refreshed", info.TokenType)
	}
	if info.Expires != "" {
		text += ", expires " + info.Expires
	}
	if len(info.Scopes) > 0 {
		text += ", scopes " + strings.Join(info.Scopes, " ")
	}
	o.log.Append(Event{Kind: KindAuth, Auth: info, Text: text})
}

// keepSecret adds tok's access and refresh tokens to the session's
// secrets, so that no sink shows them, whoever echoes them.
func (o *oauth) keepSecret(tok *oauth2.Token) {
	o.secrets.Add("access_token", tok.AccessToken)
	o.secrets.Add("refresh_token", tok.RefreshToken)
}

// watchedTokens is the SDK's token source, with a refresh made an event.
type watchedTokens struct {
	o  *oauth
	ts oauth2.TokenSource
}

func (w *watchedTokens) Token() (*oauth2.Token, error) {
	tok, err := w.ts.Token()
	if err != nil {
		return tok, err
	}
	w.o.keepSecret(tok)
	w.o.mu.Lock()
	changed := w.o.lastToken != "" && w.o.lastToken != tok.AccessToken
	w.o.lastToken = tok.AccessToken
	w.o.mu.Unlock()
	if changed {
		w.o.logToken(AuthRefresh, tok)
	}
	return tok, nil
}

// fetch shows the authorization URL, opens it in a browser and waits for
// the redirect to come back to the loopback listener.
func (o *oauth) fetch(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
	if u, err := url.Parse(args.URL); err == nil {
		id := u.Query().Get("client_id")
		how := "dynamic"
		switch {
		case id == o.target.ClientMetadataURL && id != "":
			how = "metadata-url"
		case id == o.target.ClientID && id != "":
			how = "pre-registered"
		}
		o.log.Append(Event{Kind: KindAuth, Auth: &AuthInfo{Step: AuthClient, ClientID: id, Registration: how},
			Text: fmt.Sprintf("OAuth client %s (%s)", id, how)})
	}
	opened, err := openBrowser(ctx, args.URL)
	info := &AuthInfo{Step: AuthOpen, URL: args.URL, Opened: opened}
	text := "authorize mcpwitness in a browser: " + args.URL
	if err != nil {
		info.Error = err.Error()
		text += " (opening it failed: " + err.Error() + "; open it yourself)"
	}
	o.log.Append(Event{Kind: KindAuth, Auth: info, Text: text})
	if o.target.Notice != nil {
		fmt.Fprintf(o.target.Notice, "mcpwitness: open this URL to authorize: %s\n", args.URL)
	}
	select {
	case r := <-o.codes:
		if r.err != nil {
			return nil, r.err
		}
		o.log.Append(Event{Kind: KindAuth, Auth: &AuthInfo{Step: AuthRedirect}, Text: "OAuth redirect received"})
		return r.res, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("no redirect came back to %s: %w", o.ln.Addr(), ctx.Err())
	}
}

// callback is the loopback redirect listener's handler.
func (o *oauth) callback(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/callback" {
		http.NotFound(w, r)
		return
	}
	q := r.URL.Query()
	var red redirect
	if e := q.Get("error"); e != "" {
		red.err = fmt.Errorf("the authorization server answered %s: %s", e, q.Get("error_description"))
		http.Error(w, "Authorization failed: "+e+". You can close this window.", http.StatusBadRequest)
	} else {
		red.res = &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}
		fmt.Fprintln(w, "mcpwitness is authorized. You can close this window.")
	}
	select {
	case o.codes <- red:
	default: // a redirect nobody waits for
	}
}

// authTap records the OAuth requests (metadata, registration, token) as
// events: the URL and the status, never a body.
type authTap struct {
	next http.RoundTripper
	log  *Log
}

func (a *authTap) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := a.next.RoundTrip(req)
	step := AuthStep("request")
	switch p := req.URL.Path; {
	case strings.Contains(p, "/.well-known/oauth-protected-resource"):
		step = AuthResourceMeta
	case strings.Contains(p, "/.well-known/oauth-authorization-server"), strings.Contains(p, "/.well-known/openid-configuration"):
		step = AuthServerMeta
	}
	info := &AuthInfo{Step: step, URL: eventURL(req.URL, nil)}
	text := fmt.Sprintf("OAuth %s %s", req.Method, info.URL)
	if err != nil {
		info.Error = err.Error()
		text += ": " + err.Error()
	} else {
		text += ": " + resp.Status
		if resp.StatusCode >= 300 {
			info.Error = resp.Status
		}
	}
	a.log.Append(Event{Kind: KindAuth, Auth: info, Text: text})
	return resp, err
}
