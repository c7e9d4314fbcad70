package session

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"maps"
	"mcpwitness/record"
	"net/http"
	"slices"
	"strings"
)

// Identify returns the target's configuration identity with what the
// session sends, its secret values digested with t.DigestKey.
func (t Target) Identify(o record.IdentityOptions) record.Identity {
	parts := t.identityParts(o)
	canon, _ := json.Marshal(parts) // a map of strings: keys sorted, never fails
	sum := sha256.Sum256(canon)
	id := record.Identity{Hash: hex.EncodeToString(sum[:]), Parts: map[string]string{}}
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
func (t Target) identityParts(o record.IdentityOptions) map[string]string {
	secret := func(name, value string) string {
		if t.DigestKey == nil {
			return "unkeyed"
		}
		return t.DigestKey.Digest("identity:"+name, value, 0)
	}
	info := t.Describe()
	parts := map[string]string{
		record.PartTransport: info.Transport,
		record.PartProtocol:  o.Protocol,
		record.PartClient:    o.ClientName + "/" + o.ClientVersion,
	}
	switch {
	case len(t.Command) > 0:
		parts[record.PartCommand] = t.Command[0]
		args, _ := json.Marshal(t.Command[1:])
		parts[record.PartArgs] = string(args)
		parts[record.PartCwd] = t.Dir
		if t.InheritEnv {
			parts[record.PartInheritEnv] = "true"
		}
		env := map[string]string{}
		for _, kv := range t.Env {
			k, v, _ := strings.Cut(kv, "=")
			env[k] = v // the last of a name wins, as in the child's environment
		}
		for _, k := range slices.Sorted(maps.Keys(env)) {
			parts[record.PartEnv+k] = secret(record.PartEnv+k, env[k])
		}
	case t.URL != "":
		parts[record.PartURL] = record.NewRedactor(t.DigestKey).RedactURL(t.URL)
		parts[record.PartHeaderCmd] = t.HeaderCmd
		for _, h := range t.Headers {
			name, value, _ := strings.Cut(h, ":")
			name = http.CanonicalHeaderKey(strings.TrimSpace(name))
			parts[record.PartHeader+name] = secret(record.PartHeader+name, strings.TrimSpace(value))
		}
	default:
		parts["name"] = info.Name
	}
	return parts
}

// HasSecrets reports whether the target holds a secret value (see
// [record.SecretParts]): a secret environment or header value, URL credentials, a
// secret query value, a client secret, a ${env:NAME} value.
func (t Target) HasSecrets() bool { return t.Secrets().Len() > 0 }
