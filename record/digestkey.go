package record

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// digestKeySize is the length of a digest key in bytes.
const digestKeySize = 32

// DigestKey keys every digest of a secret value: the placeholders of a
// [Redactor] and the header and environment digests of an [Identity]. A
// digest made with it says whether two sessions on one machine used the
// same secret, but whoever holds a session file without the key cannot
// test guesses of the secret against it.
type DigestKey struct {
	key []byte
}

// NewDigestKey returns a key made of b (at least 16 bytes); tests use it to
// compare digests made with different keys.
func NewDigestKey(b []byte) (*DigestKey, error) {
	if len(b) < 16 {
		return nil, fmt.Errorf("a digest key needs at least 16 bytes, got %d", len(b))
	}
	return &DigestKey{key: append([]byte(nil), b...)}, nil
}

// DefaultDigestKeyPath is where the per-user key lives:
// os.UserConfigDir()/mcpwitness/digest.key.
func DefaultDigestKeyPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("finding the user config directory for the digest key: %w (pass --digest-key FILE)", err)
	}
	return filepath.Join(dir, "mcpwitness", "digest.key"), nil
}

// LoadDigestKey reads the key kept at path ("" for [DefaultDigestKeyPath]).
// When there is no file, it makes a random key and writes it there (the
// directory with mode 0700, the file with mode 0600). An existing file is
// never overwritten: when two processes make one at once, both use the one
// written first. A file that is not a key is an error naming it.
func LoadDigestKey(path string) (*DigestKey, error) {
	if path == "" {
		var err error
		if path, err = DefaultDigestKeyPath(); err != nil {
			return nil, err
		}
	}
	k, err := readDigestKey(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return k, err
	}
	if err := createDigestKey(path); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, err
	}
	return readDigestKey(path)
}

// readDigestKey reads the hex key at path.
func readDigestKey(path string) (*DigestKey, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return nil, fmt.Errorf("reading the digest key: %w", err)
	}
	raw, err := hex.DecodeString(strings.TrimSpace(string(b)))
	if err != nil || len(raw) < 16 {
		return nil, fmt.Errorf("the digest key %s is not a key (want %d hex-encoded random bytes); move it away to make a new one", path, digestKeySize)
	}
	return &DigestKey{key: raw}, nil
}

// createDigestKey writes a new random key to path, failing with
// fs.ErrExist when a file is there already.
func createDigestKey(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("making the directory of the digest key: %w (pass --digest-key FILE)", err)
	}
	raw := make([]byte, digestKeySize)
	_, _ = rand.Read(raw) // crypto/rand.Read never fails
	// Written to a temporary file and linked into place, so a reader never
	// sees a half-written key and an existing key is never replaced.
	tmp, err := os.CreateTemp(filepath.Dir(path), ".digest.key-*")
	if err != nil {
		return fmt.Errorf("creating the digest key: %w (pass --digest-key FILE)", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("creating the digest key: %w", err)
	}
	_, err = tmp.WriteString(hex.EncodeToString(raw) + "\n")
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing the digest key: %w", err)
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return err
		}
		return fmt.Errorf("creating the digest key %s: %w", path, err)
	}
	return nil
}

// Digest returns the hex HMAC-SHA-256 of value under the key, n bytes long
// (all 32 when n is 0 or more than 32). Different purposes never share a
// digest: purpose is part of what is keyed.
func (k *DigestKey) Digest(purpose, value string, n int) string {
	m := hmac.New(sha256.New, k.key)
	m.Write([]byte(purpose))
	m.Write([]byte{0})
	m.Write([]byte(value))
	sum := m.Sum(nil)
	if n <= 0 || n > len(sum) {
		n = len(sum)
	}
	return hex.EncodeToString(sum[:n])
}

// ID names the key without revealing it: two session files whose headers
// name the same key id have digests that can be compared.
func (k *DigestKey) ID() string { return k.Digest("key-id", "", 6) }
