package main

import (
	"bytes"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"mcpwitness/internal/hostiletest"
	"mcpwitness/record"
	"mcpwitness/sanitize"
	"mcpwitness/session"
)

// The evil-strings server puts screen clears, clipboard writes, window
// titles, links, C1 controls, carriage returns, backspaces, bidi overrides,
// zero-width characters, invalid UTF-8 and lone surrogates into every
// string it sends. None of it may reach a terminal raw, whatever the output.

// runSafe runs mcpwitness with args and returns what it wrote.
func runSafe(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(withTimeout("20s", args), &out, &errb)
	return code, out.String(), errb.String()
}

// unsafeAt returns a description of the first character of s that a
// terminal would act on or that hides what text says: ESC, any C0 control
// but newline and tab (CR included), DEL, a C1 control, a bidi control, a
// zero-width character, or a byte that is not UTF-8. It returns "" when
// there is none.
func unsafeAt(s string) string {
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			return "invalid UTF-8 at byte " + strconv.Itoa(i)
		case r == '\n' || r == '\t':
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
			return "control " + sanitize.Line(string(r)) + " at byte " + strconv.Itoa(i)
		case sanitize.Invisible(r):
			return "invisible " + sanitize.Line(string(r)) + " at byte " + strconv.Itoa(i)
		}
	}
	return ""
}

func assertSafe(t *testing.T, what, out string) {
	t.Helper()
	if where := unsafeAt(out); where != "" {
		t.Errorf("%s holds a raw %s:\n%s", what, where, sanitize.Text(out))
	}
}

func evilServer(t *testing.T) []string {
	return []string{"--", hostiletest.Build(t), "-mode", hostiletest.ModeEvilStrings}
}

// evilTool is the name of the evil-strings tool whose name ends in a
// carriage return and "OVERWRITE".
const evilTool = "evil_6\rOVERWRITE"

func TestServerStringsNeverReachTheTerminalRaw(t *testing.T) {
	t.Parallel()
	evil := evilServer(t)
	dir := t.TempDir()
	cases := []struct {
		name string
		args []string
	}{
		{"tools", []string{"tools"}},
		{"tools --json", []string{"tools", "--json"}},
		{"tools --ndjson", []string{"tools", "--ndjson"}},
		{"check", []string{"check"}},
		{"check --json", []string{"check", "--json"}},
		{"call result", []string{"call", evilTool, "x=1", "--record", filepath.Join(dir, "call.jsonl")}},
		{"call --json", []string{"call", evilTool, "--json"}},
		{"call isError", []string{"call", "evil_error", "--record", filepath.Join(dir, "error.jsonl")}},
		{"call JSON-RPC error", []string{"call", "evil_rpc", "--record", filepath.Join(dir, "rpc.jsonl")}},
		{"call unlisted", []string{"call", "evil_0\x1b[2J", "--force"}},
		{"call not found", []string{"call", "evil_0\x1b[2J", "--json"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runSafe(t, append(tc.args, evil...)...)
			// Only the name no page listed is a usage error (not-found),
			// whose error document is the output.
			if (code == exitUsage) != (tc.name == "call not found") || out == "" {
				t.Fatalf("exit %d and no output: %s", code, sanitize.Text(errs))
			}
			assertSafe(t, "stdout", out)
			assertSafe(t, "stderr", errs)
		})
	}

	// A carriage return in a name must not let the rest of the name
	// overwrite the start of its row: the row shows it escaped.
	_, out, _ := runSafe(t, append([]string{"tools"}, evil...)...)
	if !strings.Contains(out, `evil_6\rOVERWRITE `) {
		t.Errorf("the tools row of %q does not show its carriage return:\n%s", evilTool, out)
	}

	// report and diff read what the server said from the files.
	for _, f := range []string{"call.jsonl", "error.jsonl", "rpc.jsonl"} {
		code, out, errs := runSafe(t, "report", filepath.Join(dir, f))
		if code != exitOK {
			t.Fatalf("report %s: exit %d: %s", f, code, errs)
		}
		assertSafe(t, "report "+f, out)
		assertSafe(t, "report "+f+" stderr", errs)
	}
	normal := filepath.Join(dir, "normal.jsonl")
	if code, _, errs := runSafe(t, "tools", "--record", normal, "--", hostiletest.Build(t), "-mode", hostiletest.ModeNormal); code != exitOK {
		t.Fatalf("recording the normal server: exit %d: %s", code, errs)
	}
	for _, json := range []bool{false, true} {
		args := []string{"diff", normal, filepath.Join(dir, "call.jsonl")}
		if json {
			args = append(args, "--json")
		}
		code, out, errs := runSafe(t, args...)
		if code != exitCheck {
			t.Fatalf("diff: exit %d, want %d: %s", code, exitCheck, errs)
		}
		assertSafe(t, strings.Join(args, " "), out)
		if !strings.Contains(out, "evil_6") {
			t.Errorf("diff does not name the evil tools:\n%s", out)
		}
	}
}

// An error that quotes what a crashing server wrote to stderr shows it
// escaped, and so does its --json error document.
func TestErrorsQuotingServerStderrAreSafe(t *testing.T) {
	t.Parallel()
	script := `printf 'fatal \033[2J\033]52;c;ZXZpbA==\007 \033]0;title\007 \302\233 31m \342\200\256 evil \342\200\213 \r over \b \377 end\n' >&2; exit 3`
	for _, json := range []bool{false, true} {
		args := []string{"tools"}
		if json {
			args = append(args, "--json")
		}
		code, out, errs := runSafe(t, append(args, "--", "sh", "-c", script)...)
		if code != exitConnect {
			t.Fatalf("exit %d, want %d: %s", code, exitConnect, errs)
		}
		if !strings.Contains(errs, "fatal ␛[2J") {
			t.Errorf("the error does not quote the server's stderr, escaped:\n%s", sanitize.Text(errs))
		}
		assertSafe(t, "stderr", errs)
		assertSafe(t, "stdout", out)
	}
}

// The progress line on a terminal shows what the server sends in progress
// notifications escaped; only its own line rewriting reaches the terminal.
func TestProgressLineIsSafe(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	sink := progressSink(&b, nil)
	evil := "step \x1b]52;c;ZXZpbA==\x07 \r\u202e done \u009b2J"
	sink(record.Event{Kind: record.KindCall, Call: &record.CallInfo{ID: 1, Tool: "t\x1b[2J", State: "start"}})
	sink(record.Event{Kind: record.KindProgress, Progress: &record.ProgressInfo{CallID: 1, Progress: 1, Total: 2, Message: evil}})
	sink(record.Event{Kind: record.KindCall, Call: &record.CallInfo{ID: 1, Tool: "t\x1b[2J", State: "done"}})
	out := strings.ReplaceAll(b.String(), "\r\x1b[K", "\n")
	assertSafe(t, "the progress line", out)
	if !strings.Contains(out, `progress 1/2 · step ␛]52;c;ZXZpbA==\a \r\u202e done \x9b2J`) {
		t.Errorf("the progress message is not shown escaped:\n%q", out)
	}
}

// A secret a server echoes in a progress message does not reach the
// progress line.
func TestProgressLineIsRedacted(t *testing.T) {
	t.Parallel()
	red := session.Target{Command: []string{"srv"}, Env: []string{"API_KEY=canary-progress-91"}}.Secrets()
	var b bytes.Buffer
	sink := progressSink(&b, red)
	sink(record.Event{Kind: record.KindProgress, Progress: &record.ProgressInfo{CallID: 1, Progress: 1, Message: "using canary-progress-91"}})
	if out := b.String(); strings.Contains(out, "canary-progress-91") || !strings.Contains(out, "[REDACTED:API_KEY:sha256=") {
		t.Errorf("the progress line shows %q", out)
	}
}

// assertSays checks that out, which is what, says each of wants.
func assertSays(t *testing.T, what, out string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(out, want) {
			t.Errorf("%s does not say %q:\n%s", what, want, out)
		}
	}
}
