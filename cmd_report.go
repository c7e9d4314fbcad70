package main

import (
	"context"
	"fmt"
	"io"

	"mcpwitness/record"
	"mcpwitness/report"
	"mcpwitness/sanitize"
)

// runReport writes the Markdown report of a session file to stdout:
// mcpwitness report FILE. A session of several servers reports each.
func runReport(_ context.Context, a *app) error {
	if err := fileCommand(a.cfg, 1, "report needs one session file: mcpwitness report FILE > report.md"); err != nil {
		return err
	}
	if a.cfg.json || a.cfg.ndjson {
		return usagef("report writes Markdown; --json and --ndjson are not for it (the session file is the JSON)")
	}
	f, err := openSession(a.cfg.args[0], a.stderr)
	if err != nil {
		return err
	}
	defer f.Close()
	servers, err := report.SplitServers(f)
	if err != nil {
		return connectFailed(err)
	}
	// A credential the file still holds is redacted with a keyed digest,
	// as the record's are (--digest-key FILE names the key).
	opts := &report.MarkdownOptions{Scrubber: report.ScrubberAt(a.cfg.digestKey)}
	if len(servers) > 0 {
		if err := report.MarkdownServers(a.stdout, f.Name(), servers, opts); err != nil {
			return connectFailed(fmt.Errorf("writing the report: %w", err))
		}
		return nil
	}
	s, err := report.Summarize(f, nil)
	if err != nil {
		return connectFailed(err)
	}
	if err := s.Markdown(a.stdout, opts); err != nil {
		return connectFailed(fmt.Errorf("writing the report: %w", err))
	}
	return nil
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

// openSession opens a session file, saying on stderr what the reader
// forgave. A file that cannot be opened is exit 1.
func openSession(path string, stderr io.Writer) (*record.File, error) {
	f, err := record.OpenFile(path)
	if err != nil {
		return nil, connectFailed(withCode(codeIO, err))
	}
	for _, w := range f.Warnings() {
		fmt.Fprintf(stderr, "mcpwitness: %s: warning: %s\n", sanitize.Line(path), sanitize.Text(w))
	}
	return f, nil
}
