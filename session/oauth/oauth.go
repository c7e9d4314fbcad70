package oauth

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"

	"mcpwitness/record"
	"mcpwitness/sanitize"
)

// Mode says how a session answers an HTTP 401.
type Mode string

// The OAuth modes.
const (
	// Auto runs the authorization code flow with PKCE on a 401 (the
	// default).
	Auto Mode = ""
	// Off never runs OAuth: a 401 or 403 fails with its challenge.
	Off Mode = "off"
	// ClientCredentials uses the client credentials grant with the
	// target's ClientID and ClientSecret (machine to machine).
	ClientCredentials Mode = "client-credentials"
)

// Modes lists the values --oauth takes.
func Modes() []string {
	return []string{"auto", string(Off), string(ClientCredentials)}
}

// Config is what the OAuth of a session needs to know of its target.
type Config struct {
	// Mode says how a 401 is answered.
	Mode Mode
	// URL is the MCP server's.
	URL string
	// ClientID, ClientSecret, ClientKey (the path of a PEM private key)
	// and ClientMetadataURL name a pre-registered client or its metadata
	// document; Issuer pins the authorization server trusted with them.
	ClientID, ClientSecret, ClientKey, ClientMetadataURL string
	Issuer                                               string
	// Loopback says the server is on loopback (see [CheckOpenURL]).
	Loopback bool
	// NoBrowser leaves the authorization URL unopened; Unattended says no
	// person is there to open it.
	NoBrowser, Unattended bool
	// Notice, when not nil, is told the authorization URL.
	Notice io.Writer
}

// Handler is a session's OAuth: the SDK's handler, with every step an
// event. Tokens stay in memory, inside the SDK's token source.
type Handler struct {
	inner   auth.OAuthHandler
	log     *record.Log
	config  Config
	secrets *record.Redactor
	// redirects is the loopback redirect listener (authorization code
	// only).
	redirects *redirectListener

	mu        sync.Mutex
	lastToken string          // the access token last handed out, to notice a refresh
	failed    *ChallengeError // the last flow that failed, for the dial's error
}

// Failure is the last OAuth flow that failed, or nil; o may be nil.
func (o *Handler) Failure() *ChallengeError {
	if o == nil {
		return nil
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.failed
}

// New makes the OAuth handler for t, or nil when t turns it off.
// Its own requests (metadata, registration, token) go through base with
// an event each, never through the tap: their bodies hold secrets. A
// pre-registered secret of the authorization code flow is guarded (see
// [secretGuard]); the client credentials client checks its issuer itself.
func New(t Config, log *record.Log, secrets *record.Redactor, base http.RoundTripper) (*Handler, error) {
	o := &Handler{log: log, config: t, secrets: secrets}
	next := base
	if t.Mode == Auto && t.ClientSecret != "" && t.Issuer == "" {
		server, err := url.Parse(t.URL)
		if err != nil {
			return nil, fmt.Errorf("bad --url %q: %w", t.URL, err)
		}
		next = &secretGuard{next: base, host: server.Hostname(), secret: t.ClientSecret}
	}
	client := &http.Client{Transport: &authTap{next: next, log: log}, Timeout: 30 * time.Second}
	switch t.Mode {
	case Off:
		return nil, nil
	case ClientCredentials:
		return o.useClientCredentials(client)
	case Auto:
		return o.useAuthorizationCode(client)
	default:
		return nil, fmt.Errorf("unknown --oauth %q; choose one of %s", t.Mode, strings.Join(Modes(), ", "))
	}
}

// useClientCredentials gives o a client credentials handler for the
// target's pre-registered client, asking through client, with its secret
// or its private key (--client-key).
func (o *Handler) useClientCredentials(client *http.Client) (*Handler, error) {
	t := o.config // checked by the session's Dial
	server, err := url.Parse(t.URL)
	if err != nil {
		return nil, fmt.Errorf("bad --url %q: %w", t.URL, err)
	}
	cc := &ccClient{id: t.ClientID, secret: t.ClientSecret, client: client, issuer: t.Issuer, server: server,
		granted: map[string][]string{}, secrets: o.secrets}
	how := "OAuth client credentials as client " + t.ClientID
	if t.ClientKey != "" {
		key, err := loadClientKey(t.ClientKey)
		if err != nil {
			return nil, fmt.Errorf("--client-key %w", err)
		}
		cc.key, cc.secret = key, ""
		how += " (" + privateKeyJWT + ", " + key.alg + ")"
	}
	o.inner = cc
	o.log.Append(record.Event{Kind: record.KindAuth, Auth: &record.AuthInfo{Step: record.AuthClient, ClientID: t.ClientID, Registration: "pre-registered"}, Text: how})
	return o, nil
}

// useAuthorizationCode gives o the SDK's authorization code handler,
// asking through client, with the loopback listener the browser is
// redirected to; the listener is closed again if the handler cannot be
// made.
func (o *Handler) useAuthorizationCode(client *http.Client) (*Handler, error) {
	l, err := listenRedirect()
	if err != nil {
		return nil, err
	}
	o.redirects = l
	h, err := auth.NewAuthorizationCodeHandler(o.authorizationCodeConfig(l.URL(), client))
	if err != nil {
		o.Close()
		return nil, fmt.Errorf("OAuth: %w", err)
	}
	o.inner = h
	return o, nil
}

// authorizationCodeConfig configures the authorization code flow for the
// target: dynamic registration as "mcpwitness" redirected to redirectURL,
// and the client ID metadata document or pre-registered client the
// target names.
func (o *Handler) authorizationCodeConfig(redirectURL string, client *http.Client) *auth.AuthorizationCodeHandlerConfig {
	t := o.config
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
		pre.Issuer = t.Issuer
		cfg.PreregisteredClient = pre
	}
	return cfg
}

// Close stops the redirect listener; o may be nil.
func (o *Handler) Close() {
	if o != nil {
		o.redirects.close()
	}
}

// TokenSource hands the SDK our token source, which notices refreshes.
func (o *Handler) TokenSource(ctx context.Context) (oauth2.TokenSource, error) {
	ts, err := o.inner.TokenSource(ctx)
	if ts == nil || err != nil {
		return ts, err
	}
	return &watchedTokens{o: o, ts: ts}, nil
}

// Authorize runs the SDK's flow on a 401 or 403, with its challenge and
// the token obtained as events.
func (o *Handler) Authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	info := &record.AuthInfo{Step: record.AuthChallenge, URL: record.EventURL(req.URL, o.secrets)}
	ce := NewChallengeError(req, resp, info.URL)
	ce.Why = "mcpwitness runs OAuth"
	o.log.Append(record.Event{Kind: record.KindAuth, Auth: info, Text: ce.Error()})
	if err := o.inner.Authorize(ctx, req, resp); err != nil {
		ce.Why = "OAuth failed: " + err.Error()
		o.log.Append(record.Event{Kind: record.KindAuth, Auth: &record.AuthInfo{Step: record.AuthFailed, Error: err.Error()}, Text: ce.Why})
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
	o.logToken(record.AuthToken, tok)
	return nil
}

// logToken records that a token was obtained: its type, expiry and
// scopes, never the token.
func (o *Handler) logToken(step record.AuthStep, tok *oauth2.Token) {
	o.keepSecret(tok)
	info := &record.AuthInfo{Step: step, TokenType: tok.Type()}
	if !tok.Expiry.IsZero() {
		info.Expires = tok.Expiry.UTC().Format(time.RFC3339)
	}
	if sc, ok := tok.Extra("scope").(string); ok && sc != "" {
		info.Scopes = strings.Fields(sc)
	}
	text := fmt.Sprintf("OAuth %s token obtained", info.TokenType)
	if step == record.AuthRefresh {
		text = fmt.Sprintf("OAuth %s token refreshed", info.TokenType)
	}
	if info.Expires != "" {
		text += ", expires " + info.Expires
	}
	if len(info.Scopes) > 0 {
		text += ", scopes " + strings.Join(info.Scopes, " ")
	}
	o.log.Append(record.Event{Kind: record.KindAuth, Auth: info, Text: text})
}

// keepSecret adds tok's access and refresh tokens to the session's
// secrets, so that no sink shows them, whoever echoes them.
func (o *Handler) keepSecret(tok *oauth2.Token) {
	o.secrets.Add("access_token", tok.AccessToken)
	o.secrets.Add("refresh_token", tok.RefreshToken)
}

// watchedTokens is the SDK's token source, with a refresh made an event.
type watchedTokens struct {
	o  *Handler
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
		w.o.logToken(record.AuthRefresh, tok)
	}
	return tok, nil
}

// fetch shows the authorization URL, opens it in a browser if it is safe
// to (see [CheckOpenURL]) and the target leaves it to the session, and
// waits for the redirect of this flow to come back to the loopback
// listener, which listens for this flow only.
func (o *Handler) fetch(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
	u, err := url.Parse(args.URL)
	if err != nil {
		return nil, fmt.Errorf("the authorization URL does not parse: %w", err)
	}
	o.logClient(u.Query().Get("client_id"))
	f, err := o.redirects.begin(ctx, u.Query().Get("state"))
	if err != nil {
		return nil, err
	}
	defer o.redirects.end()
	if err := o.show(ctx, args.URL); err != nil {
		return nil, err
	}
	r, err := o.redirects.wait(ctx, f)
	if err != nil {
		return nil, err
	}
	if r.err != nil {
		return nil, r.err
	}
	o.log.Append(record.Event{Kind: record.KindAuth, Auth: &record.AuthInfo{Step: record.AuthRedirect}, Text: "OAuth redirect received"})
	return r.res, nil
}

// logClient records the client the flow authorizes as, and how it came
// to be registered.
func (o *Handler) logClient(id string) {
	how := "dynamic"
	switch {
	case id == o.config.ClientMetadataURL && id != "":
		how = "metadata-url"
	case id == o.config.ClientID && id != "":
		how = "pre-registered"
	}
	o.log.Append(record.Event{Kind: record.KindAuth, Auth: &record.AuthInfo{Step: record.AuthClient, ClientID: id, Registration: how},
		Text: fmt.Sprintf("OAuth client %s (%s)", id, how)})
}

// show records the authorization URL (an [record.AuthOpen] event, and the
// target's Notice), opening it in a browser unless the target says
// NoBrowser. A URL [CheckOpenURL] refuses is neither opened nor
// offered: the flow fails with the refusal.
func (o *Handler) show(ctx context.Context, raw string) error {
	if _, err := CheckOpenURL(raw, o.config.Loopback); err != nil {
		err = fmt.Errorf("the authorization server's authorization endpoint: %w", err)
		o.log.Append(record.Event{Kind: record.KindAuth, Auth: &record.AuthInfo{Step: record.AuthOpen, URL: raw, Error: err.Error()}, Text: "OAuth: " + err.Error()})
		return err
	}
	info := &record.AuthInfo{Step: record.AuthOpen, URL: raw}
	text := "authorize mcpwitness in a browser: " + raw
	if !o.config.NoBrowser {
		opened, err := openBrowser(ctx, raw)
		info.Opened = opened
		if err != nil {
			info.Error = err.Error()
			text += " (opening it failed: " + err.Error() + "; open it yourself)"
			if o.config.Unattended {
				o.log.Append(record.Event{Kind: record.KindAuth, Auth: info, Text: text})
				return unattendedBrowser(err)
			}
		}
	}
	o.log.Append(record.Event{Kind: record.KindAuth, Auth: info, Text: text})
	if o.config.Notice != nil {
		fmt.Fprintf(o.config.Notice, "mcpwitness: open this URL to authorize: %s\n", sanitize.Line(raw))
	}
	return nil
}

// unattendedBrowser is the failure of a flow that needed a browser when
// none could be opened (err says why) and no person is there to open the
// URL: it names the ways that need none.
func unattendedBrowser(err error) error {
	return fmt.Errorf("OAuth needs a browser to authorize and none could be opened (%v), and with no terminal nobody can open the URL: "+
		"use --oauth client-credentials (with --client-id and --client-secret or --client-key), or send a token with -H \"Authorization: Bearer …\"", err)
}

// authTap records the OAuth requests (metadata, registration, token) as
// events: the URL and the status, never a body.
type authTap struct {
	next http.RoundTripper
	log  *record.Log
}

func (a *authTap) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := a.next.RoundTrip(req)
	step := record.AuthStep("request")
	switch p := req.URL.Path; {
	case strings.Contains(p, "/.well-known/oauth-protected-resource"):
		step = record.AuthResourceMeta
	case strings.Contains(p, "/.well-known/oauth-authorization-server"), strings.Contains(p, "/.well-known/openid-configuration"):
		step = record.AuthServerMeta
	}
	info := &record.AuthInfo{Step: step, URL: record.EventURL(req.URL, nil)}
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
	a.log.Append(record.Event{Kind: record.KindAuth, Auth: info, Text: text})
	return resp, err
}
