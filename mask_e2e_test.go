package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mcpwitness/demo"
	"mcpwitness/internal/hostiletest"
)

// envServer is the hostile server in env mode, with the -e flags given
// before it: its tool "env" answers the value of the variable it is asked.
func envServer(t *testing.T, env ...string) []string {
	t.Helper()
	var args []string
	for _, kv := range env {
		args = append(args, "-e", kv)
	}
	return append(args, "--", hostiletest.Build(t), "-mode", hostiletest.ModeEnv)
}

// Values that are not secrets are ordinary data: every output stays valid
// JSON and shows them as the server sent them, booleans and tool names
// included.
func TestPlainValuesAreNotMasked(t *testing.T) {
	t.Parallel()
	server := envServer(t, "X=true", "DEBUG=true", "LOG_LEVEL=info", "NODE_ENV=production", "MYFLAG=tool", "TELEMETRY=false")
	record := filepath.Join(t.TempDir(), "plain.jsonl")
	for _, args := range [][]string{
		{"tools", "--json", "--record", record},
		{"call", "env", "name=NODE_ENV", "--json"},
		{"call", "env", "name=LOG_LEVEL", "--json"},
		{"call", "env", "name=X", "--ndjson"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			code, out, errs := runSafe(t, append(args, server...)...)
			if code != exitOK || out == "" {
				t.Fatalf("exit %d with %d bytes on stdout: %s", code, len(out), errs)
			}
			if strings.Contains(out, "REDACTED") {
				t.Errorf("a value that is no secret was masked:\n%s", out)
			}
			decodeLines(t, out)
			switch args[2] {
			case "name=NODE_ENV":
				assertSays(t, "call env", out, `"production"`)
			case "name=LOG_LEVEL":
				assertSays(t, "call env", out, `"info"`)
			}
		})
	}
	b, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	decodeLines(t, string(b))
	if strings.Contains(string(b), "REDACTED") {
		t.Errorf("the record masks values that are no secrets")
	}
	if code, _, errs := runSafe(t, "report", record); code != exitOK {
		t.Errorf("report of the record: exit %d: %s", code, errs)
	}
}

// A header that is no secret leaves an HTTP server's documents as they are.
func TestPlainHeaderIsNotMasked(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(demo.Handler(nil))
	defer srv.Close()
	code, out, errs := runSafe(t, "tools", "--json", "--url", srv.URL+demo.Endpoint, "-H", "X-Client: mcpwitness", "-H", "X-Debug: true")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if strings.Contains(out, "REDACTED") {
		t.Errorf("a header that is no secret was masked:\n%s", out)
	}
	decodeStrict(t, out)
}

// Secrets by name, by shape and by --secret are masked in every output the
// server's echo reaches, which stays valid; report reads the record.
func TestSecretsAreMaskedEverywhere(t *testing.T) {
	t.Parallel()
	const (
		ghp    = "ghp_0123456789abcdefghijABCDEFGHIJ012345"
		shaped = "ghp_9876543210zyxwvutsrqZYXWVUTSRQ987654"
		pass   = "pa55word-canary"
		marked = "marked-canary-value"
	)
	server := envServer(t, "GITHUB_TOKEN="+ghp, "FOO="+shaped, "DATABASE_URL=postgres://dbuser:"+pass+"@db.internal/app", "PLAIN_BUT_MARKED="+marked)
	server = append([]string{"--secret", "PLAIN_BUT_MARKED"}, server...)
	dir := t.TempDir()
	for i, name := range []string{"GITHUB_TOKEN", "FOO", "DATABASE_URL", "PLAIN_BUT_MARKED"} {
		record := filepath.Join(dir, name+".jsonl")
		for _, mode := range []string{"--json", "--ndjson", ""} {
			args := []string{"call", "env", "name=" + name}
			if mode != "" {
				args = append(args, mode)
			}
			if mode == "--json" {
				args = append(args, "--record", record)
			}
			code, out, errs := runSafe(t, append(args, server...)...)
			if code != exitOK {
				t.Fatalf("%s: exit %d: %s", args, code, errs)
			}
			for _, secret := range []string{ghp, shaped, pass, marked} {
				if strings.Contains(out, secret) || strings.Contains(errs, secret) {
					t.Errorf("%s shows the secret %s:\n%s", args, secret, out)
				}
			}
			if !strings.Contains(out, "[REDACTED:") {
				t.Errorf("%s shows no placeholder:\n%s", args, out)
			}
			if mode != "" {
				decodeLines(t, out)
			}
		}
		b, err := os.ReadFile(record)
		if err != nil {
			t.Fatal(err)
		}
		for _, secret := range []string{ghp, shaped, pass, marked} {
			if strings.Contains(string(b), secret) {
				t.Errorf("record %d holds the secret %s", i, secret)
			}
		}
		decodeLines(t, string(b))
		if name == "DATABASE_URL" && !strings.Contains(string(b), "db.internal/app") {
			t.Errorf("the record masks more of DATABASE_URL than its userinfo")
		}
		if code, _, errs := runSafe(t, "report", record); code != exitOK {
			t.Errorf("report %s: exit %d: %s", record, code, errs)
		}
	}
}

// echoServer is a stdio MCP server in sh whose name and only tool's name
// hold the value of $API_TOKEN, as a server that echoes its configuration
// does.
const echoServer = `while IFS= read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
  [ -z "$id" ] && continue
  case "$line" in
  *'"initialize"'*) printf '{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"srv %s","version":"1"}}}\n' "$id" "$API_TOKEN" ;;
  *'"tools/list"'*) printf '{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"bad name %s","inputSchema":{"type":"object"}}]}}\n' "$id" "$API_TOKEN" ;;
  *) printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"no"}}\n' "$id" ;;
  esac
done`

// check --junit masks what the server said in it: its name, and the
// findings quoting its tool's name.
func TestJUnitIsMasked(t *testing.T) {
	t.Parallel()
	const canary = "canary-junit-4e1a9c"
	junit := filepath.Join(t.TempDir(), "check.xml")
	code, out, errs := runSafe(t, "check", "--junit", junit, "-e", "API_TOKEN="+canary, "--", "sh", "-c", echoServer)
	if code != exitCheck {
		t.Fatalf("check of a server with a bad tool name: exit %d: %s%s", code, out, errs)
	}
	b, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), canary) || strings.Contains(out+errs, canary) {
		t.Errorf("the JUnit file or the output holds the secret:\n%s\n%s%s", b, out, errs)
	}
	if !strings.Contains(string(b), "[REDACTED:API_TOKEN:") {
		t.Errorf("the JUnit file does not show the placeholder:\n%s", b)
	}
}

// --secret wants a name.
func TestSecretFlagRejectsEmpty(t *testing.T) {
	t.Parallel()
	code, _, errs := runSafe(t, "tools", "--secret", "", "--", "true")
	if code != exitUsage || !strings.Contains(errs, "--secret") {
		t.Errorf("exit %d: %s", code, errs)
	}
}

// failingWriter fails every write, as a closed pipe does.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

// A document that cannot be written fails the command, saying why.
func TestFailedWriteFailsTheCommand(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"--json", "--ndjson"} {
		var errb strings.Builder
		code := run([]string{"--timeout", "20s", "tools", mode}, failingWriter{}, &errb)
		if code == exitOK || !strings.Contains(errb.String(), "broken pipe") {
			t.Errorf("%s to a broken stdout: exit %d, stderr %q", mode, code, errb.String())
		}
	}
}

// decodeLines decodes each line of out as one JSON value (a document may
// span lines: then out is one value).
func decodeLines(t *testing.T, out string) {
	t.Helper()
	var v any
	if json.Unmarshal([]byte(out), &v) == nil {
		return
	}
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for n := 1; sc.Scan(); n++ {
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("line %d is not JSON (%v): %s", n, err, sc.Text())
		}
	}
}
