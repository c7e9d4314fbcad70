package session

import (
	"fmt"
	"io"
	"net/url"
	"os"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"mcpwitness/record"
	"mcpwitness/session/oauth"
)

// Target says which server to connect to and how. Exactly one of Command,
// URL and Transport is set.
type Target struct {
	// Command starts a stdio server as a child process: program and args.
	Command []string
	// Env holds KEY=VAL pairs added to the environment the child inherits
	// (see [ChildEnv]).
	Env []string
	// InheritEnv passes the child our whole environment, not only the
	// variables of [InheritedEnv].
	InheritEnv bool
	// Dir is the child's working directory ("" for ours).
	Dir string

	// URL is a Streamable HTTP endpoint, or a legacy SSE endpoint with SSE.
	URL string
	// Headers holds "Name: value" pairs sent with every HTTP request.
	Headers []string
	SSE     bool
	// NoRetry turns off the HTTP 429 retry (see [ThrottleError]).
	NoRetry bool
	// HeaderCmd is a shell command run for every HTTP request; each
	// "Name: value" line it prints is a header of that request only.
	HeaderCmd string
	// OAuth says how a 401 is answered; ClientID, ClientSecret and
	// ClientMetadataURL register the client (pre-registered, or a Client ID
	// Metadata Document); without them the client registers dynamically.
	// ClientKey is the path of a PEM private key that a pre-registered
	// client authenticates with instead of a secret, with client
	// credentials (private_key_jwt).
	OAuth                                     oauth.Mode
	ClientID, ClientSecret, ClientMetadataURL string
	ClientKey                                 string
	// OAuthIssuer pins the authorization server trusted with the client's
	// secret or key; without it, only one on the target's own host is.
	OAuthIssuer string
	// Notice, if not nil, receives what a person must see at once outside
	// the UI: the authorization URL. The events always carry it.
	Notice io.Writer
	// NoAuthBrowser leaves opening the authorization URL to the caller
	// (the UI opens it on a key): the session checks it ([oauth.CheckOpenURL])
	// and shows it in its AuthOpen event, but opens no browser.
	NoAuthBrowser bool
	// Unattended says no person can act on a notice (a headless run whose
	// stdin and stderr are not terminals): an authorization URL that
	// could not be opened fails the flow at once, naming the ways that
	// need no browser, instead of waiting out the timeout.
	Unattended bool

	// Transport connects in some other way (in-memory, tests); Name labels it.
	Transport mcp.Transport
	Name      string

	// SecretNames name environment variables and headers whose values are
	// secrets whatever they hold (--secret, a config entry's "secrets").
	SecretNames []string
	// Substituted are the ${env:NAME} references a config entry's fields
	// were filled in from: each value is a secret wherever it stands.
	Substituted []EnvRef

	// DigestKey keys the digests of the target's secrets (nil: unkeyed);
	// Identity is its configuration identity, if known. See [Target.Identify].
	DigestKey *record.DigestKey
	Identity  *record.Identity
}

// Validate reports a target that names no server or more than one,
// malformed -e and -H values, flags that do not apply to its transport and
// an OAuth mode that lacks what it needs.
func (t Target) Validate() error {
	for _, check := range []func() error{t.validateServer, t.validatePairs, t.validateApplies, t.validateOAuth} {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

// validateServer reports a target that names no server or more than one.
func (t Target) validateServer() error {
	n := 0
	for _, set := range []bool{len(t.Command) > 0, t.URL != "", t.Transport != nil} {
		if set {
			n++
		}
	}
	switch {
	case n == 0:
		return fmt.Errorf("no server given: pass a command after --, or --url URL")
	case n > 1:
		return fmt.Errorf("more than one server given: use either a command after -- or --url, not both")
	}
	return nil
}

// validatePairs reports a malformed -e KEY=VALUE or -H 'Name: value'.
func (t Target) validatePairs() error {
	for _, kv := range t.Env {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" {
			return fmt.Errorf("bad -e %q: want KEY=VALUE", kv)
		}
	}
	for _, h := range t.Headers {
		if name, _, ok := strings.Cut(h, ":"); !ok || strings.TrimSpace(name) == "" {
			return fmt.Errorf("bad -H %q: want 'Name: value'", h)
		}
	}
	return nil
}

// validateApplies reports stdio flags without a command and HTTP flags
// without a URL.
func (t Target) validateApplies() error {
	if (len(t.Env) > 0 || t.Dir != "") && len(t.Command) == 0 {
		return fmt.Errorf("-e and --cwd apply to a stdio server: give a command after --")
	}
	httpOnly := len(t.Headers) > 0 || t.SSE || t.SetsHTTPAuth()
	if httpOnly && t.URL == "" {
		return fmt.Errorf("-H, --sse, --header-cmd, --oauth, --oauth-issuer and the --client-… flags apply to an HTTP server: give --url")
	}
	return nil
}

// SetsHTTPAuth reports whether t says how to authenticate to an HTTP
// server: --header-cmd, --oauth or one of the --client-… flags.
func (t Target) SetsHTTPAuth() bool {
	return t.HeaderCmd != "" || t.OAuth != oauth.Auto || t.OAuthIssuer != "" ||
		t.ClientID != "" || t.ClientSecret != "" || t.ClientMetadataURL != "" || t.ClientKey != ""
}

// validateOAuth reports an unknown --oauth mode and what
// [Target.CheckClientAuth] reports, in the flags' names.
func (t Target) validateOAuth() error {
	switch t.OAuth {
	case oauth.Auto, oauth.Off, oauth.ClientCredentials:
	default:
		return fmt.Errorf("unknown --oauth %q; choose one of %s", t.OAuth, strings.Join(oauth.Modes(), ", "))
	}
	if err := CheckIssuer(t.OAuthIssuer); err != nil {
		return fmt.Errorf("bad --oauth-issuer: %w", err)
	}
	return t.CheckClientAuth(FlagNames())
}

// CheckIssuer reports an --oauth-issuer that is not an http or https URL
// with a host ("" is none given).
func CheckIssuer(issuer string) error {
	if issuer == "" {
		return nil
	}
	u, err := url.Parse(issuer)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return fmt.Errorf("%q is not an authorization server's issuer URL (https://auth.example.com)", issuer)
	}
	return nil
}

// ClientAuthNames are what a client's OAuth settings are called where a
// user gave them: flags on the command line, or fields of a config file.
type ClientAuthNames struct {
	ClientCredentials                 string // the client credentials mode
	ClientID, ClientSecret, ClientKey string
}

// FlagNames names a client's OAuth settings as the command line does.
func FlagNames() ClientAuthNames {
	return ClientAuthNames{ClientCredentials: "--oauth client-credentials",
		ClientID: "--client-id", ClientSecret: "--client-secret", ClientKey: "--client-key"}
}

// CheckClientAuth reports client credentials without a client id and one
// secret or key, a key given for another mode, and a key that is not one
// (see [oauth.LoadClientKey]), calling each setting what n calls it.
func (t Target) CheckClientAuth(n ClientAuthNames) error {
	switch {
	case t.ClientKey != "" && t.OAuth != oauth.ClientCredentials:
		return fmt.Errorf("%s signs the client credentials grant: it goes with %s", n.ClientKey, n.ClientCredentials)
	case t.OAuth != oauth.ClientCredentials:
		return nil
	case t.ClientID == "" || t.ClientSecret == "" && t.ClientKey == "":
		return fmt.Errorf("%s needs %s, and %s or %s", n.ClientCredentials, n.ClientID, n.ClientSecret, n.ClientKey)
	case t.ClientSecret != "" && t.ClientKey != "":
		return fmt.Errorf("%s and %s are two ways for the client to authenticate: give one", n.ClientSecret, n.ClientKey)
	case t.ClientKey != "":
		if _, err := oauth.LoadClientKey(t.ClientKey); err != nil {
			return fmt.Errorf("%s %w", n.ClientKey, err)
		}
	}
	return nil
}

// EnvRef is one ${env:NAME} reference of a config entry and the value it
// was filled with.
type EnvRef struct {
	Name, Value string
}

// Secrets returns a [record.Redactor] that knows every secret of the target (see
// [record.SecretParts]): secret-named and marked environment and header values,
// credential-shaped parts of any value, URL userinfo, secret query values,
// the client secret and every ${env:NAME} value substituted into it.
func (t Target) Secrets() *record.Redactor {
	r := record.NewRedactor(t.DigestKey)
	t.describe(r)
	return r
}

// Describe returns the target with its secrets replaced, and each
// ${env:NAME} value shown as the reference.
func (t Target) Describe() record.TargetInfo {
	info := t.describe(record.NewRedactor(t.DigestKey))
	info.Config = t.Identity
	return info
}

// describe registers the target's secrets with r and returns its
// description with them replaced.
func (t Target) describe(r *record.Redactor) record.TargetInfo {
	unsub := t.unsubstitute(r)
	switch {
	case len(t.Command) > 0:
		info := record.TargetInfo{Transport: "stdio", Dir: unsub(t.Dir)}
		for _, a := range t.Command {
			info.Command = append(info.Command, r.AddParts("arg", record.AppendShaped(nil, a), unsub(a)))
		}
		for _, kv := range t.Env {
			k, v, _ := strings.Cut(kv, "=")
			if info.Env == nil {
				info.Env = map[string]string{}
			}
			info.Env[k] = t.describeValue(r, k, v, unsub)
		}
		if t.InheritEnv {
			t.registerInherited(r)
		}
		return info
	case t.URL != "":
		info := record.TargetInfo{Transport: "http", URL: unsub(r.RedactURL(t.URL))}
		if t.ClientSecret != "" {
			r.Add("client_secret", t.ClientSecret)
		}
		if t.SSE {
			info.Transport = "sse"
		}
		for _, h := range t.Headers {
			name, value, _ := strings.Cut(h, ":")
			name, value = strings.TrimSpace(name), strings.TrimSpace(value)
			if info.Headers == nil {
				info.Headers = map[string]string{}
			}
			info.Headers[name] = t.describeValue(r, name, value, unsub)
		}
		return info
	default:
		name := t.Name
		if name == "" {
			name = "custom"
		}
		return record.TargetInfo{Transport: "in-memory", Name: name}
	}
}

// describeValue registers the secrets of the environment or header value
// of name and returns what the description shows of it: ${env:NAME} for a
// substituted value, a placeholder for a secret, else the value with its
// credential-shaped parts replaced.
func (t Target) describeValue(r *record.Redactor, name, value string, unsub func(string) string) string {
	parts := record.SecretParts(name, value, t.marked(name))
	if shown := unsub(value); shown != value {
		for _, p := range parts {
			r.Add(name, p)
		}
		return shown
	}
	if slices.Contains(parts, value) {
		for _, p := range parts {
			r.Add(name, p)
		}
		return r.Add(name, value)
	}
	return r.AddParts(name, parts, value)
}

// registerInherited adds to r the secrets of the environment a child
// inherits whole (--inherit-env): values of secret-named or marked
// variables, and values shaped like credentials. They are not described:
// the target names only what the user gave.
func (t Target) registerInherited(r *record.Redactor) {
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		for _, p := range record.SecretParts(k, v, t.marked(k)) {
			r.Add(k, p)
		}
	}
}

// marked reports whether name is one of the target's SecretNames, in any
// case.
func (t Target) marked(name string) bool {
	return slices.ContainsFunc(t.SecretNames, func(n string) bool { return strings.EqualFold(n, name) })
}

// unsubstitute registers every ${env:NAME} value of the target as a secret
// named NAME and returns a function writing each back as its reference.
func (t Target) unsubstitute(r *record.Redactor) func(string) string {
	refs := slices.Clone(t.Substituted)
	slices.SortFunc(refs, func(a, b EnvRef) int { return len(b.Value) - len(a.Value) })
	var pairs []string
	for _, ref := range refs {
		if ref.Value != "" {
			r.Add(ref.Name, ref.Value)
			pairs = append(pairs, ref.Value, "${env:"+ref.Name+"}")
		}
	}
	if len(pairs) == 0 {
		return func(s string) string { return s }
	}
	return strings.NewReplacer(pairs...).Replace
}

// Loopback reports whether t is an HTTP server on a loopback host, where
// a plain http URL of its may be opened (see [oauth.CheckOpenURL]). A
// stdio server is not: it may stand in for one anywhere.
func (t Target) Loopback() bool {
	u, err := url.Parse(t.URL)
	return t.URL != "" && err == nil && oauth.LoopbackHost(u.Hostname())
}

// oauthConfig is what the session's OAuth needs of t.
func (t Target) oauthConfig() oauth.Config {
	return oauth.Config{Mode: t.OAuth, URL: t.URL, ClientID: t.ClientID, ClientSecret: t.ClientSecret, ClientKey: t.ClientKey,
		ClientMetadataURL: t.ClientMetadataURL, Issuer: t.OAuthIssuer, Loopback: t.Loopback(),
		NoBrowser: t.NoAuthBrowser, Unattended: t.Unattended, Notice: t.Notice}
}
