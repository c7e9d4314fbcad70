package session

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
)

// The form values of a client assertion (RFC 7523 section 2.2).
const (
	assertionTypeParam = "client_assertion_type"
	assertionParam     = "client_assertion"
	assertionType      = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
	privateKeyJWT      = "private_key_jwt"
)

// jwtClient runs the client credentials grant (SEP-1046) for a client that
// authenticates with a private key (private_key_jwt) rather than a secret,
// which the SDK's handler does not do. It discovers the authorization
// server as the SDK's handlers do: the protected resource metadata the
// challenge names, or the well-known ones at the endpoint's path and at
// its root, else the 2025-03-26 fallback (the server's origin).
type jwtClient struct {
	id     string
	key    *clientKey
	client *http.Client

	mu sync.Mutex
	ts oauth2.TokenSource
	// granted are the scopes each issuer granted, kept across a step-up
	// (SEP-2350) as the SDK's handlers keep them.
	granted map[string][]string
	// secrets receives each client assertion and token (see [Redactor]).
	secrets *Redactor
}

var _ auth.OAuthHandler = (*jwtClient)(nil)

// TokenSource is the token source of the last grant, nil before one.
func (j *jwtClient) TokenSource(context.Context) (oauth2.TokenSource, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.ts, nil
}

// Authorize obtains a token for the request that was answered resp (a 401
// or a 403 asking for more scope).
func (j *jwtClient) Authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
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
	src := &assertionSource{j: j, ctx: context.WithValue(context.WithoutCancel(ctx), oauth2.HTTPClient, j.client),
		audience: asm.Issuer, tokenURL: asm.TokenEndpoint, resource: prm.Resource, scopes: scopes}
	ts := oauth2.ReuseTokenSource(nil, src)
	tok, err := ts.Token()
	if err != nil {
		return fmt.Errorf("the token request with a signed client assertion (%s, %s) failed: %w", privateKeyJWT, j.key.alg, err)
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

// maxDrain bounds what is read of a challenge's body before it is closed.
const maxDrain = 64 << 10

// accepts reports an authorization server that says it takes neither this
// way of authenticating nor this key's algorithm at its token endpoint. One
// that says nothing is tried.
func (j *jwtClient) accepts(asm *oauthex.AuthServerMeta) error {
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
func (j *jwtClient) resourceMetadata(ctx context.Context, challenges []oauthex.Challenge, endpoint *url.URL) (*oauthex.ProtectedResourceMetadata, error) {
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
	j   *jwtClient
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
	if err != nil {
		var re *oauth2.RetrieveError
		if errors.As(err, &re) && re.ErrorCode != "" {
			return nil, fmt.Errorf("%s: %s", re.ErrorCode, re.ErrorDescription)
		}
		return nil, err
	}
	s.j.secrets.Add("access_token", tok.AccessToken)
	s.j.secrets.Add("refresh_token", tok.RefreshToken)
	return tok, nil
}
