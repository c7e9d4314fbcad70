package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/charmbracelet/x/term"

	"mcpwitness/checks"
	"mcpwitness/paging"
	"mcpwitness/sanitize"
	"mcpwitness/session"
)

// headless is what the tools and call commands share: a dialled session,
// its log, the optional record and the chosen output.
type headless struct {
	cfg    *config
	target session.Target
	log    *session.Log
	sess   *session.Session
	red    *session.Redactor // the target's secrets, kept out of every output
	out    io.Writer
	errw   io.Writer
	pr     *printer
	finish func() error
}

// start dials the target with the log wired to --record and --ndjson.
// It returns an exit code other than exitOK when it could not, having said
// why on stderr (and, with --json, in an error document on stdout).
func start(ctx context.Context, cfg *config, stdout, stderr io.Writer) (*headless, int) {
	target, err := resolveTarget(cfg)
	if err != nil {
		return nil, fail(cfg, nil, stdout, stderr, err, exitConnect)
	}
	red := target.Secrets()
	h := &headless{cfg: cfg, target: target, red: red, log: session.NewLog(nil), out: stdout, errw: stderr}
	h.pr = newPrinter(stdout, colorEnabled(stdout), red)
	_, finish, err := openRecord(cfg.record, target, h.log)
	if err != nil {
		return nil, fail(cfg, red, stdout, stderr, err, exitUsage)
	}
	h.finish = finish
	if cfg.ndjson {
		h.log.AddSink(ndjsonSink(stdout, red))
	}
	if !cfg.json && !cfg.ndjson && isTTY(stderr) {
		h.log.AddSink(progressSink(stderr))
	}
	sess, err := session.Dial(ctx, target, sessionOptions(cfg, h.log))
	if err != nil {
		h.close()
		return nil, fail(cfg, red, stdout, stderr, err, exitConnect)
	}
	h.sess = sess
	return h, exitOK
}

// fail says why a command failed: on stderr, redacted and shown safely,
// and with --json as an error document on stdout, so that stdout always
// holds one document. It returns code.
func fail(cfg *config, red *session.Redactor, stdout, stderr io.Writer, err error, code int) int {
	printError(stderr, red, err)
	if cfg != nil && cfg.json {
		_ = writeJSON(stdout, errorDocument(red.String(err.Error()), code), red)
	}
	return code
}

// printError writes err on stderr as "mcpwitness: …". Errors quote what a
// server said (its stderr, JSON-RPC error messages), so the text is
// redacted and passes the sanitiser.
func printError(w io.Writer, red *session.Redactor, err error) {
	fmt.Fprintf(w, "mcpwitness: %s\n", sanitize.Text(red.String(err.Error())))
}

// ndjsonSink writes each event as one line of strict UTF-8 JSON with the
// target's secrets replaced.
func ndjsonSink(w io.Writer, red *session.Redactor) func(session.Event) {
	return func(ev session.Event) {
		b, err := json.Marshal(ev)
		if err == nil {
			b, err = cleanJSON(b)
		}
		if err == nil {
			w.Write(append(red.JSON(b), '\n'))
		}
	}
}

// close ends the session and the record; a record that failed to write
// is reported.
func (h *headless) close() int {
	if h.sess != nil {
		_ = h.sess.Close()
	}
	h.log.Close()
	if err := h.finish(); err != nil {
		printError(h.errw, h.red, err)
		return exitConnect
	}
	return exitOK
}

func runTools(ctx context.Context, cfg *config, stdout, stderr io.Writer) int {
	h, code := start(ctx, cfg, stdout, stderr)
	if code != exitOK {
		return code
	}
	_, res := h.sess.Walk(ctx, paging.Tools())
	doc := toolsDocument(h.sess, res)
	switch {
	case cfg.json:
		_ = writeJSON(stdout, doc, h.red)
	case cfg.ndjson:
	default:
		h.pr.tools(doc)
	}
	code = exitOK
	switch {
	case res.Incomplete == paging.Failed:
		if !cfg.json && !cfg.ndjson {
			printError(stderr, h.red, res.Err)
		}
		code = exitConnect
	case res.Incomplete != paging.Complete || hasErrorFinding(res.Findings):
		code = exitCheck
	}
	if c := h.close(); c != exitOK && code == exitOK {
		code = c
	}
	return code
}

func hasErrorFinding(fs []paging.Finding) bool {
	for _, f := range fs {
		if f.Severity == "error" {
			return true
		}
	}
	return false
}

func runCall(ctx context.Context, cfg *config, stdout, stderr io.Writer) int {
	h, code := start(ctx, cfg, stdout, stderr)
	if code != exitOK {
		return code
	}
	name := cfg.args[0]
	// The walk gives the call the definition a client would hold.
	_, walk := h.sess.Walk(ctx, paging.Tools())
	if walk.Incomplete == paging.Failed {
		printError(stderr, h.red, fmt.Errorf("listing tools before the call: %w", walk.Err))
	}
	def, _, _ := h.sess.Tool(name)
	args, err := buildArgs(def, cfg.args[1:], cfg.argsJSON, cfg.argsSet)
	if err != nil {
		h.close()
		return fail(cfg, h.red, stdout, stderr, err, exitUsage)
	}
	res := h.sess.Call(ctx, name, args, &session.CallOptions{Force: cfg.force})
	doc := callDocument(res)
	switch {
	case cfg.json:
		_ = writeJSON(stdout, doc, h.red)
	case cfg.ndjson:
	default:
		h.pr.call(doc, res)
	}
	code = callExit(res)
	if c := h.close(); c != exitOK && code == exitOK {
		code = c
	}
	return code
}

// callExit maps a call to the exit codes DESIGN.md gives.
func callExit(r *session.CallResult) int {
	if r.Err != nil || len(r.RPCError) > 0 {
		return exitConnect
	}
	for _, v := range r.Verdicts {
		switch v.Status {
		case checks.Fail, checks.Refused, checks.Unchecked:
			return exitCheck
		}
	}
	if r.IsError() {
		return exitToolError
	}
	return exitOK
}

func isTTY(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

func colorEnabled(w io.Writer) bool {
	if _, ok := os.LookupEnv("NO_COLOR"); ok {
		return false
	}
	return isTTY(w)
}

// progressSink shows a walk's progress on a terminal's stderr, one line
// rewritten in place.
func progressSink(w io.Writer) func(session.Event) {
	shown := false
	return func(ev session.Event) {
		switch {
		case ev.Kind == session.KindPage && ev.Page != nil:
			fmt.Fprintf(w, "\r\x1b[K%s: page %d · %s · gen %d", sanitize.Line(ev.Method), ev.Page.Number, nouns(ev.Page.Count, "item"), ev.Page.Generation)
			shown = true
		case ev.Kind == session.KindWalk && ev.Walk != nil && ev.Walk.State == "done" && shown:
			fmt.Fprint(w, "\r\x1b[K")
			shown = false
		case ev.Kind == session.KindCall && ev.Call != nil && ev.Call.State == "start":
			fmt.Fprintf(w, "\r\x1b[Kcalling %s…", sanitize.Line(ev.Call.Tool))
			shown = true
		case ev.Kind == session.KindProgress && ev.Progress != nil:
			fmt.Fprintf(w, "\r\x1b[Kprogress %g", ev.Progress.Progress)
			if ev.Progress.Total > 0 {
				fmt.Fprintf(w, "/%g", ev.Progress.Total)
			}
			if ev.Progress.Message != "" {
				fmt.Fprintf(w, " · %s", sanitize.Line(ev.Progress.Message))
			}
			shown = true
		case ev.Kind == session.KindCall && ev.Call != nil && ev.Call.State == "done" && shown:
			fmt.Fprint(w, "\r\x1b[K")
			shown = false
		}
	}
}
