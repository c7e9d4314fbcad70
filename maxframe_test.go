package main

import (
	"strings"
	"testing"

	"mcpwitness/internal/hostiletest"
)

func TestParseSize(t *testing.T) {
	t.Parallel()
	good := map[string]int64{
		"64MiB": 64 << 20, "64mib": 64 << 20, "1MB": 1_000_000, "512k": 512 << 10, "512K": 512 << 10,
		"2KiB": 2048, "3kb": 3000, "1.5m": 3 << 19, "1048576": 1 << 20, "1g": 1 << 30, "2 MiB": 2 << 20, "4096b": 4096,
	}
	for in, want := range good {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for in, says := range map[string]string{
		"abc": "wants a size such as 64MiB", "10XB": "wants a size", "": "--max-frame needs a value", "-5MiB": "wants a size",
		"64": "less than 1 KiB", "0": "less than 1 KiB", "99999999999g": "more than any frame",
	} {
		code, _, errs := runSafe(t, "tools", "--max-frame", in)
		if code != exitUsage || !strings.Contains(errs, "--max-frame") || !strings.Contains(errs, says) {
			t.Errorf("--max-frame %q: exit %d, %q; want exit %d saying %q", in, code, errs, exitUsage, says)
		}
	}
}

// --max-frame reaches the session: a frame that never ends is cut at the
// limit given, and the error names that limit.
func TestMaxFrameFlagBoundsFrames(t *testing.T) {
	t.Parallel()
	code, _, errs := runSafe(t, "tools", "--max-frame", "1MiB", "--", hostiletest.Build(t), "-mode", hostiletest.ModeHugeFrame)
	if code != exitConnect {
		t.Errorf("exit %d, want %d", code, exitConnect)
	}
	if !strings.Contains(errs, "larger than 1 MiB") || !strings.Contains(errs, "--max-frame") {
		t.Errorf("the error does not name the 1 MiB limit:\n%s", errs)
	}
}

func TestHelpNamesOutputFlags(t *testing.T) {
	t.Parallel()
	_, out, _ := runSafe(t, "--help")
	assertSays(t, "--help", out, "--max-frame SIZE", "64MiB", "--version", `"error": {"code", "message",`, "docs/schemas/", "strict UTF-8 JSON", "␛[2J")
	_, out, _ = runSafe(t, "help", "check")
	if !strings.Contains(out, "unsafe-text") {
		t.Error("help check does not name the unsafe-text finding")
	}
}
