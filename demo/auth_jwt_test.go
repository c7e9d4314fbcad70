package demo

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"strings"
	"testing"
	"time"
)

// signES256 is a client assertion with header alg and claims, signed by key.
func signES256(t *testing.T, key *ecdsa.PrivateKey, alg string, claims map[string]any) string {
	t.Helper()
	h, _ := json.Marshal(map[string]string{"alg": alg, "typ": "JWT"})
	c, _ := json.Marshal(claims)
	b64 := base64.RawURLEncoding
	signed := b64.EncodeToString(h) + "." + b64.EncodeToString(c)
	sum := sha256.Sum256([]byte(signed))
	r, s, err := ecdsa.Sign(rand.Reader, key, sum[:])
	if err != nil {
		t.Fatal(err)
	}
	sig := make([]byte, 64)
	r.FillBytes(sig[:32])
	s.FillBytes(sig[32:])
	return signed + "." + b64.EncodeToString(sig)
}

// The demo's token endpoint takes an assertion only when it is signed by
// the client's key and says what RFC 7523 asks, once.
func TestCheckAssertion(t *testing.T) {
	block, _ := pem.Decode([]byte(DemoClientKeyPEM))
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	key := k.(*ecdsa.PrivateKey)
	stranger, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	const issuer = "http://127.0.0.1:9"
	now := time.Unix(1_800_000_000, 0)
	claims := func(change func(map[string]any)) map[string]any {
		c := map[string]any{"iss": DemoJWTClientID, "sub": DemoJWTClientID, "aud": issuer,
			"iat": now.Unix(), "exp": now.Add(5 * time.Minute).Unix(), "jti": rand.Text()}
		if change != nil {
			change(c)
		}
		return c
	}
	keys := map[string]*ecdsa.PublicKey{DemoJWTClientID: demoClientKey()}
	used := map[string]time.Time{}
	good := signES256(t, key, "ES256", claims(nil))
	if id, err := checkAssertion(good, issuer, keys, used, now); err != nil || id != DemoJWTClientID {
		t.Fatalf("a good assertion: %q, %v", id, err)
	}
	for _, tc := range []struct {
		name, jwt, want string
	}{
		{"replayed", good, "used before"},
		{"another key", signES256(t, stranger, "ES256", claims(nil)), "signature does not verify"},
		{"another alg", signES256(t, key, "HS256", claims(nil)), `signed "HS256"`},
		{"unknown client", signES256(t, key, "ES256", claims(func(c map[string]any) { c["iss"], c["sub"] = "who", "who" })), `no client "who"`},
		{"sub not iss", signES256(t, key, "ES256", claims(func(c map[string]any) { c["sub"] = "other" })), "sub is not its iss"},
		{"other audience", signES256(t, key, "ES256", claims(func(c map[string]any) { c["aud"] = "https://elsewhere" })), "is not this authorization server"},
		{"expired", signES256(t, key, "ES256", claims(func(c map[string]any) { c["exp"] = now.Add(-time.Minute).Unix() })), "expired"},
		{"too long", signES256(t, key, "ES256", claims(func(c map[string]any) { c["exp"] = now.Add(time.Hour).Unix() })), "good for longer than"},
		{"from the future", signES256(t, key, "ES256", claims(func(c map[string]any) { c["iat"] = now.Add(time.Hour).Unix() })), "issued in the future"},
		{"no jti", signES256(t, key, "ES256", claims(func(c map[string]any) { delete(c, "jti") })), "no jti"},
		{"not a JWT", "abc", "not a signed JWT"},
	} {
		if _, err := checkAssertion(tc.jwt, issuer, keys, used, now); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v; want %q", tc.name, err, tc.want)
		}
	}
	// An array aud naming the token endpoint is taken too.
	arr := signES256(t, key, "ES256", claims(func(c map[string]any) { c["aud"] = []string{"x", issuer + "/token"} }))
	if _, err := checkAssertion(arr, issuer, keys, used, now); err != nil {
		t.Errorf("aud [x, the token endpoint]: %v", err)
	}
	// Spent ids are forgotten once they expire.
	if _, err := checkAssertion(signES256(t, key, "ES256", claims(nil)), issuer, keys, used, now.Add(time.Hour)); err == nil {
		t.Error("an assertion an hour old was taken")
	}
	if len(used) != 0 {
		t.Errorf("%d spent ids kept after they expired", len(used))
	}
}
