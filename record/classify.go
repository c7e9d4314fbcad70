package record

import (
	"encoding/base64"
	"encoding/json"
	"net/url"
	"regexp"
	"strings"
)

// secretWords are the parts of a header, environment variable or query
// parameter name that make its value a secret, in lower case.
var secretWords = []string{"token", "secret", "key", "password", "passwd", "auth", "session", "credential", "cookie"}

// secretName reports whether the value of a header, environment variable
// or query parameter called name is a secret by its name alone. The
// Authorization, Proxy-Authorization and Cookie headers contain "auth" or
// "cookie".
func secretName(name string) bool {
	n := strings.ToLower(name)
	for _, w := range secretWords {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

var (
	// urlInText finds URLs with a scheme inside a value.
	urlInText = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://[^\s"'<>]+`)
	// schemeCredential finds the credential of a Bearer or Basic value.
	schemeCredential = regexp.MustCompile(`(?i)\b(?:bearer|basic)\s+([A-Za-z0-9._~+/=-]{4,})`)
	// tokenShaped finds credentials by the prefixes their issuers give
	// them, as secret scanners (gitleaks) do.
	tokenShaped = regexp.MustCompile(`\b(?:(?:ghp|gho|ghu|ghs|ghr|github_pat|ntn|sk_live|sk_test|rk_live)_[A-Za-z0-9_]{16,}|(?:glpat|sk|xoxb|xoxp|xoxa|xoxr|xoxs)-[A-Za-z0-9_-]{16,}|(?:AKIA|ASIA)[0-9A-Z]{16})\b`)
	// jwtShaped finds what may be a JWT: three base64url parts, the first
	// starting as a JSON object does ("{\"" encodes as eyJ).
	jwtShaped = regexp.MustCompile(`\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*`)
)

// SecretParts returns the parts of value that are secrets, given as the
// value of the header, environment variable or query parameter name
// (marked: named by --secret or a config entry's "secrets"). The whole
// value is one when its name says so (see [secretName]) or it is marked,
// and so is the credential after a Bearer or Basic scheme in it. Otherwise
// the parts are what looks like a credential whatever its name: the
// userinfo of a URL in it (and its secret-named query values), the
// credential of a Bearer or Basic value, a token with a well-known prefix
// (ghp_, sk-, xoxb-, AKIA…), a JWT, and, in a JSON object, the members
// these rules pick by their names. Every other value is ordinary data.
func SecretParts(name, value string, marked bool) []string {
	var parts []string
	if value == "" {
		return nil
	}
	if marked || secretName(name) {
		parts = append(parts, value)
	}
	return AppendShaped(parts, value)
}

// AppendShaped appends to parts what in value looks like a credential.
func AppendShaped(parts []string, value string) []string {
	for _, raw := range urlInText.FindAllString(value, -1) {
		parts = appendURLSecrets(parts, raw)
	}
	for _, m := range schemeCredential.FindAllStringSubmatch(value, -1) {
		parts = append(parts, m[1])
	}
	parts = append(parts, tokenShaped.FindAllString(value, -1)...)
	for _, m := range jwtShaped.FindAllString(value, -1) {
		if isJWT(m) {
			parts = append(parts, m)
		}
	}
	if v := strings.TrimSpace(value); strings.HasPrefix(v, "{") {
		var obj map[string]any
		if json.Unmarshal([]byte(v), &obj) == nil {
			for k, member := range obj {
				if s, ok := member.(string); ok {
					parts = append(parts, SecretParts(k, s, false)...)
				}
			}
		}
	}
	return parts
}

// appendURLSecrets appends the userinfo of the URL raw, its password alone,
// and the values of its query parameters that are secrets by name.
func appendURLSecrets(parts []string, raw string) []string {
	u, err := url.Parse(raw)
	if err != nil {
		return parts
	}
	if u.User != nil {
		parts = append(parts, u.User.String())
		if pw, ok := u.User.Password(); ok && pw != "" {
			parts = append(parts, pw)
		}
	}
	for k, vs := range u.Query() {
		if secretName(k) {
			parts = append(parts, vs...)
		}
	}
	return parts
}

// isJWT reports whether s is three base64url parts whose first decodes to
// a JSON object, as a JWT's header does.
func isJWT(s string) bool {
	head, _, ok := strings.Cut(s, ".")
	if !ok {
		return false
	}
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(head, "="))
	return err == nil && json.Valid(b) && strings.HasPrefix(strings.TrimSpace(string(b)), "{")
}
