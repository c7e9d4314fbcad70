package session

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"mcpwitness/internal/hostiletest"
	"mcpwitness/paging"
	"mcpwitness/record"
)

// recorded dials target with a log whose record is written to the returned
// buffer.
func recorded(t *testing.T, target Target, opts *Options) (*Session, *bytes.Buffer) {
	t.Helper()
	var rec bytes.Buffer
	log := record.NewLog(&record.LogOptions{History: true})
	r, err := record.NewRecorder(&rec, record.NewHeader("test", target.Describe()), target.Secrets())
	if err != nil {
		t.Fatal(err)
	}
	log.AddSink(r.Write)
	if opts == nil {
		opts = &Options{}
	}
	opts.Log = log
	return dial(t, target, opts), &rec
}

// readable fails t unless every line of rec is JSON.
func readable(t *testing.T, rec []byte) {
	t.Helper()
	for i, l := range bytes.Split(bytes.TrimSpace(rec), []byte("\n")) {
		if !json.Valid(l) {
			t.Fatalf("line %d of the record is not JSON: %.200s", i+1, l)
		}
	}
}

// hasEvent reports whether the log holds an event of kind whose text
// contains text.
func hasEvent(l *record.Log, kind record.Kind, text string) bool {
	for _, ev := range l.Events() {
		if ev.Kind == kind && strings.Contains(ev.Text, text) {
			return true
		}
	}
	return false
}

// A frame with no newline ends the connection at the limit, with an error
// naming the limit; what came before stays in the log and the record.
func TestStdioFrameOverTheLimitEndsTheConnection(t *testing.T) {
	t.Parallel()
	s, rec := recorded(t, hostile(t, hostiletest.ModeHugeFrame), &Options{MaxFrame: 1 << 20})
	_, res := s.Walk(context.Background(), paging.Tools())
	if res.Err == nil {
		t.Fatal("the walk of an endless frame succeeded")
	}
	const want = "the server sent a frame larger than 1 MiB (--max-frame raises the limit); the connection was closed"
	if !strings.Contains(res.Err.Error(), want) {
		t.Errorf("walk error %q does not contain %q", res.Err, want)
	}
	if !hasEvent(s.Log(), record.KindError, want) {
		t.Error("no error event names the limit")
	}
	s.Close()
	if !bytes.Contains(rec.Bytes(), []byte("a big frame follows")) {
		t.Error("the notification sent before the big frame is not in the record")
	}
	readable(t, rec.Bytes())
}

func TestDefaultMaxFrameIs64MiB(t *testing.T) {
	t.Parallel()
	if got := newFrameLimit(0, record.NewLog(nil)).max; got != 64<<20 || DefaultMaxFrame != 64<<20 {
		t.Errorf("default limit %d, DefaultMaxFrame %d", got, DefaultMaxFrame)
	}
	err := &FrameTooLargeError{What: "HTTP body", Size: 400 << 20, Limit: DefaultMaxFrame}
	if want := "the server sent an HTTP body of 400 MiB, over the 64 MiB limit"; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("%q does not start with %q", err, want)
	}
}

// A stderr line of 3 MiB is cut in its event, and stderr is drained on:
// the server keeps writing to it and keeps working.
func TestLongStderrLineIsTruncatedAndStderrKeepsDraining(t *testing.T) {
	t.Parallel()
	s := dial(t, hostile(t, hostiletest.ModeHugeStderrLine), nil)
	walked(t, s)
	waitFor(t, "the stderr line written after the walk", func() bool {
		return hasEvent(s.Log(), record.KindStderr, "recv tools/list")
	})
	var long string
	for _, ev := range s.Log().Events() {
		if ev.Kind == record.KindStderr && strings.HasPrefix(ev.Text, "long line: ") {
			long = ev.Text
		}
	}
	if !strings.HasSuffix(long, "… [truncated: 3.0 MiB line]") || len(long) > stderrLineMax+100 {
		t.Errorf("the long line's event holds %d bytes ending %q", len(long), long[max(0, len(long)-60):])
	}
	if !hasEvent(s.Log(), record.KindStderr, "after the long line") {
		t.Error("the line after the long one is missing")
	}
}

// waitFor polls cond until it holds, failing t after 10s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A crash's error quotes the line that says what went wrong, not only the
// last lines of the stack.
func TestCrashQuotesTheCauseLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		mode string
		want []string
	}{
		{hostiletest.ModePanicDeep, []string{"panic: crashing on purpose", "exit status 2", "main.main()"}},
		{hostiletest.ModeNodeMissingModule, []string{"Error: Cannot find module './missing'", "Node.js v20.11.1", "exit status 1"}},
	}
	for _, tc := range tests {
		t.Run(tc.mode, func(t *testing.T) {
			err := dialErr(t, hostile(t, tc.mode), 10*time.Second)
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error does not contain %q:\n%v", w, err)
				}
			}
			if n := strings.Count(err.Error(), "\n"); n > stderrTail+3 {
				t.Errorf("the error quotes %d lines:\n%v", n, err)
			}
		})
	}
}

// When mcpwitness gives up on a server, the error says why first; that the
// server then exited (because its stdin was closed) comes second.
func TestErrorsSayTheCauseBeforeTheExit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		mode    string
		timeout time.Duration
		cause   string
	}{
		{hostiletest.ModeHangInit, 1500 * time.Millisecond, "no answer to the handshake within 1.5s"},
		{hostiletest.ModeBadVersion, 10 * time.Second, `the server answered protocol version "1999-01-01", which mcpwitness did not ask for`},
		{hostiletest.ModeBadInitFrame, 10 * time.Second, `the server sent a frame that is not valid JSON-RPC`},
	}
	for _, tc := range tests {
		t.Run(tc.mode, func(t *testing.T) {
			err := dialErr(t, hostile(t, tc.mode), tc.timeout).Error()
			prefix := "connecting to " + hostile(t, tc.mode).Describe().String() + ": "
			if !strings.HasPrefix(err, prefix) {
				t.Fatalf("error %q does not start with %q", err, prefix)
			}
			rest := strings.TrimPrefix(err, prefix)
			if strings.HasPrefix(rest, "the server exited") || !strings.Contains(rest, tc.cause) {
				t.Errorf("error does not start with the cause %q:\n%s", tc.cause, err)
			}
			if i, j := strings.Index(rest, tc.cause), strings.Index(rest, "exited"); j >= 0 && j < i {
				t.Errorf("the exit comes before the cause:\n%s", err)
			}
		})
	}
}

// closeQuickly closes s, failing t if that takes longer than limit, and
// waits for every goroutine started since before to end.
// closeAndCount closes s and waits for every goroutine it started to end.
// Close has no timed bound here: what it must not wait for is shown by the
// state of the processes after it returns.
func closeAndCount(t *testing.T, s *Session, before int) {
	t.Helper()
	s.Close()
	s.Log().Close()
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			n := runtime.Stack(buf, true)
			t.Fatalf("%d goroutines before, %d after close:\n%s", before, runtime.NumGoroutine(), ours(string(buf[:n])))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A detached grandchild holding stdout and stderr does not keep Close
// waiting: it holds them for 20s, and is still running when Close returns.
func TestCloseDoesNotWaitForADetachedGrandchild(t *testing.T) {
	target := hostile(t, hostiletest.ModeDetach)
	before := runtime.NumGoroutine()
	s, err := Dial(context.Background(), target, &Options{Timeout: 10 * time.Second, Log: record.NewLog(&record.LogOptions{History: true})})
	if err != nil {
		t.Fatal(err)
	}
	walked(t, s)
	pid := 0
	for deadline := time.Now().Add(10 * time.Second); pid == 0; time.Sleep(10 * time.Millisecond) {
		for _, ev := range s.Log().Events() {
			if ev.Kind == record.KindStderr {
				if _, err := fmt.Sscanf(ev.Text, "grandchild %d started", &pid); err == nil {
					break
				}
			}
		}
		if pid == 0 && time.Now().After(deadline) {
			t.Fatal("the server did not say which grandchild it started")
		}
	}
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	closeAndCount(t, s, before)
	if err := syscall.Kill(pid, 0); err != nil {
		t.Fatalf("the grandchild %d is gone (%v): Close waited for it to let go of the pipes", pid, err)
	}
}

// A server that exits when its stdin closes is left to do so: Close waits
// for its exit, not for a step of the stop (it is never signalled), and
// leaves nothing behind.
func TestCloseLetsAServerEndOnEOF(t *testing.T) {
	target := hostile(t, hostiletest.ModeNormal)
	before := runtime.NumGoroutine()
	s, err := Dial(context.Background(), target, &Options{Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	walked(t, s)
	closeAndCount(t, s, before)
	if got := s.child.exitText(); got != "exit status 0" {
		t.Fatalf("the server ended with %q; want exit status 0, on its own at stdin's EOF", got)
	}
}

// A server that ignores stdin EOF and SIGTERM is killed, and Close leaves
// nothing behind.
func TestCloseStopsAServerThatIgnoresSIGTERM(t *testing.T) {
	target := hostile(t, hostiletest.ModeIgnoreTerm)
	before := runtime.NumGoroutine()
	s, err := Dial(context.Background(), target, &Options{Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	walked(t, s)
	closeAndCount(t, s, before)
	if got := s.child.exitText(); got != "signal: killed" {
		t.Fatalf("the server ended with %q; want it killed (it ignores stdin EOF and SIGTERM)", got)
	}
}

func TestCauseLines(t *testing.T) {
	t.Parallel()
	causes := []string{
		"panic: crashing on purpose",
		"fatal error: all goroutines are asleep - deadlock!",
		"Error: Cannot find module './missing'",
		"thread 'main' panicked at src/main.rs:2:5:",
		"Traceback (most recent call last):",
		"ModuleNotFoundError: No module named 'mcp'",
		`Exception in thread "main" java.lang.NullPointerException`,
		"ERROR failed to bind port 8080",
		"fatal: crashing on purpose",
	}
	for _, c := range causes {
		if !causeLine().MatchString(c) {
			t.Errorf("%q is not taken for a cause", c)
		}
	}
	others := []string{
		"    at Module._load (node:internal/modules/cjs/loader:985:27)",
		"goroutine 1 [running]:",
		"  throw err;",
		"Node.js v20.11.1",
		"listening on stderr for errors", // "errors" is not "error"
		"main.deep(...)",
	}
	for _, o := range others {
		if causeLine().MatchString(o) {
			t.Errorf("%q is taken for a cause", o)
		}
	}
}
