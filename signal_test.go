package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"mcpwitness/internal/hostiletest"
	"mcpwitness/session"
)

// A hangup (the terminal closed) ends a command as an interrupt does: the
// process exits on its own, not killed by the signal, with its record
// closed by the session's close. Killed by SIGHUP, the terminal UI left
// its export spool (hundreds of MB against a chatty server) in the temp
// directory.
func TestHangupEndsTheCommandCleanly(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "run.jsonl")
	cmd := exec.Command(testBinary(t), "tools", "--record", rec, "--", hostiletest.Build(t), "-mode", hostiletest.ModeHangList)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	until(t, "the tools/list request in the record", func() bool {
		f, err := session.OpenFile(rec)
		if err != nil {
			return false
		}
		defer f.Close()
		for ev, err := range f.Events() {
			if err == nil && ev.Kind == session.KindListRequest {
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
	f, err := session.OpenFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	last := ""
	for ev, err := range f.Events() {
		if err == nil && ev.Kind == session.KindClosed {
			last = ev.Text
		}
	}
	if !strings.Contains(last, "session closed") {
		t.Errorf("the record's last close is %q, want the session closed", last)
	}
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
