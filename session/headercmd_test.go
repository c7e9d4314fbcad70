package session

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"mcpwitness/demo"
	"mcpwitness/record"
)

// digestChecker serves the demo server and refuses every request whose
// X-Body-Digest header is not the SHA-256 of its body or that lacks the
// vended credential. It counts the requests it saw.
type digestChecker struct {
	mu       sync.Mutex
	requests int
	bad      []string
}

func (d *digestChecker) serve(t *testing.T) string {
	t.Helper()
	next := demo.Handler(nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		sum := sha256.Sum256(body)
		d.mu.Lock()
		d.requests++
		if got := r.Header.Get("X-Body-Digest"); got != hex.EncodeToString(sum[:]) {
			d.bad = append(d.bad, r.Method+" digest "+got)
		}
		if !strings.HasPrefix(r.Header.Get("Authorization"), "Bearer vended-") {
			d.bad = append(d.bad, r.Method+" without the vended credential")
		}
		d.mu.Unlock()
		next.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestHeaderCmdOncePerRequestWithTheBodyDigest(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	calls := filepath.Join(dir, "calls")
	// The command digests stdin itself and checks it against the
	// environment's digest, so both are proven.
	cmd := `d=$(sha256sum | cut -d' ' -f1); [ "$d" = "$MCPWITNESS_BODY_SHA256" ] || exit 9; ` +
		`echo "$MCPWITNESS_METHOD $MCPWITNESS_URL" >> '` + calls + `'; ` +
		`echo "X-Body-Digest: $d"; echo "Authorization: Bearer vended-$d"`
	d := &digestChecker{}
	url := d.serve(t)
	log := record.NewLog(&record.LogOptions{History: true})
	s := dial(t, Target{URL: url, HeaderCmd: cmd, Headers: []string{"X-Body-Digest: overridden"}}, &Options{Log: log})
	if r := s.Ping(context.Background()); r.Err != nil {
		t.Fatal(r.Err)
	}
	s.Close()
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.bad) > 0 {
		t.Errorf("the server refused: %v", d.bad)
	}
	raw, err := os.ReadFile(calls)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(raw), "\n"); n != d.requests {
		t.Errorf("--header-cmd ran %d times for %d requests:\n%s", n, d.requests, raw)
	}
	var vended int
	for _, ev := range log.Events() {
		b, _ := json.Marshal(ev)
		if strings.Contains(string(b), "vended-") {
			t.Errorf("event holds a vended value: %s", b)
		}
		if ev.Kind == record.KindHTTP && ev.HTTP.Step == record.HTTPVended {
			vended++
			if strings.Join(ev.HTTP.Vended, ",") != "Authorization,X-Body-Digest" {
				t.Errorf("vended names = %v", ev.HTTP.Vended)
			}
		}
	}
	if vended != d.requests {
		t.Errorf("%d vended events for %d requests", vended, d.requests)
	}
}

func TestHeaderCmdFailureFailsTheRequestWithItsStderr(t *testing.T) {
	t.Parallel()
	url := demoHTTP(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := Dial(ctx, Target{URL: url, HeaderCmd: `echo "token expired; run login" >&2; echo "Authorization: Bearer secret-value"; exit 3`}, &Options{Timeout: 10 * time.Second})
	if err == nil {
		s.Close()
		t.Fatal("Dial succeeded with a failing --header-cmd")
	}
	for _, want := range []string{"--header-cmd failed", "exit status 3", "token expired; run login"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "secret-value") {
		t.Errorf("error %q holds the command's output", err)
	}
}

func TestHeaderCmdBadLineIsNotQuoted(t *testing.T) {
	t.Parallel()
	url := demoHTTP(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := Dial(ctx, Target{URL: url, HeaderCmd: `echo "hunter2-no-colon"`}, &Options{Timeout: 10 * time.Second})
	if err == nil {
		s.Close()
		t.Fatal("Dial succeeded")
	}
	if !strings.Contains(err.Error(), "line 1 of its output is not 'Name: value'") || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("error %q: want the bad line named, not quoted", err)
	}
}

func TestHeaderCmdTooSlowFailsWithinItsBound(t *testing.T) {
	req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:1/mcp", nil)
	start := time.Now()
	_, err := vendHeaders(context.Background(), `echo "still thinking" >&2; sleep 30`, req, []byte("{}"), "http://127.0.0.1:1/mcp", 300*time.Millisecond, nil)
	if err == nil {
		t.Fatal("a command that never answers vended headers")
	}
	if !strings.Contains(err.Error(), "no answer within 300ms") || !strings.Contains(err.Error(), "still thinking") {
		t.Errorf("error %q: want the bound and the command's stderr", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("failing took %s", d)
	}
}

// A command that never answers costs its bound once per session, not once
// per request: the handshake's second request (initialize after
// server/discover on 2026-07-28) fails at once, without running it again.
func TestHeaderCmdTooSlowRunsOnce(t *testing.T) {
	t.Parallel()
	url := demoHTTP(t)
	runs := filepath.Join(t.TempDir(), "runs")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := Dial(ctx, Target{URL: url, HeaderCmd: `echo run >> '` + runs + `'; sleep 30`},
		&Options{Timeout: 10 * time.Second, Protocol: "2026-07-28", headerCmdLimit: 200 * time.Millisecond})
	if err == nil {
		s.Close()
		t.Fatal("Dial succeeded with a --header-cmd that never answers")
	}
	if !strings.Contains(err.Error(), "no answer within 200ms") {
		t.Errorf("error %q does not name the bound", err)
	}
	b, _ := os.ReadFile(runs)
	if n := strings.Count(string(b), "run"); n != 1 {
		t.Errorf("the command ran %d times, want once", n)
	}
}
