// Package hostiletest builds the hostile MCP server in testdata/hostile for
// tests of other packages.
//
// The server speaks raw newline-delimited JSON-RPC over stdio and misbehaves
// in the way its -mode flag names; see testdata/hostile/main.go for every
// mode's exact behaviour. A typical test:
//
//	bin := hostiletest.Build(t)
//	cmd := hostiletest.Command(bin, hostiletest.ModeCursorLoop)
//	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
package hostiletest

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
)

// The modes of the hostile server (its -mode flag).
const (
	ModeNormal          = "normal"
	ModeCursorLoop      = "cursor-loop"
	ModeEndless         = "endless"
	ModeHangList        = "hang-list"
	ModeHangCall        = "hang-call"
	ModeDieOnCall       = "die-on-call"
	ModeExitAtOnce      = "exit-at-once"
	ModeGarbage         = "garbage"
	ModeFloodStderr     = "flood-stderr"
	ModeEmptyPageCursor = "empty-page-cursor"
	ModeDuplicate       = "duplicate"
	ModeTaskRequired    = "task-required"
	ModeEnv             = "env"
	ModeTTL             = "ttl"
	ModeListChanged     = "list-changed"
	ModeListChangedWalk = "list-changed-walk"
	ModeLogFlood        = "log-flood"
)

// Command returns an unstarted command running the hostile server binary bin
// in mode, with extra flags appended (e.g. "-pages", "5").
func Command(bin, mode string, args ...string) *exec.Cmd {
	return exec.Command(bin, append([]string{"-mode", mode}, args...)...)
}

// buildMu keeps parallel tests of one test binary from building the same
// server at once. Builds in different test binaries may race; each renames a
// complete binary into place, so either result is good.
var buildMu sync.Mutex

// Build compiles testdata/hostile and returns the path of the binary. The
// binary is cached in os.TempDir() under a name derived from a hash of the
// server's source and the Go version, so every test binary (and every test
// run) that sees the same source reuses one build. Build fails tb if the
// module root or the source cannot be found, or the build fails.
func Build(tb testing.TB) string {
	tb.Helper()
	path, err := build()
	if err != nil {
		tb.Fatalf("hostiletest: %v", err)
	}
	return path
}

func build() (string, error) {
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	src := filepath.Join(root, "testdata", "hostile")
	sum, err := sourceHash(src)
	if err != nil {
		return "", err
	}
	name := "mcpwitness-hostile-" + sum[:16]
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	out := filepath.Join(os.TempDir(), name)

	buildMu.Lock()
	defer buildMu.Unlock()
	if fi, err := os.Stat(out); err == nil && fi.Mode().IsRegular() {
		return out, nil
	}

	// go build refuses to overwrite a file it did not write, so build into
	// a fresh directory next to the target and rename from there.
	dir, err := os.MkdirTemp(os.TempDir(), "mcpwitness-hostile-build-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	tmp := filepath.Join(dir, name)
	cmd := exec.Command(goCommand(), "build", "-o", tmp, "./testdata/hostile")
	cmd.Dir = root
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building testdata/hostile: %v\n%s", err, msg)
	}
	if err := os.Rename(tmp, out); err != nil {
		// Another process may hold out open (Windows); its copy is as good.
		if _, statErr := os.Stat(out); statErr == nil {
			return out, nil
		}
		return "", err
	}
	return out, nil
}

// moduleRoot walks up from the working directory to the directory holding
// go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod found above the working directory")
		}
		dir = parent
	}
}

// sourceHash hashes the Go version, the target platform and every .go file
// of the server (name and contents).
func sourceHash(src string) (string, error) {
	entries, err := os.ReadDir(src)
	if err != nil {
		return "", fmt.Errorf("hostile server source: %w", err)
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	names := []string{}
	for _, e := range entries {
		if e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".go") {
			names = append(names, e.Name())
		}
	}
	if len(names) == 0 {
		return "", fmt.Errorf("hostile server source: no .go files in %s: %w", src, fs.ErrNotExist)
	}
	slices.Sort(names)
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(src, n))
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %d\n", n, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// goCommand returns the go command of the running toolchain: go test puts
// GOROOT/bin first on PATH, and a test binary run by hand falls back to the
// GOROOT it was built with.
func goCommand() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	//lint:ignore SA1019 a fallback only, for a test binary run by hand on the machine that built it
	return filepath.Join(runtime.GOROOT(), "bin", "go")
}
