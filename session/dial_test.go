package session

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http/httptest"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"mcpwitness/demo"
	"mcpwitness/paging"
	"mcpwitness/record"
)

func dialErr(t *testing.T, target Target, timeout time.Duration) error {
	t.Helper()
	start := time.Now()
	// A server that ignores its closed stdin is signalled after a short
	// step: what is tested is the error, not how the server is stopped.
	p := quickPace()
	p.stop = 20 * time.Millisecond
	s, err := Dial(context.Background(), target, &Options{Timeout: timeout, pace: p})
	if err == nil {
		s.Close()
		t.Fatal("Dial succeeded")
	}
	// Generous for a busy machine; it still tells a timeout that holds from
	// one that does not.
	if took := time.Since(start); took > timeout+30*time.Second {
		t.Errorf("Dial took %v with a %v timeout", took, timeout)
	}
	return err
}

// refusingAddr is an address on 127.0.0.1 where a connection is refused for
// the whole test: a socket bound there but not listening holds the port, so
// no server another test starts can take it (a listener closed at once would
// free it for the next one).
func refusingAddr(t *testing.T) string {
	t.Helper()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Close(fd) })
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		t.Fatal(err)
	}
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(sa.(*syscall.SockaddrInet4).Port))
}

func TestDialFailuresSayWhatHappened(t *testing.T) {
	t.Parallel()
	deadURL := "http://" + refusingAddr(t) + "/mcp"

	tests := []struct {
		name   string
		target Target
		want   []string
	}{
		{"exits at once", hostile(t, "exit-at-once"), []string{"exited", "exit status 1", "missing API key"}},
		{"silent", Target{Command: []string{"sleep", "30"}}, []string{"no answer to the handshake within 1.5s", "silent"}},
		{"not found", Target{Command: []string{"/no/such/server"}}, []string{"program not found"}},
		{"nothing listening", Target{URL: deadURL}, []string{"connection refused"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := dialErr(t, tc.target, 1500*time.Millisecond)
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestBadProtocolVersionIsRefused(t *testing.T) {
	_, err := Dial(context.Background(), Target{URL: "http://127.0.0.1:1/mcp"}, &Options{Protocol: "1999-01-01"})
	if err == nil || !strings.Contains(err.Error(), "supported:") {
		t.Fatalf("err = %v, want the supported versions listed", err)
	}
}

func TestProtocolVersionIsNegotiated(t *testing.T) {
	t.Parallel()
	s := dial(t, Target{URL: demoHTTP(t)}, &Options{Protocol: "2025-06-18"})
	if got := s.Info().ProtocolVersion; got != "2025-06-18" {
		t.Errorf("negotiated %q, want 2025-06-18", got)
	}
	if s.Info().Name == "" {
		t.Error("no server name after the handshake")
	}
}

func TestGarbageOnStdoutIsRecordedNotFatal(t *testing.T) {
	t.Parallel()
	s := dial(t, hostile(t, "garbage"), nil)
	_, res := s.Walk(context.Background(), paging.Tools())
	if res.Incomplete != paging.Complete {
		t.Fatalf("walk: %q %v", res.Incomplete, res.Err)
	}
	invalid := 0
	for _, ev := range s.Log().Events() {
		if ev.Kind == record.KindWire && ev.Level == "invalid" {
			invalid++
		}
	}
	if invalid == 0 {
		t.Error("the lines that were not JSON are not in the log")
	}
}

func TestStderrFloodIsCapturedLineByLine(t *testing.T) {
	t.Parallel()
	s := dial(t, hostile(t, "flood-stderr", "-stderr-lines", "5000"), nil)
	walked(t, s)
	deadline := time.Now().Add(time.Minute)
	for {
		n := 0
		for _, ev := range s.Log().Events() {
			if ev.Kind == record.KindStderr {
				n++
			}
		}
		if n >= 5000 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d stderr lines captured, want 5000", n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A canary secret given by -e, -H or in the URL never reaches the record,
// even when the server echoes it back.
func TestSecretsNeverReachTheRecord(t *testing.T) {
	t.Parallel()
	const envCanary = "canary-env-5b1e7c"
	const headerCanary = "canary-header-9d2f4a"
	const passCanary = "canary-pass-31c8e0"
	const queryCanary = "canary-query-77ab12"

	check := func(t *testing.T, target Target, call func(*Session)) {
		var rec bytes.Buffer
		log := record.NewLog(&record.LogOptions{History: true})
		r, err := record.NewRecorder(&rec, record.NewHeader("test", target.Describe()), target.Secrets())
		if err != nil {
			t.Fatal(err)
		}
		log.AddSink(r.Write)
		s := dial(t, target, &Options{Log: log})
		call(s)
		s.Close()
		for _, c := range []string{envCanary, headerCanary, passCanary, queryCanary} {
			if bytes.Contains(rec.Bytes(), []byte(c)) {
				t.Errorf("canary %s is in the record", c)
			}
		}
		if !bytes.Contains(rec.Bytes(), []byte("[REDACTED:")) {
			t.Error("the record shows no placeholder")
		}
		lines := bytes.Split(bytes.TrimSpace(rec.Bytes()), []byte("\n"))
		for i, l := range lines {
			if !json.Valid(l) {
				t.Fatalf("line %d of the record is not JSON: %s", i+1, l)
			}
		}
	}

	t.Run("env", func(t *testing.T) {
		target := hostile(t, "env")
		target.Env = []string{"MCPW_CANARY_TOKEN=" + envCanary}
		check(t, target, func(s *Session) {
			walked(t, s)
			r := s.Call(context.Background(), "env", json.RawMessage(`{"name":"MCPW_CANARY_TOKEN"}`), nil)
			if !bytes.Contains(r.Result, []byte(envCanary)) {
				t.Fatalf("the server did not echo the canary: %s", r.Result)
			}
		})
	})
	t.Run("http", func(t *testing.T) {
		srv := httptest.NewServer(demo.Handler(nil))
		defer srv.Close()
		u := strings.Replace(srv.URL, "http://", "http://user:"+passCanary+"@", 1) + "/?key=" + queryCanary
		target := Target{URL: u, Headers: []string{"Authorization: Bearer " + headerCanary}}
		check(t, target, func(s *Session) { walked(t, s) })
	})
}
