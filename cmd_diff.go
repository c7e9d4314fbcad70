package main

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"mcpwitness/record"
	"mcpwitness/report"
)

// runDiff compares the last complete tools walk of two session files:
// mcpwitness diff BEFORE AFTER [--json]. It exits 0 when they are equal
// and 3 when they differ. Sessions of several servers are compared server
// by server, paired by name.
func runDiff(_ context.Context, a *app) error {
	if err := fileCommand(a.cfg, 2, "diff needs two session files: mcpwitness diff BEFORE AFTER [--json]"); err != nil {
		return err
	}
	if a.cfg.ndjson {
		return usagef("diff writes one document; use --json, not --ndjson")
	}
	var files [2]*record.File
	for i, path := range a.cfg.args {
		f, err := openSession(path, a.stderr)
		if err != nil {
			return err
		}
		defer f.Close()
		files[i] = f
	}
	var split [2][]report.ServerFile
	for i, f := range files {
		var err error
		if split[i], err = report.SplitServers(f); err != nil {
			return connectFailed(err)
		}
	}
	if split[0] != nil || split[1] != nil {
		for i, f := range files {
			if split[i] == nil {
				split[i] = []report.ServerFile{{Names: []string{f.Header().Target.String()}, File: f}}
			}
		}
		return writeServersDiff(a, report.CompareServers(split[0], split[1]))
	}
	d, err := report.Compare(files[0], files[1])
	if err != nil {
		// A file without a complete walk is an incomplete walk, as for
		// tools: exit 3.
		return &exitError{exitCheck, withCode(codeIncomplete, err)}
	}
	if err := writeDiff(a.stdout, d, a.cfg.json, report.ScrubberAt(a.cfg.digestKey)); err != nil {
		return connectFailed(err)
	}
	if !d.Equal {
		return exitWith(exitCheck)
	}
	return nil
}

// writeDiff writes d as text, or as one JSON document, through sc.
func writeDiff(w io.Writer, d *report.Difference, asJSON bool, sc *report.Scrubber) error {
	if !asJSON {
		if err := d.WriteText(w, sc); err != nil {
			return fmt.Errorf("writing the difference: %w", err)
		}
		return nil
	}
	var b bytes.Buffer
	if err := writeJSON(&b, diffDoc{docHead: headOf("diff"), Difference: d}, nil); err != nil {
		return err
	}
	text, err := sc.Scrub(b.String())
	if err != nil {
		return err
	}
	if _, err := io.WriteString(w, text); err != nil {
		return fmt.Errorf("writing the difference: %w", err)
	}
	return nil
}

// writeServersDiff writes the difference of sessions of several servers,
// as text or one JSON document; 3 when anything differs.
func writeServersDiff(a *app, d *report.ServersDifference) error {
	var err error
	sc := report.ScrubberAt(a.cfg.digestKey)
	if a.cfg.json {
		var b bytes.Buffer
		var text string
		if err = writeJSON(&b, serversDiffDocument(d), nil); err == nil {
			if text, err = sc.Scrub(b.String()); err == nil {
				_, err = io.WriteString(a.stdout, text)
			}
		}
	} else {
		err = d.WriteText(a.stdout, sc)
	}
	if err != nil {
		return connectFailed(fmt.Errorf("writing the difference: %w", err))
	}
	if !d.Equal {
		return exitWith(exitCheck)
	}
	return nil
}

// diffDoc is the --json document of diff of two sessions of one server.
type diffDoc struct {
	docHead
	*report.Difference
}

// serversDiffDoc is the --json document of diff of sessions of several
// servers: each pair's difference, or the error that kept it from one.
type serversDiffDoc struct {
	docHead
	Equal      bool            `json:"equal"`
	Servers    []serverPairDoc `json:"servers"`
	OnlyBefore [][]string      `json:"onlyBefore"`
	OnlyAfter  [][]string      `json:"onlyAfter"`
}

type serverPairDoc struct {
	Before     []string           `json:"before"`
	After      []string           `json:"after"`
	Difference *report.Difference `json:"difference,omitempty"`
	Error      *errorObj          `json:"error,omitempty"`
}

// serversDiffDocument is the document of d. A pair that could not be
// compared lacks a complete walk in one of its files (see
// [report.Compare]).
func serversDiffDocument(d *report.ServersDifference) serversDiffDoc {
	doc := serversDiffDoc{docHead: headOf("diff"), Equal: d.Equal, Servers: []serverPairDoc{},
		OnlyBefore: nonNil(d.OnlyBefore), OnlyAfter: nonNil(d.OnlyAfter)}
	for _, p := range d.Servers {
		pd := serverPairDoc{Before: p.Before, After: p.After, Difference: p.Difference}
		if p.Error != "" {
			pd.Error = &errorObj{Code: codeIncomplete, Message: p.Error, ExitCode: exitCheck}
		}
		doc.Servers = append(doc.Servers, pd)
	}
	return doc
}

// nonNil is s, or an empty slice for nil: a document has [] where there
// is nothing.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
