package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"mcpwitness/internal/hostiletest"
)

// decodeStrict decodes out as exactly one JSON object that a strict reader
// (jq, Python with strict UTF-8) accepts: valid UTF-8, no lone surrogate
// escapes, nothing after the document.
func decodeStrict(t *testing.T, out string) map[string]any {
	t.Helper()
	if !utf8.ValidString(out) {
		i := 0
		for i < len(out) {
			r, n := utf8.DecodeRuneInString(out[i:])
			if r == utf8.RuneError && n == 1 {
				break
			}
			i += n
		}
		t.Fatalf("the output is not valid UTF-8 (byte %d): %q", i, out[max(0, i-40):min(len(out), i+40)])
	}
	if lone := loneSurrogate(out); lone != "" {
		t.Fatalf("the output holds the lone surrogate escape %s", lone)
	}
	dec := json.NewDecoder(strings.NewReader(out))
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("not a JSON document: %v\n%.2000s", err, out)
	}
	if dec.More() {
		t.Fatalf("more than one JSON document:\n%.2000s", out)
	}
	return doc
}

// loneSurrogate returns the first \uD800–\uDFFF escape of JSON text s that
// is not half of a pair.
func loneSurrogate(s string) string {
	for i := 0; i+6 <= len(s); i++ {
		if s[i] != '\\' {
			continue
		}
		if s[i+1] != 'u' {
			i++ // an escaped character, perhaps a backslash
			continue
		}
		r := hexRune(s[i+2 : i+6])
		switch {
		case r >= 0xd800 && r < 0xdc00:
			if i+12 <= len(s) && s[i+6:i+8] == `\u` {
				if lo := hexRune(s[i+8 : i+12]); lo >= 0xdc00 && lo < 0xe000 {
					i += 11
					continue
				}
			}
			return s[i : i+6]
		case r >= 0xdc00 && r < 0xe000:
			return s[i : i+6]
		}
		i += 5
	}
	return ""
}

func hexRune(h string) rune {
	var r rune
	for _, c := range h {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | (c - '0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | (c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | (c - 'A' + 10)
		default:
			return -1
		}
	}
	return r
}

func TestJSONIsStrictUTF8(t *testing.T) {
	t.Parallel()
	evil := evilServer(t)
	for _, args := range [][]string{
		{"tools", "--json"},
		{"check", "--json"},
		{"call", evilTool, "--json"},
		{"call", "evil_rpc", "--json"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			_, out, errs := runSafe(t, append(args, evil...)...)
			doc := decodeStrict(t, out)
			if len(doc) == 0 {
				t.Fatalf("an empty document; stderr: %s", errs)
			}
		})
	}
	// Every line of --ndjson is one such document, raw frames included.
	_, out, _ := runSafe(t, append([]string{"tools", "--ndjson"}, evil...)...)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) < 5 {
		t.Fatalf("only %d events", len(lines))
	}
	for _, line := range lines {
		decodeStrict(t, line)
	}
	// The document still says what the server sent, as far as it can be
	// said: the invalid byte and the lone surrogate as U+FFFD.
	_, out, _ = runSafe(t, append([]string{"tools", "--json"}, evil...)...)
	var doc struct{ Tools []struct{ Name string } }
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, tool := range doc.Tools {
		names[tool.Name] = true
	}
	for _, want := range []string{"evil_6\rOVERWRITE", "evil_10bad\uFFFDutf8", "evil_11lone\uFFFDsurrogate", "evil_8\u202eevil\u202c"} {
		if !names[want] {
			t.Errorf("no tool named %q in %v", want, names)
		}
	}
}

// A command with --json that fails still prints one JSON document: the
// error and the exit code.
func TestJSONErrorDocument(t *testing.T) {
	t.Parallel()
	missing := []string{"--", "/nonexistent/mcp-server"}
	tests := []struct {
		args []string
		code int
		says string
	}{
		{append([]string{"tools", "--json"}, missing...), exitConnect, "/nonexistent/mcp-server"},
		{append([]string{"call", "x", "--json"}, missing...), exitConnect, "/nonexistent/mcp-server"},
		{append([]string{"check", "--json"}, missing...), exitConnect, "/nonexistent/mcp-server"},
		{[]string{"tools", "--json", "--max-pages", "0"}, exitUsage, "--max-pages"},
		{[]string{"tools", "--json", "--", "sh", "-c", "echo 'cannot start: \x1b[2J' >&2; exit 1"}, exitConnect, "cannot start"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, out, errs := runSafe(t, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d", code, tc.code)
			}
			doc := decodeStrict(t, out)
			e, _ := doc["error"].(map[string]any)
			msg, _ := e["message"].(string)
			if !strings.Contains(msg, tc.says) || e["exitCode"] != float64(tc.code) {
				t.Errorf("error document %s, want a message naming %q and exitCode %d", out, tc.says, tc.code)
			}
			if errs == "" {
				t.Error("nothing on stderr")
			}
			assertSafe(t, "stdout", out)
		})
	}
}

// A secret given with -e that the server echoes back is redacted in the
// JSON documents and the human output, as in --ndjson and the record.
func TestEchoedSecretsAreRedacted(t *testing.T) {
	t.Parallel()
	const canary = "canary-secret-6d1f"
	server := []string{"-e", "API_TOKEN=" + canary, "--", hostiletest.Build(t), "-mode", hostiletest.ModeEnv}
	for _, args := range [][]string{
		{"call", "env", "name=API_TOKEN", "--json"},
		{"call", "env", "name=API_TOKEN"},
		{"call", "env", "name=API_TOKEN", "--ndjson"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			code, out, errs := runSafe(t, append(args, server...)...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, errs)
			}
			if strings.Contains(out, canary) || strings.Contains(errs, canary) {
				t.Errorf("the output shows the secret:\n%s", out)
			}
			if !strings.Contains(out, "[REDACTED:API_TOKEN:") {
				t.Errorf("the output does not show the placeholder:\n%s", out)
			}
			if args[len(args)-1] == "--json" {
				decodeStrict(t, out)
			}
		})
	}
}

func TestCleanJSONKeepsOrderAndMeaning(t *testing.T) {
	t.Parallel()
	in := "{\"z\":1,\"a\":[true,null,-1.5e3,\"x\\u001b\\u009b\u202e\u200b\xff\\ud800 \\ud83d\\ude00 <&>\"],\"m\":{}}"
	out, err := cleanJSON([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"z":1,"a":[true,null,-1.5e3,"x\u001b\u009b\u202e\u200b` + "\uFFFD\uFFFD 😀" + ` \u003c\u0026\u003e"],"m":{}}`
	if string(out) != want {
		t.Errorf("cleanJSON:\n got %s\nwant %s", out, want)
	}
	var a, b any
	if json.Unmarshal(out, &a) != nil || json.Unmarshal([]byte(in), &b) != nil {
		t.Fatal("does not decode")
	}
	if ab, _ := json.Marshal(a); !bytes.Equal(ab, mustMarshal(b)) {
		t.Errorf("the meaning changed: %s vs %s", ab, mustMarshal(b))
	}
}

func mustMarshal(v any) []byte { b, _ := json.Marshal(v); return b }
