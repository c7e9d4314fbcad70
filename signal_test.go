package main

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"mcpwitness/internal/hostiletest"
	"mcpwitness/record"
)

// A hangup (the terminal closed) ends a command as an interrupt does: the
// process exits on its own, not killed by the signal, with its record
// closed by the session's close. Killed by SIGHUP, the terminal UI left
// its export spool (hundreds of MB against a chatty server) in the temp
// directory.
func TestHangupEndsTheCommandCleanly(t *testing.T) {
	t.Parallel()
	endToEnd(t)
	rec := filepath.Join(t.TempDir(), "run.jsonl")
	cmd := exec.Command(testBinary(t), "tools", "--record", rec, "--", hostiletest.Build(t), "-mode", hostiletest.ModeHangList)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	until(t, "the tools/list request in the record", func() bool {
		f, err := record.OpenFile(rec)
		if err != nil {
			return false
		}
		defer f.Close()
		for ev, err := range f.Events() {
			if err == nil && ev.Kind == record.KindListRequest {
				return true
			}
		}
		return false
	})
	if err := cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("the command did not end within 20s of SIGHUP")
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		t.Fatalf("the command was killed by %v instead of ending on its own", ws.Signal())
	}
	f, err := record.OpenFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	last := ""
	for ev, err := range f.Events() {
		if err == nil && ev.Kind == record.KindClosed {
			last = ev.Text
		}
	}
	if !strings.Contains(last, "session closed") {
		t.Errorf("the record's last close is %q, want the session closed", last)
	}
}

// SIGINT ends a headless command with exit 130, and its --ndjson stream
// and its record end with an event saying it was interrupted, after every
// event that came before.
func TestInterruptExits130WithTheStreamComplete(t *testing.T) {
	t.Parallel()
	endToEnd(t)
	rec := filepath.Join(t.TempDir(), "run.jsonl")
	cmd := exec.Command(testBinary(t), "tools", "--ndjson", "--record", rec, "--", hostiletest.Build(t), "-mode", hostiletest.ModeHangList)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	until(t, "the tools/list request in the record", func() bool { return recordHas(rec, record.KindListRequest) })
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("the command did not end within 20s of SIGINT")
	}
	if code := cmd.ProcessState.ExitCode(); code != 130 {
		t.Errorf("exit %d, want 130\n%s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "interrupted by SIGINT") {
		t.Errorf("stderr does not say it was interrupted:\n%s", stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	var last struct{ Kind, Text string }
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil || last.Kind != string(record.KindInterrupted) ||
		!strings.Contains(last.Text, "SIGINT") || !strings.Contains(stdout.String(), `"kind":"list-request"`) {
		t.Errorf("--ndjson's last event is %+v (%v), want interrupted by SIGINT after the rest:\n%s", last, err, stdout.String())
	}
	f, err := record.OpenFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var kind record.Kind
	for ev, err := range f.Events() {
		if err == nil {
			kind = ev.Kind
		}
	}
	if kind != record.KindInterrupted {
		t.Errorf("the record's last event is %q, want %q", kind, record.KindInterrupted)
	}
	// report says it among the errors, not as a kind it does not know.
	code, out, _ := runCLI(t, "report", rec)
	if code != exitOK || !strings.Contains(out, "interrupted by SIGINT") || strings.Contains(out, "does not know") {
		t.Errorf("report: exit %d\n%s", code, out)
	}
}

// recordHas reports whether the record at path has an event of kind.
func recordHas(path string, kind record.Kind) bool {
	f, err := record.OpenFile(path)
	if err != nil {
		return false
	}
	defer f.Close()
	for ev, err := range f.Events() {
		if err == nil && ev.Kind == kind {
			return true
		}
	}
	return false
}

// until polls cond until it holds, failing t after 20s.
func until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
