package oauth

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"mcpwitness/record"
)

// secretGuard keeps a pre-registered client's secret in the authorization
// code flow from an authorization server the user did not trust: with no
// --oauth-issuer, only one on the target's own host is trusted (with one,
// the SDK checks the issuer). A request for the metadata of an authorization
// server on another host is refused, before anything reaches it, and so is
// any request to another host that carries the secret.
type secretGuard struct {
	next   http.RoundTripper
	host   string // the target's host name
	secret string
}

func (g *secretGuard) RoundTrip(req *http.Request) (*http.Response, error) {
	if strings.EqualFold(req.URL.Hostname(), g.host) {
		return g.next.RoundTrip(req)
	}
	if issuer, ok := metadataIssuer(req.URL); ok {
		return nil, untrustedIssuer(issuer)
	}
	carries, err := g.carriesSecret(req)
	if err != nil {
		return nil, err
	}
	if carries {
		u := *req.URL
		u.Path, u.RawPath, u.RawQuery = "", "", ""
		return nil, untrustedIssuer(record.EventURL(&u, nil))
	}
	return g.next.RoundTrip(req)
}

// untrustedIssuer is the error of a credential kept from issuer.
func untrustedIssuer(issuer string) error {
	return fmt.Errorf("the server's metadata names authorization server %s, on another host than the server; pass --oauth-issuer %s to trust it with the client's credential",
		issuer, issuer)
}

// carriesSecret reports whether req carries the secret, as HTTP Basic
// credentials or a client_secret form value; a body it reads is given
// back to req.
func (g *secretGuard) carriesSecret(req *http.Request) (bool, error) {
	if _, pw, ok := req.BasicAuth(); ok && pw == g.secret {
		return true, nil
	}
	if req.Body == nil || req.Method != http.MethodPost {
		return false, nil
	}
	body, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return false, err
	}
	req.Body = io.NopCloser(bytes.NewReader(body))
	form, _ := url.ParseQuery(string(body))
	return form.Get("client_secret") == g.secret, nil
}

// metadataIssuer is the issuer whose authorization server metadata u is
// (RFC 8414 and OpenID Connect Discovery), if it is such a URL.
func metadataIssuer(u *url.URL) (string, bool) {
	origin := u.Scheme + "://" + u.Host
	for _, wk := range []string{"/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"} {
		if rest, ok := strings.CutPrefix(u.Path, wk); ok {
			return origin + rest, true
		}
		if before, ok := strings.CutSuffix(u.Path, wk); ok {
			return origin + before, true
		}
	}
	return "", false
}
