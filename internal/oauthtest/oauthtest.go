// Package oauthtest holds fixtures the OAuth tests of several packages
// share: a browser that records what it was asked to open, and private
// keys written as PEM files.
package oauthtest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// RecordingBrowser sets $BROWSER to a script that writes its arguments,
// one a line, to the file it returns, and exits. It uses t.Setenv, so its
// test cannot run in parallel.
func RecordingBrowser(t *testing.T) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Fatal("the recording browser is a shell script")
	}
	dir := t.TempDir()
	out, script := filepath.Join(dir, "argv"), filepath.Join(dir, "browser")
	body := "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\" >> '" + out + "'; done\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("BROWSER", script)
	return out
}

// WriteECKey writes a new P-256 key to path, PKCS #8 in PEM.
func WriteECKey(t *testing.T, path string) {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	WritePEM(t, path, "PRIVATE KEY", PKCS8(t, k))
}

// PKCS8 is key in PKCS #8 DER.
func PKCS8(t *testing.T, key any) []byte {
	t.Helper()
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return der
}

// WritePEM writes der to path as one PEM block of type typ, mode 0600.
func WritePEM(t *testing.T, path, typ string, der []byte) {
	t.Helper()
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
}
