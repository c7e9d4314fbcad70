package session_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"mcpwitness/session"
)

// A program that does not exist is said to be missing, with where its
// command came from: after -- or from a config file's entry.
func TestDialMissingProgram(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := session.Dial(ctx, session.Target{Command: []string{"/nonexistent/server", "--flag"}}, &session.Options{Timeout: time.Minute})
	if err == nil {
		s.Close()
		t.Fatal("dialled a program that does not exist")
	}
	for _, want := range []string{`cannot start "/nonexistent/server": program not found`, "after --", "config entry", "PATH"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error %q lacks %q", err, want)
		}
	}
}
