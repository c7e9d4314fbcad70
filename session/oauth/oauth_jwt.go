package oauth

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
	"mcpwitness/record"
)

// The form values of a client assertion (RFC 7523 section 2.2).
const (
	assertionTypeParam = "client_assertion_type"
	assertionParam     = "client_assertion"
	assertionType      = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
	privateKeyJWT      = "private_key_jwt"
)

// ccClient runs the client credentials grant (SEP-1046) for a
// pre-registered client that authenticates with a private key
// (private_key_jwt, which the SDK's handler does not do) or a secret. It
// discovers the authorization server as the SDK's handlers do: the
// protected resource metadata the challenge names, or the well-known ones
// at the endpoint's path and at its root, else the 2025-03-26 fallback
// (the server's origin). The credential goes only to a trusted
// authorization server (see [ccClient.trusts]), and every token request
// names the MCP server as its resource (RFC 8707).
type ccClient struct {
	id string
	// key or secret authenticates the client.
	key    *clientKey
	secret string
	client *http.Client
	// issuer is --oauth-issuer, the one authorization server trusted with
	// the credential; "" trusts one on the host of server, the target.
	issuer string
	server *url.URL

	mu sync.Mutex
	ts oauth2.TokenSource
	// granted are the scopes each issuer granted, kept across a step-up
	// (SEP-2350) as the SDK's handlers keep them.
	granted map[string][]string
	// secrets receives each client assertion and token (see [record.Redactor]).
	secrets *record.Redactor
}

var _ auth.OAuthHandler = (*ccClient)(nil)

// TokenSource is the token source of the last grant, nil before one.
func (j *ccClient) TokenSource(context.Context) (oauth2.TokenSource, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.ts, nil
}

// Authorize obtains a token for the request that was answered resp (a 401
// or a 403 asking for more scope).
func (j *ccClient) Authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	defer resp.Body.Close()
	defer io.Copy(io.Discard, io.LimitReader(resp.Body, maxDrain))
	challenges, err := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
	if err != nil {
		return fmt.Errorf("reading the WWW-Authenticate challenge: %w", err)
	}
	prm, err := j.resourceMetadata(ctx, challenges, req.URL)
	if err != nil {
		return err
	}
	issuer := prm.AuthorizationServers[0]
	if err := j.trusts(issuer); err != nil {
		return err
	}
	asm, err := auth.GetAuthServerMetadata(ctx, issuer, j.client)
	if err != nil {
		return fmt.Errorf("getting the authorization server's metadata: %w", err)
	}
	if asm == nil {
		// The 2025-03-26 fallback: the endpoints at their default paths.
		asm = &oauthex.AuthServerMeta{Issuer: issuer, TokenEndpoint: strings.TrimSuffix(issuer, "/") + "/token"}
	}
	if asm.TokenEndpoint == "" {
		return fmt.Errorf("the authorization server %s names no token_endpoint in its metadata", asm.Issuer)
	}
	if err := j.accepts(asm); err != nil {
		return err
	}
	scopes := challengeScopes(challenges)
	if len(scopes) == 0 {
		scopes = prm.ScopesSupported
	}
	j.mu.Lock()
	scopes = unionScopes(j.granted[asm.Issuer], scopes)
	j.mu.Unlock()
	ts := oauth2.ReuseTokenSource(nil, j.source(ctx, asm, prm.Resource, scopes))
	tok, err := ts.Token()
	if err != nil {
		return fmt.Errorf("the token request %s failed: %w", j.how(), err)
	}
	if s, ok := tok.Extra("scope").(string); ok && s != "" {
		scopes = strings.Fields(s)
	}
	j.mu.Lock()
	j.ts = ts
	j.granted[asm.Issuer] = scopes
	j.mu.Unlock()
	return nil
}

// source is the token source of a grant at asm for resource with scopes.
func (j *ccClient) source(ctx context.Context, asm *oauthex.AuthServerMeta, resource string, scopes []string) oauth2.TokenSource {
	ctx = context.WithValue(context.WithoutCancel(ctx), oauth2.HTTPClient, j.client)
	if j.key != nil {
		return &assertionSource{j: j, ctx: ctx, audience: asm.Issuer, tokenURL: asm.TokenEndpoint, resource: resource, scopes: scopes}
	}
	cfg := &clientcredentials.Config{ClientID: j.id, ClientSecret: j.secret, TokenURL: asm.TokenEndpoint, Scopes: scopes,
		AuthStyle: secretStyle(asm.TokenEndpointAuthMethodsSupported)}
	if resource != "" {
		// RFC 8707: the token is for this MCP server.
		cfg.EndpointParams = url.Values{"resource": {resource}}
	}
	return &explainedSource{ts: cfg.TokenSource(ctx), secrets: j.secrets}
}

// how says how the client authenticates, for errors.
func (j *ccClient) how() string {
	if j.key != nil {
		return fmt.Sprintf("with a signed client assertion (%s, %s)", privateKeyJWT, j.key.alg)
	}
	return "with the client secret"
}

// secretStyle is how a secret goes to a token endpoint that takes the
// methods supported: HTTP Basic unless only client_secret_post is taken.
func secretStyle(supported []string) oauth2.AuthStyle {
	if len(supported) > 0 && !slices.Contains(supported, "client_secret_basic") && slices.Contains(supported, "client_secret_post") {
		return oauth2.AuthStyleInParams
	}
	return oauth2.AuthStyleInHeader
}

// trusts reports an authorization server that may not receive the
// client's credential: with --oauth-issuer, any other than that issuer;
// without, any not on the target's own host. It is checked before
// anything is sent to the authorization server.
func (j *ccClient) trusts(issuer string) error {
	u, err := url.Parse(issuer)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return fmt.Errorf("the server's metadata names %q as its authorization server, which is not an http or https URL", issuer)
	}
	if j.issuer != "" {
		if sameIssuer(issuer, j.issuer) {
			return nil
		}
		return fmt.Errorf("the server's metadata names authorization server %s, not %s (--oauth-issuer); the client's credential is sent only to that issuer",
			record.EventURL(u, nil), j.issuer)
	}
	if j.server != nil && strings.EqualFold(u.Hostname(), j.server.Hostname()) {
		return nil
	}
	return untrustedIssuer(record.EventURL(u, nil))
}

// sameIssuer reports whether issuer identifiers a and b are the same, a
// trailing slash aside.
func sameIssuer(a, b string) bool {
	return strings.TrimSuffix(a, "/") == strings.TrimSuffix(b, "/")
}

// maxDrain bounds what is read of a challenge's body before it is closed.
const maxDrain = 64 << 10

// accepts reports an authorization server that says it takes neither this
// way of authenticating nor this key's algorithm at its token endpoint. One
// that says nothing is tried, and so is a secret anywhere.
func (j *ccClient) accepts(asm *oauthex.AuthServerMeta) error {
	if j.key == nil {
		return nil
	}
	if m := asm.TokenEndpointAuthMethodsSupported; len(m) > 0 && !slices.Contains(m, privateKeyJWT) {
		return fmt.Errorf("the authorization server %s does not take %s at its token endpoint (it takes %s); use --client-secret if the client has one",
			asm.Issuer, privateKeyJWT, strings.Join(m, ", "))
	}
	if a := asm.TokenEndpointAuthSigningAlgValuesSupported; len(a) > 0 && !slices.Contains(a, j.key.alg) {
		return fmt.Errorf("the authorization server %s takes client assertions signed with %s, not %s, the algorithm of this key",
			asm.Issuer, strings.Join(a, ", "), j.key.alg)
	}
	return nil
}

// resourceMetadata finds the protected resource metadata of endpoint: the
// one the challenge names, else the well-known one at the endpoint's path,
// else at its root; with none, the 2025-03-26 fallback names the
// endpoint's origin as the authorization server.
func (j *ccClient) resourceMetadata(ctx context.Context, challenges []oauthex.Challenge, endpoint *url.URL) (*oauthex.ProtectedResourceMetadata, error) {
	resource := *endpoint
	resource.RawQuery, resource.Fragment = "", ""
	origin := resource
	origin.Path, origin.RawPath = "", ""
	type candidate struct{ metadata, resource string }
	var cands []candidate
	for _, c := range challenges {
		if u := c.Params["resource_metadata"]; u != "" {
			cands = append(cands, candidate{u, resource.String()})
			break
		}
	}
	atPath, atRoot := origin, origin
	atPath.Path = "/.well-known/oauth-protected-resource/" + strings.TrimLeft(resource.Path, "/")
	atRoot.Path = "/.well-known/oauth-protected-resource"
	cands = append(cands, candidate{atPath.String(), resource.String()}, candidate{atRoot.String(), origin.String()})
	for _, c := range cands {
		prm, err := oauthex.GetProtectedResourceMetadata(ctx, c.metadata, c.resource, j.client)
		if err != nil || prm == nil {
			continue
		}
		if len(prm.AuthorizationServers) == 0 {
			return nil, fmt.Errorf("the protected resource metadata at %s names no authorization server", c.metadata)
		}
		return prm, nil
	}
	return &oauthex.ProtectedResourceMetadata{Resource: resource.String(), AuthorizationServers: []string{origin.String()}}, nil
}

// challengeScopes are the scopes a Bearer challenge asks for.
func challengeScopes(challenges []oauthex.Challenge) []string {
	for _, c := range challenges {
		if strings.EqualFold(c.Scheme, "bearer") && c.Params["scope"] != "" {
			return strings.Fields(c.Params["scope"])
		}
	}
	return nil
}

// unionScopes is a's scopes followed by those of b that a lacks.
func unionScopes(a, b []string) []string {
	out := slices.Clone(a)
	for _, s := range b {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// assertionSource asks the token endpoint for a token with the client
// credentials grant, authenticated by a client assertion signed for each
// request: an assertion is good for minutes, a token source for the
// session.
type assertionSource struct {
	j   *ccClient
	ctx context.Context // carries the HTTP client; not cancelled with the request

	audience, tokenURL, resource string
	scopes                       []string
}

func (s *assertionSource) Token() (*oauth2.Token, error) {
	a, err := s.j.key.assertion(s.j.id, s.audience, time.Now())
	if err != nil {
		return nil, err
	}
	s.j.secrets.Add("client_assertion", a)
	params := url.Values{assertionTypeParam: {assertionType}, assertionParam: {a}}
	if s.resource != "" {
		// RFC 8707: the token is for this MCP server.
		params.Set("resource", s.resource)
	}
	cfg := &clientcredentials.Config{ClientID: s.j.id, TokenURL: s.tokenURL, Scopes: s.scopes,
		AuthStyle: oauth2.AuthStyleInParams, EndpointParams: params}
	tok, err := cfg.Token(s.ctx)
	return explainToken(s.j.secrets, tok, err)
}

// explainedSource is a token source whose errors are the authorization
// server's error code and description, when it gave them.
type explainedSource struct {
	ts      oauth2.TokenSource
	secrets *record.Redactor
}

func (e *explainedSource) Token() (*oauth2.Token, error) {
	tok, err := e.ts.Token()
	return explainToken(e.secrets, tok, err)
}

// explainToken is tok, registered with secrets the moment it exists, or
// err as the authorization server explained it.
func explainToken(secrets *record.Redactor, tok *oauth2.Token, err error) (*oauth2.Token, error) {
	if err != nil {
		var re *oauth2.RetrieveError
		if errors.As(err, &re) && re.ErrorCode != "" {
			return nil, fmt.Errorf("%s: %s", re.ErrorCode, re.ErrorDescription)
		}
		return nil, err
	}
	secrets.Add("access_token", tok.AccessToken)
	secrets.Add("refresh_token", tok.RefreshToken)
	return tok, nil
}
