package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"mcpwitness/session"
	"mcpwitness/session/oauth"
)

// mergeTarget adds what the command line says of a server (-e, -H, --cwd,
// --sse) to the server of a config file, and checks the result.
func mergeTarget(t, cmdline session.Target) (session.Target, error) {
	t.Env = append(t.Env, cmdline.Env...)
	t.SecretNames = append(t.SecretNames, cmdline.SecretNames...)
	t.Headers = append(t.Headers, cmdline.Headers...)
	if cmdline.Dir != "" {
		t.Dir = cmdline.Dir
	}
	t.SSE = t.SSE || cmdline.SSE
	t.InheritEnv = t.InheritEnv || cmdline.InheritEnv
	t.NoRetry = t.NoRetry || cmdline.NoRetry
	for _, f := range []struct{ to, from *string }{
		{&t.HeaderCmd, &cmdline.HeaderCmd}, {&t.ClientID, &cmdline.ClientID},
		{&t.ClientSecret, &cmdline.ClientSecret}, {&t.ClientMetadataURL, &cmdline.ClientMetadataURL},
		{&t.ClientKey, &cmdline.ClientKey}, {&t.OAuthIssuer, &cmdline.OAuthIssuer},
	} {
		if *f.from != "" {
			*f.to = *f.from
		}
	}
	if cmdline.OAuth != oauth.Auto {
		t.OAuth = cmdline.OAuth
	}
	if err := t.Validate(); err != nil {
		return t, usageError{err.Error()}
	}
	return t, nil
}

// serverEntry is one server of an mcpServers file, in the shapes Claude
// Desktop, Cursor and VS Code write.
type serverEntry struct {
	Type    string            `json:"type"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
	Cwd     string            `json:"cwd"`
	// InheritEnv is mcpwitness's own: --inherit-env, the child gets our
	// whole environment.
	InheritEnv bool              `json:"inheritEnv"`
	URL        string            `json:"url"`
	Headers    map[string]string `json:"headers"`
	// HeaderCmd and OAuth are mcpwitness's own: --header-cmd, and --oauth
	// with the --client-… flags.
	HeaderCmd string      `json:"headerCmd"`
	OAuth     *oauthEntry `json:"oauth"`
	// Secrets names env variables and headers whose values are secrets
	// whatever they hold, as --secret does.
	Secrets []string `json:"secrets"`

	// bad, when set, says why the entry could not be read: it names the
	// entry and the field, and no other entry is affected.
	bad error
}

// oauthEntry is the OAuth client of a server in a config file.
type oauthEntry struct {
	Mode              string `json:"mode"` // auto, off, client-credentials
	ClientID          string `json:"clientId"`
	ClientSecret      string `json:"clientSecret"`
	ClientMetadataURL string `json:"clientMetadataUrl"`
	// ClientKeyFile is --client-key: a PEM private key the client
	// authenticates with (client credentials, private_key_jwt).
	ClientKeyFile string `json:"clientKeyFile"`
	// ClientSecretFile and ClientSecretEnv are --client-secret-file and
	// --client-secret-env: the secret's file, or environment variable.
	ClientSecretFile string `json:"clientSecretFile"`
	ClientSecretEnv  string `json:"clientSecretEnv"`
	// Issuer is --oauth-issuer: the authorization server trusted with the
	// client's secret or key.
	Issuer string `json:"issuer"`
}

// secretFields names a config entry's client secret sources.
func secretFields() [3]string {
	return [3]string{"oauth.clientSecret", "oauth.clientSecretFile", "oauth.clientSecretEnv"}
}

var envRef = regexp.MustCompile(`\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}`)

// loadConfigTarget reads the server named name from an mcpServers JSON file
// ("mcpServers" for Claude Desktop and Cursor, "servers" for VS Code). With
// one server in the file, name may be empty. ${env:NAME} is replaced by
// what lookup finds.
func loadConfigTarget(path, name string, lookup func(string) (string, bool)) (session.Target, error) {
	servers, err := readServers(path)
	if err != nil {
		return session.Target{}, err
	}
	name, err = pickServer(servers, path, name)
	if err != nil {
		return session.Target{}, err
	}
	if bad := servers[name].bad; bad != nil {
		return session.Target{}, bad
	}
	t, missing, err := servers[name].target(lookup)
	switch {
	case err != nil:
		return t, usagef("server %q in %s %v", name, path, err)
	case len(missing) > 0:
		return t, usagef("server %q in %s uses environment variables that are not set: %s", name, path, strings.Join(missing, ", "))
	case strings.Contains(fmt.Sprint(t.Command, t.Env, t.URL, t.Headers), "${input:"):
		return t, usagef("server %q in %s asks for VS Code ${input:…} values, which only VS Code can prompt for; pass them with -e or -H instead", name, path)
	}
	return t, nil
}

// readServers reads the servers of an mcpServers file.
func readServers(path string) (map[string]serverEntry, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, usagef("--config: %v", err)
	}
	var file struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
		Servers    map[string]json.RawMessage `json:"servers"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		return nil, usagef("--config %s is not valid JSON: %v", path, err)
	}
	raw := file.MCPServers
	if len(raw) == 0 {
		raw = file.Servers
	}
	if len(raw) == 0 {
		return nil, usagef("--config %s has no servers: want {\"mcpServers\": {\"NAME\": {...}}} or VS Code's {\"servers\": {...}}", path)
	}
	// Each entry on its own, so that a bad value is named by its entry
	// and field, and spoils no other entry.
	servers := make(map[string]serverEntry, len(raw))
	for _, name := range sortedKeys(raw) {
		var e serverEntry
		if err := json.Unmarshal(raw[name], &e); err != nil {
			e = serverEntry{bad: usagef("server %q in %s: %s", name, path, entryJSONError(err))}
		} else if field := unknownField(raw[name]); field != "" {
			e = serverEntry{bad: usagef("server %q in %s has the field %s, which mcpwitness does not know (a typo?); it reads %s, and ignores %s, which other clients use",
				name, path, field, strings.Join(entryFields(), ", "), strings.Join(otherClientFields(), ", "))}
		}
		servers[name] = e
	}
	return servers, nil
}

// entryFields are the fields of a config entry mcpwitness reads.
func entryFields() []string {
	return []string{"type", "command", "args", "env", "cwd", "inheritEnv", "url", "headers", "headerCmd", "oauth", "secrets"}
}

// oauthFields are the fields of a config entry's oauth object.
func oauthFields() []string {
	return []string{"mode", "clientId", "clientSecret", "clientMetadataUrl", "clientKeyFile", "clientSecretFile", "clientSecretEnv", "issuer"}
}

// otherClientFields are fields other clients (Claude Desktop, Cursor, VS
// Code, Windsurf, Cline, Gemini) give an entry that say nothing about how
// to reach the server: ignored, so that their files open as they are.
func otherClientFields() []string {
	return []string{"disabled", "enabled", "autoApprove", "alwaysAllow", "timeout", "transportType", "envFile",
		"description", "name", "trust", "includeTools", "excludeTools", "dev", "gallery", "version"}
}

// unknownField is the first field of the JSON object entry (in sorted
// order, oauth's fields as oauth.NAME) that is neither read by mcpwitness
// nor one another client is known to use, or "".
func unknownField(entry json.RawMessage) string {
	var fields map[string]json.RawMessage
	if json.Unmarshal(entry, &fields) != nil {
		return ""
	}
	for _, k := range sortedKeys(fields) {
		if !slices.Contains(entryFields(), k) && !slices.Contains(otherClientFields(), k) {
			return strconv.Quote(k)
		}
	}
	var oauth map[string]json.RawMessage
	if json.Unmarshal(fields["oauth"], &oauth) == nil {
		for _, k := range sortedKeys(oauth) {
			if !slices.Contains(oauthFields(), k) {
				return strconv.Quote("oauth." + k)
			}
		}
	}
	return ""
}

// entryJSONError says what is wrong with a config entry's JSON: which
// field has a value of the wrong type, and what it should be.
func entryJSONError(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return fmt.Sprintf("%s holds a JSON %s where a %s belongs", te.Field, te.Value, jsonKind(te.Type.String()))
	}
	return "not a valid entry: " + err.Error()
}

// jsonKind names the JSON value a Go type of a config entry is read from.
func jsonKind(goType string) string {
	switch {
	case strings.HasPrefix(goType, "map["):
		return "JSON object of strings"
	case strings.HasPrefix(goType, "[]"):
		return "JSON array of strings"
	case goType == "string":
		return "JSON string"
	}
	return "JSON object"
}

// pickServer returns the name of the server --server picks: name, or the
// only server of the file when name is empty.
func pickServer(servers map[string]serverEntry, path, name string) (string, error) {
	names := sortedKeys(servers)
	if name == "" {
		if len(servers) > 1 {
			return "", usagef("--config %s has %d servers; pick one with --server (%s)", path, len(servers), strings.Join(names, ", "))
		}
		return names[0], nil
	}
	if _, ok := servers[name]; !ok {
		return "", usagef("--config %s has no server %q; it has %s", path, name, strings.Join(names, ", "))
	}
	return name, nil
}

// target is the server e describes, with ${env:NAME} filled in from lookup;
// missing lists the variables lookup did not find.
func (e serverEntry) target(lookup func(string) (string, bool)) (t session.Target, missing []string, err error) {
	expand := func(s string) string {
		return envRef.ReplaceAllStringFunc(s, func(ref string) string {
			name := envRef.FindStringSubmatch(ref)[1]
			val, ok := lookup(name)
			if !ok {
				missing = append(missing, name)
			}
			if sub := (session.EnvRef{Name: name, Value: val}); !slices.Contains(t.Substituted, sub) {
				t.Substituted = append(t.Substituted, sub)
			}
			return val
		})
	}
	for _, name := range e.Secrets {
		if name == "" {
			return t, nil, fmt.Errorf("names an empty secret in secrets")
		}
	}
	t.SecretNames = slices.Clone(e.Secrets)
	switch {
	case e.Command != "" && e.URL != "":
		return t, nil, fmt.Errorf("has both a command and a url")
	case e.Command != "":
		if field := e.httpField(); field != "" {
			return t, nil, fmt.Errorf("has a command and %s, which applies to a url server only", field)
		}
		t.Command = append([]string{expand(e.Command)}, mapStrings(e.Args, expand)...)
		t.Dir = expand(e.Cwd)
		t.InheritEnv = e.InheritEnv
		for _, k := range sortedKeys(e.Env) {
			t.Env = append(t.Env, k+"="+expand(e.Env[k]))
		}
	case e.URL != "" && e.InheritEnv:
		return t, nil, fmt.Errorf("has a url and inheritEnv, which applies to a command server only")
	case e.URL != "":
		t.URL = expand(e.URL)
		t.SSE = e.Type == "sse"
		for _, k := range sortedKeys(e.Headers) {
			t.Headers = append(t.Headers, k+": "+expand(e.Headers[k]))
		}
		t.HeaderCmd = expand(e.HeaderCmd)
		if o := e.OAuth; o != nil {
			if o.Mode != "auto" {
				t.OAuth = oauth.Mode(o.Mode)
			}
			t.ClientID, t.ClientSecret, t.ClientMetadataURL = expand(o.ClientID), expand(o.ClientSecret), expand(o.ClientMetadataURL)
			t.ClientKey, t.OAuthIssuer = expand(o.ClientKeyFile), expand(o.Issuer)
			from := secretFrom{value: t.ClientSecret, file: expand(o.ClientSecretFile), env: expand(o.ClientSecretEnv), names: secretFields()}
			if t.ClientSecret, err = from.read(lookup); err != nil {
				return t, nil, fmt.Errorf("has a bad oauth entry: %w", err)
			}
		}
		if err := checkHTTPEntry(e, t); err != nil {
			return t, nil, err
		}
	default:
		return t, nil, fmt.Errorf("has neither a command nor a url")
	}
	return t, missing, nil
}

// httpField names a field of e that only a url server takes ("" when it
// has none).
func (e serverEntry) httpField() string {
	switch {
	case len(e.Headers) > 0:
		return "headers"
	case e.HeaderCmd != "":
		return "headerCmd"
	case e.OAuth != nil:
		return "oauth"
	}
	return ""
}

// checkHTTPEntry reports a bad value among the HTTP fields of entry e (t
// is what it gives, ${env:…} filled in), naming the field: a header name
// that is not a token, an unknown oauth.mode, client credentials without
// their id and secret or key (see [session.Target.CheckClientAuth]), a
// clientMetadataUrl that cannot name a Client ID Metadata Document.
func checkHTTPEntry(e serverEntry, t session.Target) error {
	for _, k := range sortedKeys(e.Headers) {
		if !validHeaderName(k) {
			return fmt.Errorf("has headers.%s, which is not a header name (letters, digits and !#$%%&'*+-.^_`|~ only)", k)
		}
	}
	o := e.OAuth
	if o == nil {
		return nil
	}
	if o.Mode != "" && !slices.Contains(oauth.Modes(), o.Mode) {
		return fmt.Errorf("has oauth.mode %q, which is not one of %s", o.Mode, strings.Join(oauth.Modes(), ", "))
	}
	names := session.ClientAuthNames{ClientCredentials: `oauth.mode "client-credentials"`,
		ClientID: "oauth.clientId", ClientSecret: "oauth.clientSecret", ClientKey: "oauth.clientKeyFile"}
	if err := t.CheckClientAuth(names); err != nil {
		return fmt.Errorf("has a bad oauth entry: %w", err)
	}
	if err := session.CheckIssuer(t.OAuthIssuer); err != nil {
		return fmt.Errorf("has a bad oauth.issuer: %w", err)
	}
	if u := t.ClientMetadataURL; u != "" {
		p, err := url.Parse(u)
		if err != nil || p.Scheme != "https" || p.Host == "" || p.Path == "" || p.Path == "/" {
			return fmt.Errorf("has oauth.clientMetadataUrl %q, which is not an https URL with a path, as a Client ID Metadata Document's must be", u)
		}
	}
	return nil
}

// validHeaderName reports whether name is an HTTP header name (an RFC 9110
// token).
func validHeaderName(name string) bool {
	if name == "" {
		return false
	}
	for _, c := range name {
		if c > 0x7e || !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("!#$%&'*+-.^_`|~", c)) {
			return false
		}
	}
	return true
}

func mapStrings(in []string, f func(string) string) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = f(s)
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
