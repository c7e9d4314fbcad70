package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestExitSaysEachErrorOnce checks the one place that turns a command's
// error into stderr lines, the --json error document and the exit code.
func TestExitSaysEachErrorOnce(t *testing.T) {
	t.Parallel()
	walk := errors.New("the walk failed")
	record := errors.New("--record: disk full")
	tests := []struct {
		name   string
		err    error
		wrote  bool // the command had printed its document
		code   int
		stderr []string
		doc    bool
	}{
		{"success", nil, true, exitOK, nil, false},
		{"a usage error", usagef("bad flag"), false, exitUsage, []string{"bad flag"}, true},
		{"a plain error", walk, false, exitConnect, []string{"the walk failed"}, true},
		{"a check failed, said by the output", exitWith(exitCheck), true, exitCheck, nil, false},
		{"a failure after the document", connectFailed(walk), true, exitConnect, []string{"the walk failed"}, false},
		{"the record fails after success", joinExit(nil, record), true, exitConnect, []string{"disk full"}, false},
		{"the record fails after a failed check", joinExit(exitWith(exitCheck), record), true, exitCheck, []string{"disk full"}, false},
		{"both say why, in order", joinExit(connectFailed(walk), record), true, exitConnect, []string{"the walk failed", "disk full"}, false},
		{"a usage error keeps its code", joinExit(usagef("bad"), record), false, exitUsage, []string{"bad", "disk full"}, true},
	}
	for _, tc := range tests {
		var out, errb bytes.Buffer
		a := &app{stdout: &docWriter{w: &out}, stderr: &errb, jsonErrors: true}
		if tc.wrote {
			a.stdout.Write([]byte("{}\n"))
			out.Reset()
		}
		if code := a.exit(tc.err); code != tc.code {
			t.Errorf("%s: exit %d, want %d", tc.name, code, tc.code)
		}
		lines := strings.Split(strings.TrimSuffix(errb.String(), "\n"), "\n")
		if len(tc.stderr) == 0 && errb.Len() > 0 || len(tc.stderr) > 0 && len(lines) != len(tc.stderr) {
			t.Errorf("%s: stderr %q, want %d lines %q", tc.name, errb.String(), len(tc.stderr), tc.stderr)
		}
		for i, want := range tc.stderr {
			if i < len(lines) && (!strings.HasPrefix(lines[i], "mcpwitness: ") || !strings.Contains(lines[i], want)) {
				t.Errorf("%s: stderr line %d %q, want %q", tc.name, i, lines[i], want)
			}
		}
		var doc errorDoc
		gotDoc := out.Len() > 0 && json.Unmarshal(out.Bytes(), &doc) == nil && doc.Error.ExitCode == tc.code
		if gotDoc != tc.doc {
			t.Errorf("%s: error document %q, want one: %v", tc.name, out.String(), tc.doc)
		}
	}
}
