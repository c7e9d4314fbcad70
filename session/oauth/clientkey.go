package oauth

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// assertionLifetime is how long a client assertion is good for: each token
// request signs a new one.
const assertionLifetime = 5 * time.Minute

// minRSABits is the smallest RSA key that signs a client assertion.
const minRSABits = 2048

// maxKeyFile bounds what --client-key reads: a PEM private key is a few
// kilobytes.
const maxKeyFile = 1 << 20

// clientKey is a private key that authenticates a pre-registered client at
// the token endpoint with a signed JWT (private_key_jwt, RFC 7523 section
// 2.2), and the JWS algorithm it signs with.
type clientKey struct {
	key    crypto.Signer
	method jwt.SigningMethod
	alg    string
}

// LoadClientKey reads the PEM private key at path (--client-key) and says
// what is wrong with it, after the path: PKCS #8, SEC 1 (EC) or PKCS #1
// (RSA); P-256, P-384, P-521, RSA of 2048 bits or more, or Ed25519. It
// returns the JWS algorithm the key signs with (ES256, ES384, ES512, RS256
// or EdDSA).
func LoadClientKey(path string) (alg string, err error) {
	k, err := loadClientKey(path)
	if err != nil {
		return "", err
	}
	return k.alg, nil
}

func loadClientKey(path string) (*clientKey, error) {
	f, err := os.Open(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxKeyFile+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(data) > maxKeyFile {
		return nil, fmt.Errorf("%s: larger than %d bytes; a PEM private key is a few kilobytes", path, maxKeyFile)
	}
	k, err := parseClientKey(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return k, nil
}

// parseClientKey reads the first PEM private key in data.
func parseClientKey(data []byte) (*clientKey, error) {
	for {
		var block *pem.Block
		block, data = pem.Decode(data)
		if block == nil {
			return nil, errors.New("no PEM private key in it (want a block such as -----BEGIN PRIVATE KEY-----)")
		}
		var key any
		var err error
		switch block.Type {
		case "PRIVATE KEY":
			key, err = x509.ParsePKCS8PrivateKey(block.Bytes)
		case "EC PRIVATE KEY":
			key, err = x509.ParseECPrivateKey(block.Bytes)
		case "RSA PRIVATE KEY":
			key, err = x509.ParsePKCS1PrivateKey(block.Bytes)
		case "ENCRYPTED PRIVATE KEY":
			return nil, errors.New("the private key is encrypted; decrypt it first (openssl pkey -in KEY -out PLAIN)")
		default:
			continue // a certificate or parameters beside the key
		}
		if err != nil {
			return nil, fmt.Errorf("reading its %s: %w", block.Type, err)
		}
		return signerOf(key)
	}
}

// signerOf is key with the JWS algorithm it signs with.
func signerOf(key any) (*clientKey, error) {
	switch k := key.(type) {
	case *ecdsa.PrivateKey:
		switch k.Curve {
		case elliptic.P256():
			return newClientKey(k, jwt.SigningMethodES256), nil
		case elliptic.P384():
			return newClientKey(k, jwt.SigningMethodES384), nil
		case elliptic.P521():
			return newClientKey(k, jwt.SigningMethodES512), nil
		}
		return nil, fmt.Errorf("an EC key on %s, which JWS does not sign with (P-256, P-384 or P-521)", k.Curve.Params().Name)
	case *rsa.PrivateKey:
		if k.N.BitLen() < minRSABits {
			return nil, fmt.Errorf("an RSA key of %d bits; RS256 needs %d or more", k.N.BitLen(), minRSABits)
		}
		return newClientKey(k, jwt.SigningMethodRS256), nil
	case ed25519.PrivateKey:
		return newClientKey(k, jwt.SigningMethodEdDSA), nil
	}
	return nil, fmt.Errorf("a %T private key, which does not sign JWTs here (EC, RSA or Ed25519)", key)
}

// newClientKey is key signing with method.
func newClientKey(key crypto.Signer, method jwt.SigningMethod) *clientKey {
	return &clientKey{key: key, method: method, alg: method.Alg()}
}

// assertion is a client assertion for clientID at the authorization server
// audience (its issuer), signed now: a JWT whose iss and sub are the
// client, good for [assertionLifetime], with an id of its own. The aud
// claim is a single string, as RFC 7523 section 3 allows and as servers
// that compare it to their issuer expect.
func (k *clientKey) assertion(clientID, audience string, now time.Time) (string, error) {
	claims := jwt.MapClaims{
		"iss": clientID, "sub": clientID, "aud": audience,
		"iat": now.Unix(), "exp": now.Add(assertionLifetime).Unix(), "jti": rand.Text(),
	}
	signed, err := jwt.NewWithClaims(k.method, claims).SignedString(k.key)
	if err != nil {
		return "", fmt.Errorf("signing the client assertion: %w", err)
	}
	return signed, nil
}
