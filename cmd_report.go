package main

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"mcpwitness/report"
	"mcpwitness/sanitize"
	"mcpwitness/session"
)

// runReport writes the Markdown report of a session file to stdout:
// mcpwitness report FILE.
func runReport(_ context.Context, cfg *config, stdout, stderr io.Writer) int {
	if err := fileCommand(cfg, 1, "report needs one session file: mcpwitness report FILE > report.md"); err != nil {
		printError(stderr, nil, err)
		return exitUsage
	}
	if cfg.json || cfg.ndjson {
		fmt.Fprintln(stderr, "mcpwitness: report writes Markdown; --json and --ndjson are not for it (the session file is the JSON)")
		return exitUsage
	}
	f, code := openSession(cfg.args[0], stderr)
	if f == nil {
		return code
	}
	defer f.Close()
	s, err := report.Summarize(f, nil)
	if err != nil {
		printError(stderr, nil, err)
		return exitConnect
	}
	if err := s.Markdown(stdout, nil); err != nil {
		printError(stderr, nil, fmt.Errorf("writing the report: %w", err))
		return exitConnect
	}
	return exitOK
}

// runDiff compares the last complete tools walk of two session files:
// mcpwitness diff A B [--json]. It exits 0 when they are equal and 3 when
// they differ.
func runDiff(_ context.Context, cfg *config, stdout, stderr io.Writer) int {
	if err := fileCommand(cfg, 2, "diff needs two session files: mcpwitness diff BEFORE AFTER [--json]"); err != nil {
		printError(stderr, nil, err)
		return exitUsage
	}
	if cfg.ndjson {
		fmt.Fprintln(stderr, "mcpwitness: diff writes one document; use --json, not --ndjson")
		return exitUsage
	}
	var files [2]*session.File
	for i, path := range cfg.args {
		f, code := openSession(path, stderr)
		if f == nil {
			return code
		}
		defer f.Close()
		files[i] = f
	}
	d, err := report.Compare(files[0], files[1])
	if err != nil {
		printError(stderr, nil, err)
		return exitConnect
	}
	if cfg.json {
		var b bytes.Buffer
		if err := writeJSON(&b, d, nil); err != nil {
			printError(stderr, nil, err)
			return exitConnect
		}
		_, err = io.WriteString(stdout, report.Scrub(b.String()))
	} else {
		err = d.WriteText(stdout)
	}
	if err != nil {
		printError(stderr, nil, fmt.Errorf("writing the difference: %w", err))
		return exitConnect
	}
	if !d.Equal {
		return exitCheck
	}
	return exitOK
}

// fileCommand checks the command line of a command that reads n session
// files and needs no server.
func fileCommand(cfg *config, n int, usage string) error {
	if len(cfg.args) != n {
		return usageError{usage}
	}
	t := cfg.target
	if t.URL != "" || len(t.Command) > 0 || len(t.Env) > 0 || len(t.Headers) > 0 || t.Dir != "" || t.SSE || cfg.config != "" || cfg.server != "" {
		return usagef("%s reads session files and needs no server: drop the server flags", cfg.cmd)
	}
	if cfg.record != "" {
		return usagef("%s reads session files; --record is for recording a live session", cfg.cmd)
	}
	return nil
}

// openSession opens a session file, printing what the reader forgave to
// stderr. On failure it returns nil and the exit code.
func openSession(path string, stderr io.Writer) (*session.File, int) {
	f, err := session.OpenFile(path)
	if err != nil {
		printError(stderr, nil, err)
		return nil, exitConnect
	}
	for _, w := range f.Warnings() {
		fmt.Fprintf(stderr, "mcpwitness: %s: warning: %s\n", sanitize.Line(path), sanitize.Text(w))
	}
	return f, exitOK
}
