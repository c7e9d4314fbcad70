package session

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strings"
)

// Identity is a target's configuration identity: the config hash, a
// SHA-256 over a canonical encoding of the comparable data of its
// transport, and a digest of each part so that two identities can say
// which parts differ without holding any value.
//
// The parts are the transport kind; for HTTP the URL (its credentials and
// query values as keyed digests), each header's name with a keyed digest of
// its value, and the --header-cmd command; for stdio the command, its args,
// the working directory, whether it inherits our whole environment, and
// each environment variable's name with a keyed digest of its value; and the protocol version asked for and the client
// info sent. The name a config file gives the server is not a part: two
// entries that differ only in their names are one server.
type Identity struct {
	// Hash is the config hash, 64 hex digits.
	Hash string `json:"hash"`
	// Parts maps each part's name ("url", "header:Authorization",
	// "env:API_KEY", …) to a short digest of its value.
	Parts map[string]string `json:"parts,omitempty"`
	// Key names the digest key the secret values were digested with (see
	// [DigestKey.ID]); "" when they were not keyed, and then only the names
	// of headers and variables count.
	Key string `json:"key,omitempty"`
}

// IdentityOptions are what a session sends that is part of its identity.
type IdentityOptions struct {
	Protocol      string // the protocol version asked for ("" for the SDK's latest)
	ClientName    string
	ClientVersion string
}

// Part names of an [Identity] that are not per header or variable.
const (
	PartTransport = "transport"
	PartURL       = "url"
	PartHeaderCmd = "header-cmd"
	PartCommand   = "command"
	PartArgs      = "args"
	PartCwd       = "cwd"
	// PartInheritEnv is "true" when the child gets our whole environment;
	// absent otherwise, so that the identity of a target without it is
	// what it was before the part existed.
	PartInheritEnv = "inherit-env"
	PartProtocol   = "protocol"
	PartClient     = "client"
	PartHeader     = "header:" // followed by the header's canonical name
	PartEnv        = "env:"    // followed by the variable's name
)

// Identify returns the target's configuration identity with what the
// session sends, its secret values digested with t.DigestKey.
func (t Target) Identify(o IdentityOptions) Identity {
	parts := t.identityParts(o)
	canon, _ := json.Marshal(parts) // a map of strings: keys sorted, never fails
	sum := sha256.Sum256(canon)
	id := Identity{Hash: hex.EncodeToString(sum[:]), Parts: map[string]string{}}
	if t.DigestKey != nil {
		id.Key = t.DigestKey.ID()
	}
	for name, value := range parts {
		s := sha256.Sum256([]byte(name + "\x00" + value))
		id.Parts[name] = hex.EncodeToString(s[:6])
	}
	return id
}

// identityParts is the comparable data of the target, each part's value in
// canonical form and with secret values replaced by keyed digests.
func (t Target) identityParts(o IdentityOptions) map[string]string {
	secret := func(name, value string) string {
		if t.DigestKey == nil {
			return "unkeyed"
		}
		return t.DigestKey.Digest("identity:"+name, value, 0)
	}
	info := t.Describe()
	parts := map[string]string{
		PartTransport: info.Transport,
		PartProtocol:  o.Protocol,
		PartClient:    o.ClientName + "/" + o.ClientVersion,
	}
	switch {
	case len(t.Command) > 0:
		parts[PartCommand] = t.Command[0]
		args, _ := json.Marshal(t.Command[1:])
		parts[PartArgs] = string(args)
		parts[PartCwd] = t.Dir
		if t.InheritEnv {
			parts[PartInheritEnv] = "true"
		}
		env := map[string]string{}
		for _, kv := range t.Env {
			k, v, _ := strings.Cut(kv, "=")
			env[k] = v // the last of a name wins, as in the child's environment
		}
		for _, k := range slices.Sorted(maps.Keys(env)) {
			parts[PartEnv+k] = secret(PartEnv+k, env[k])
		}
	case t.URL != "":
		parts[PartURL] = NewRedactor(t.DigestKey).redactURL(t.URL)
		parts[PartHeaderCmd] = t.HeaderCmd
		for _, h := range t.Headers {
			name, value, _ := strings.Cut(h, ":")
			name = http.CanonicalHeaderKey(strings.TrimSpace(name))
			parts[PartHeader+name] = secret(PartHeader+name, strings.TrimSpace(value))
		}
	default:
		parts["name"] = info.Name
	}
	return parts
}

// Short is the first 12 hex digits of the hash, as the UI shows it.
func (id Identity) Short() string {
	if len(id.Hash) < 12 {
		return id.Hash
	}
	return id.Hash[:12]
}

// Differences names the parts in which id and other differ, sorted: a part
// only one of them has, or a part whose digests differ. Across transports
// (stdio and HTTP) the parts of one transport only are not named: they
// differ by the transport, and named they read as settings the user made
// (a stdio server and an HTTP one differed in "args, command, cwd,
// header-cmd, transport, url" with no --cwd or --header-cmd given). It is
// nil when the hashes are equal. Values are never named, only parts.
func (id Identity) Differences(other Identity) []string {
	if id.Hash == other.Hash {
		return nil
	}
	a, aok := id.Parts[PartTransport]
	b, bok := other.Parts[PartTransport]
	sameTransport := !aok || !bok || a == b
	var diff []string
	for _, name := range slices.Sorted(maps.Keys(id.Parts)) {
		if d, ok := other.Parts[name]; ok && d != id.Parts[name] || !ok && sameTransport {
			diff = append(diff, name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(other.Parts)) {
		if _, ok := id.Parts[name]; !ok && sameTransport {
			diff = append(diff, name)
		}
	}
	slices.Sort(diff)
	if len(diff) == 0 {
		diff = []string{"(parts not recorded)"}
	}
	return diff
}

// HasSecrets reports whether the target holds a secret value (see
// [SecretParts]): a secret environment or header value, URL credentials, a
// secret query value, a client secret, a ${env:NAME} value.
func (t Target) HasSecrets() bool { return t.Secrets().Len() > 0 }
