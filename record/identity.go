package record

import (
	"maps"
	"slices"
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
