package demo

import (
	"crypto/ecdsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"
)

// The demo's pre-registered client that authenticates with a private key
// (private_key_jwt, RFC 7523) instead of a secret: --oauth
// client-credentials --client-id mcpwitness-demo-jwt --client-key FILE,
// FILE holding [DemoClientKeyPEM]. The key is published: it is the demo's.
const (
	DemoJWTClientID  = "mcpwitness-demo-jwt"
	DemoClientKeyPEM = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgwfUvwO4efkafIFTR
Wk7ceeozw+BqNDGs/L+ASPCiJHahRANCAATtG0FYcLxFVW0HvCMYoDTX0RpCVKve
A8JObxHNx/4U6kSogvF0AxzkvWm7o5EbumHH3x5ylaXbX+wox4V0kebm
-----END PRIVATE KEY-----
`
)

// The client assertion's form values (RFC 7523 section 2.2).
const (
	clientAssertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
	// maxAssertionLife bounds how far ahead an assertion's exp may be.
	maxAssertionLife = 10 * time.Minute
	// clockSkew is the leeway on exp and iat.
	clockSkew = 30 * time.Second
)

// demoClientKey is the public half of [DemoClientKeyPEM].
func demoClientKey() *ecdsa.PublicKey {
	block, _ := pem.Decode([]byte(DemoClientKeyPEM))
	key, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		panic("demo: the demo client key does not parse: " + err.Error())
	}
	return &key.(*ecdsa.PrivateKey).PublicKey
}

// assertionClaims are the claims of a client assertion the demo reads.
type assertionClaims struct {
	Iss, Sub, Jti string
	Aud           audience
	Exp, Iat      int64
}

// audience is a JWT's aud: one string or an array of them.
type audience []string

func (a *audience) UnmarshalJSON(b []byte) error {
	var one string
	if json.Unmarshal(b, &one) == nil {
		*a = audience{one}
		return nil
	}
	var many []string
	err := json.Unmarshal(b, &many)
	*a = many
	return err
}

// checkAssertion checks a client assertion as the token endpoint of issuer
// must (RFC 7523 section 3): signed ES256 by the key of the client it
// names, iss and sub that client, aud the issuer (or the token endpoint),
// not expired, not good for longer than [maxAssertionLife], and not seen
// before (used holds the ids seen, until each expires). It returns the
// client.
func checkAssertion(jwt, issuer string, keys map[string]*ecdsa.PublicKey, used map[string]time.Time, now time.Time) (string, error) {
	for id, exp := range used {
		if now.After(exp.Add(clockSkew)) {
			delete(used, id)
		}
	}
	parts := strings.Split(jwt, ".")
	if len(parts) != 3 {
		return "", errors.New("the client assertion is not a signed JWT (three dot-separated parts)")
	}
	var header struct{ Alg string }
	var claims assertionClaims
	if err := decodePart(parts[0], &header); err != nil {
		return "", fmt.Errorf("the client assertion's header: %w", err)
	}
	if err := decodePart(parts[1], &claims); err != nil {
		return "", fmt.Errorf("the client assertion's claims: %w", err)
	}
	key, ok := keys[claims.Iss]
	switch {
	case !ok:
		return "", fmt.Errorf("no client %q authenticates with a key here", claims.Iss)
	case header.Alg != "ES256":
		return "", fmt.Errorf("the client assertion is signed %q; this client's key signs ES256", header.Alg)
	case !verifyES256(key, parts[0]+"."+parts[1], parts[2]):
		return "", errors.New("the client assertion's signature does not verify with the client's key")
	case claims.Sub != claims.Iss:
		return "", errors.New("the client assertion's sub is not its iss (the client)")
	case !claims.Aud.has(issuer, issuer+"/", issuer+"/token"):
		return "", fmt.Errorf("the client assertion's aud %q is not this authorization server (%s)", claims.Aud, issuer)
	case claims.Exp == 0 || now.After(time.Unix(claims.Exp, 0).Add(clockSkew)):
		return "", errors.New("the client assertion has expired (or has no exp)")
	case time.Unix(claims.Exp, 0).After(now.Add(maxAssertionLife + clockSkew)):
		return "", fmt.Errorf("the client assertion is good for longer than %s", maxAssertionLife)
	case time.Unix(claims.Iat, 0).After(now.Add(clockSkew)):
		return "", errors.New("the client assertion was issued in the future")
	case claims.Jti == "":
		return "", errors.New("the client assertion has no jti")
	}
	if _, seen := used[claims.Jti]; seen {
		return "", errors.New("the client assertion was used before (its jti is spent)")
	}
	used[claims.Jti] = time.Unix(claims.Exp, 0)
	return claims.Iss, nil
}

func (a audience) has(want ...string) bool {
	for _, v := range a {
		for _, w := range want {
			if v == w {
				return true
			}
		}
	}
	return false
}

// decodePart decodes one base64url part of a JWT into v.
func decodePart(part string, v any) error {
	b, err := base64.RawURLEncoding.DecodeString(part)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// verifyES256 reports whether sig (base64url, r and s of 32 bytes each)
// signs signed with key.
func verifyES256(key *ecdsa.PublicKey, signed, sig string) bool {
	raw, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || len(raw) != 64 {
		return false
	}
	sum := sha256.Sum256([]byte(signed))
	r, s := new(big.Int).SetBytes(raw[:32]), new(big.Int).SetBytes(raw[32:])
	return ecdsa.Verify(key, sum[:], r, s)
}
