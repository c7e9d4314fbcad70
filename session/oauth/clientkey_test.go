package oauth

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"mcpwitness/internal/oauthtest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// TestClientKeySignsAssertions loads each kind of key in each PEM form it
// comes in, signs a client assertion with it, and checks the assertion as
// an authorization server would: the algorithm its header names, and
// golang-jwt's parser accepting the signature with the public key and the
// claims RFC 7523 asks for.
func TestClientKeySignsAssertions(t *testing.T) {
	t.Parallel()
	p256, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	p384, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	p521, _ := ecdsa.GenerateKey(elliptic.P521(), rand.Reader)
	rsaKey, _ := rsa.GenerateKey(rand.Reader, 2048)
	_, edKey, _ := ed25519.GenerateKey(rand.Reader)
	sec1, _ := x509.MarshalECPrivateKey(p384)
	for _, tc := range []struct {
		name, typ, alg string
		der            []byte
		pub            crypto.PublicKey
	}{
		{"P-256 PKCS8", "PRIVATE KEY", "ES256", oauthtest.PKCS8(t, p256), &p256.PublicKey},
		{"P-384 SEC1", "EC PRIVATE KEY", "ES384", sec1, &p384.PublicKey},
		{"P-521 PKCS8", "PRIVATE KEY", "ES512", oauthtest.PKCS8(t, p521), &p521.PublicKey},
		{"RSA PKCS1", "RSA PRIVATE KEY", "RS256", x509.MarshalPKCS1PrivateKey(rsaKey), &rsaKey.PublicKey},
		{"RSA PKCS8", "PRIVATE KEY", "RS256", oauthtest.PKCS8(t, rsaKey), &rsaKey.PublicKey},
		{"Ed25519", "PRIVATE KEY", "EdDSA", oauthtest.PKCS8(t, edKey), edKey.Public()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "key.pem")
			oauthtest.WritePEM(t, path, tc.typ, tc.der)
			alg, err := LoadClientKey(path)
			if err != nil || alg != tc.alg {
				t.Fatalf("LoadClientKey: %q, %v; want %s", alg, err, tc.alg)
			}
			k, _ := loadClientKey(path)
			now := time.Unix(1_800_000_000, 0)
			token, err := k.assertion("svc", "https://as.example", now)
			if err != nil {
				t.Fatal(err)
			}
			parts := strings.Split(token, ".")
			if len(parts) != 3 {
				t.Fatalf("assertion %q: want three parts", token)
			}
			var header map[string]string
			var claims map[string]any
			decodeJWTPart(t, parts[0], &header)
			decodeJWTPart(t, parts[1], &claims)
			if header["alg"] != tc.alg || header["typ"] != "JWT" {
				t.Errorf("header %v: want alg %s, typ JWT", header, tc.alg)
			}
			if claims["iss"] != "svc" || claims["sub"] != "svc" || claims["aud"] != "https://as.example" ||
				claims["iat"] != float64(now.Unix()) || claims["exp"] != float64(now.Add(assertionLifetime).Unix()) || claims["jti"] == "" {
				t.Errorf("claims %v: want iss and sub svc, aud the issuer, iat now, exp in %s, a jti", claims, assertionLifetime)
			}
			if _, ok := claims["aud"].(string); !ok {
				t.Errorf("aud %v: want a single string", claims["aud"])
			}
			parsed, err := jwt.Parse(token, func(*jwt.Token) (any, error) { return tc.pub, nil },
				jwt.WithValidMethods([]string{tc.alg}), jwt.WithTimeFunc(func() time.Time { return now }),
				jwt.WithIssuer("svc"), jwt.WithSubject("svc"), jwt.WithAudience("https://as.example"),
				jwt.WithIssuedAt(), jwt.WithExpirationRequired())
			if err != nil || !parsed.Valid {
				t.Errorf("golang-jwt does not accept the %s assertion: %v", tc.alg, err)
			}
			again, _ := k.assertion("svc", "https://as.example", now)
			var claims2 map[string]any
			decodeJWTPart(t, strings.Split(again, ".")[1], &claims2)
			if claims2["jti"] == claims["jti"] {
				t.Error("two assertions share a jti")
			}
		})
	}
}

func decodeJWTPart(t *testing.T, part string, v any) {
	t.Helper()
	b, err := base64.RawURLEncoding.DecodeString(part)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

// TestClientKeyRefusals: what is not a usable key says why, naming the
// file.
func TestClientKeyRefusals(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	small, _ := rsa.GenerateKey(rand.Reader, 1024)
	p224, _ := ecdsa.GenerateKey(elliptic.P224(), rand.Reader)
	files := map[string]func(string){
		"small.pem":     func(p string) { oauthtest.WritePEM(t, p, "RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(small)) },
		"p224.pem":      func(p string) { oauthtest.WritePEM(t, p, "PRIVATE KEY", oauthtest.PKCS8(t, p224)) },
		"encrypted.pem": func(p string) { oauthtest.WritePEM(t, p, "ENCRYPTED PRIVATE KEY", []byte("x")) },
		"cert.pem":      func(p string) { oauthtest.WritePEM(t, p, "CERTIFICATE", []byte("x")) },
		"broken.pem":    func(p string) { oauthtest.WritePEM(t, p, "PRIVATE KEY", []byte("not DER")) },
		"text.pem":      func(p string) { _ = os.WriteFile(p, []byte("hello\n"), 0o600) },
		"huge.pem":      func(p string) { _ = os.WriteFile(p, make([]byte, maxKeyFile+1), 0o600) },
	}
	for name, write := range files {
		write(filepath.Join(dir, name))
	}
	for _, tc := range []struct{ file, want string }{
		{"small.pem", "an RSA key of 1024 bits; RS256 needs 2048 or more"},
		{"p224.pem", "an EC key on P-224, which JWS does not sign with"},
		{"encrypted.pem", "the private key is encrypted; decrypt it first"},
		{"cert.pem", "no PEM private key in it"},
		{"broken.pem", "reading its PRIVATE KEY"},
		{"text.pem", "no PEM private key in it"},
		{"huge.pem", "larger than 1048576 bytes"},
		{"missing.pem", "no such file or directory"},
	} {
		path := filepath.Join(dir, tc.file)
		_, err := LoadClientKey(path)
		if err == nil || !strings.HasPrefix(err.Error(), path+": ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v; want the path, then %q", tc.file, err, tc.want)
		}
	}
}

// An authorization server whose metadata leaves out private_key_jwt, or
// the key's algorithm, is refused before a token request, saying what it
// takes; one whose metadata says nothing of either is tried.
func TestJWTClientAcceptsWhatTheServerTakes(t *testing.T) {
	t.Parallel()
	j := &ccClient{key: &clientKey{alg: "ES256"}}
	for _, tc := range []struct {
		methods, algs []string
		want          string
	}{
		{nil, nil, ""},
		{[]string{"private_key_jwt"}, []string{"RS256", "ES256"}, ""},
		{[]string{"client_secret_basic", "none"}, nil, "does not take private_key_jwt at its token endpoint (it takes client_secret_basic, none)"},
		{[]string{"private_key_jwt"}, []string{"RS256"}, "takes client assertions signed with RS256, not ES256"},
	} {
		err := j.accepts(&oauthex.AuthServerMeta{Issuer: "https://as.example", TokenEndpointAuthMethodsSupported: tc.methods,
			TokenEndpointAuthSigningAlgValuesSupported: tc.algs})
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("methods %v, algs %v: %v; want %q", tc.methods, tc.algs, err, tc.want)
		}
	}
}
