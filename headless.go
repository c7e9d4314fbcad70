package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/charmbracelet/x/term"

	"mcpwitness/record"
	"mcpwitness/sanitize"
	"mcpwitness/session"
)

// openLog makes the session log of a command that has a session (the
// terminal UI and the headless commands that dial a server) and wires it,
// once: to the --record file, to the spool the terminal UI exports, to
// --ndjson on stdout, and to the progress line on a terminal's stderr for
// the headless commands. The returned function closes the record and the
// spool, after the log has been closed; a record that failed to write is
// its error.
func (a *app) openLog() (closeRecord func() error, err error) {
	cfg := a.cfg
	tuneGCFor(cfg.cmd != "")
	h := record.NewHeader(toolName(), cfg.target.Describe())
	a.log = record.NewLog(nil)
	a.log.MaskWith(a.red)
	rec, closeRecord, err := openRecord(cfg.record, h, a.red, a.log)
	if err != nil {
		a.log.Close()
		return nil, &exitError{exitUsage, err}
	}
	if cfg.cmd == "" {
		// With --record the UI's export copies the record: each event is
		// written once.
		if rec != nil {
			a.spool, err = record.FollowRecord(rec)
		} else if a.spool, err = record.NewSpool(h, a.red, a.spoolOptions()); err == nil {
			a.log.AddSink(a.spool.Write)
		}
		if err != nil {
			a.log.Close()
			return nil, joinExit(connectFailed(err), closeRecord())
		}
		closeRecord = closeBoth(closeRecord, a.spool.Close)
	}
	if cfg.ndjson {
		a.log.AddSink(ndjsonSink(a.stdout, a.red, a.stdout.fail))
	}
	if dialsHere(cfg.cmd) && !cfg.json && !cfg.ndjson && isTTY(a.stderr) {
		a.log.AddSink(progressSink(a.stderr, a.red))
	}
	return closeRecord, nil
}

// spoolOptions bound the terminal UI's own spool by --spool-max and, when
// it stops, say so in the session's log, whose events the UI shows.
func (a *app) spoolOptions() *record.SpoolOptions {
	log := a.log
	return &record.SpoolOptions{Max: a.cfg.spoolMax, Stopped: func(ev record.Event) {
		// The spool may be writing as a sink of log, which is locked
		// meanwhile: append once the sink has returned.
		go log.Append(ev)
	}}
}

// closeBoth closes the record, then the spool; the record's error comes
// first.
func closeBoth(record, spool func() error) func() error {
	return func() error {
		rerr := record()
		if err := spool(); rerr == nil {
			return err
		}
		return rerr
	}
}

// dial connects to the target through the command's log and, with
// --log-level, asks the server to log at that level: a level the server
// refuses is a warning, not the end. The caller closes the session.
func (a *app) dial(ctx context.Context) (*session.Session, error) {
	sess, err := session.Dial(ctx, a.cfg.target, sessionOptions(a.cfg, a.log, a.red))
	if err != nil {
		return nil, connectFailed(err)
	}
	if level := a.cfg.logLevel; level != "" {
		r := sess.SetLogLevel(ctx, level)
		switch {
		case r.Err != nil:
			a.warn(fmt.Errorf("--log-level %s: %w", level, r.Err))
		case len(r.RPCError) > 0:
			a.warn(fmt.Errorf("--log-level %s: the server answered with an error: %s", level, record.RPCErrorText(r.RPCError)))
		}
	}
	return sess, nil
}

// show writes a headless command's answer: doc as one JSON document with
// --json, nothing more with --ndjson (the events said it all), else human
// printed for people.
func (a *app) show(doc any, human func()) {
	switch {
	case a.cfg.json:
		if err := writeJSON(a.stdout, doc, a.red); err != nil {
			a.stdout.fail(fmt.Errorf("writing the --json document: %w", err))
		}
	case a.cfg.ndjson:
	default:
		human()
	}
}

// warn says on stderr what went wrong without ending the command.
func (a *app) warn(err error) { printError(a.stderr, a.red, err) }

// openRecord starts streaming the session log to path (--record), redacted
// by red, after the header h, and returns the record (nil without
// --record). The returned function closes the file and says whether every
// event was written.
func openRecord(path string, h record.Header, red *record.Redactor, log *record.Log) (*record.RecordFile, func() error, error) {
	if path == "" {
		return nil, func() error { return nil }, nil
	}
	rec, err := record.CreateRecord(path, h, red)
	if errors.Is(err, fs.ErrExist) {
		return nil, nil, fmt.Errorf("--record %s: the file exists; choose another name or remove it (a record is never overwritten)", path)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("--record: %w", err)
	}
	log.AddSink(rec.Write)
	return rec, func() error {
		if err := rec.Close(); err != nil {
			return fmt.Errorf("--record: %w", err)
		}
		return nil
	}, nil
}

// ndjsonSink writes each event as one line of strict UTF-8 JSON with the
// secrets red knows replaced. An event it cannot write goes to fail, which
// makes the command fail saying so.
func ndjsonSink(w io.Writer, red *record.Redactor, fail func(error)) func(record.Event) {
	return func(ev record.Event) {
		b, err := json.Marshal(ev)
		if err == nil {
			b, err = cleanJSON(b)
		}
		if err == nil {
			_, err = w.Write(append(red.JSON(b), '\n'))
		}
		if err != nil {
			fail(fmt.Errorf("--ndjson: event %d (%s): %w", ev.Seq, ev.Kind, err))
		}
	}
}

func isTTY(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

// progressSink shows a walk's or a call's progress on a terminal's stderr,
// one line rewritten in place and cleared when the walk or call is done.
// What the server said in it (a progress message) is redacted by red and
// shown safely, as the printer shows it.
func progressSink(w io.Writer, red *record.Redactor) func(record.Event) {
	shown := false
	safe := func(s string) string { return sanitize.Line(red.String(s)) }
	return func(ev record.Event) {
		line, done := progressLine(ev, safe)
		switch {
		case line != "":
			fmt.Fprint(w, "\r\x1b[K"+line)
			shown = true
		case done && shown:
			fmt.Fprint(w, "\r\x1b[K")
			shown = false
		}
	}
}

// progressLine is what the progress line shows for ev, if anything, and
// whether ev ends a walk or a call. safe makes a string safe for the line.
func progressLine(ev record.Event, safe func(string) string) (line string, done bool) {
	switch {
	case ev.Kind == record.KindPage && ev.Page != nil:
		return fmt.Sprintf("%s: page %d · %s · gen %d", safe(ev.Method), ev.Page.Number, nouns(ev.Page.Count, "item"), ev.Page.Generation), false
	case ev.Kind == record.KindWalk && ev.Walk != nil:
		return "", ev.Walk.State == record.PhaseDone
	case ev.Kind == record.KindCall && ev.Call != nil && ev.Call.State == record.PhaseStart:
		return "calling " + safe(ev.Call.Tool) + "…", false
	case ev.Kind == record.KindCall && ev.Call != nil:
		return "", ev.Call.State == record.PhaseDone
	case ev.Kind == record.KindProgress && ev.Progress != nil:
		line = fmt.Sprintf("progress %g", ev.Progress.Progress)
		if ev.Progress.Total > 0 {
			line += fmt.Sprintf("/%g", ev.Progress.Total)
		}
		if ev.Progress.Message != "" {
			line += " · " + safe(ev.Progress.Message)
		}
		return line, false
	}
	return "", false
}
