package main

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"mcpwitness/report"
	"mcpwitness/session"
)

// runDiff compares the last complete tools walk of two session files:
// mcpwitness diff BEFORE AFTER [--json]. It exits 0 when they are equal
// and 3 when they differ.
func runDiff(_ context.Context, a *app) error {
	if err := fileCommand(a.cfg, 2, "diff needs two session files: mcpwitness diff BEFORE AFTER [--json]"); err != nil {
		return err
	}
	if a.cfg.ndjson {
		return usagef("diff writes one document; use --json, not --ndjson")
	}
	var files [2]*session.File
	for i, path := range a.cfg.args {
		f, err := openSession(path, a.stderr)
		if err != nil {
			return err
		}
		defer f.Close()
		files[i] = f
	}
	d, err := report.Compare(files[0], files[1])
	if err != nil {
		return connectFailed(err)
	}
	if err := writeDiff(a.stdout, d, a.cfg.json); err != nil {
		return connectFailed(err)
	}
	if !d.Equal {
		return exitWith(exitCheck)
	}
	return nil
}

// writeDiff writes d as text, or as one JSON document.
func writeDiff(w io.Writer, d *report.Difference, asJSON bool) error {
	if !asJSON {
		if err := d.WriteText(w); err != nil {
			return fmt.Errorf("writing the difference: %w", err)
		}
		return nil
	}
	var b bytes.Buffer
	if err := writeJSON(&b, d, nil); err != nil {
		return err
	}
	if _, err := io.WriteString(w, report.Scrub(b.String())); err != nil {
		return fmt.Errorf("writing the difference: %w", err)
	}
	return nil
}
