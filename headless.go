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
	"mcpwitness/session"
)

// headless is what the tools and call commands share: a dialled session,
// its log, the optional record and the chosen output.
type headless struct {
	cfg    *config
	target session.Target
	log    *session.Log
	sess   *session.Session
	out    io.Writer
	errw   io.Writer
	pr     *printer
	finish func() error
}

// start dials the target with the log wired to --record and --ndjson.
// It returns an exit code other than exitOK when it could not.
func start(ctx context.Context, cfg *config, stdout, stderr io.Writer) (*headless, int) {
	target, err := resolveTarget(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "mcpwitness: %v\n", err)
		return nil, exitConnect
	}
	h := &headless{cfg: cfg, target: target, log: session.NewLog(nil), out: stdout, errw: stderr}
	h.pr = newPrinter(stdout, colorEnabled(stdout))
	_, finish, err := openRecord(cfg.record, target, h.log)
	if err != nil {
		fmt.Fprintf(stderr, "mcpwitness: %v\n", err)
		return nil, exitUsage
	}
	h.finish = finish
	if cfg.ndjson {
		red := target.Secrets()
		h.log.AddSink(func(ev session.Event) {
			b, err := json.Marshal(ev)
			if err == nil {
				stdout.Write(append(red.JSON(b), '\n'))
			}
		})
	}
	if !cfg.json && !cfg.ndjson && isTTY(stderr) {
		h.log.AddSink(progressSink(stderr))
	}
	sess, err := session.Dial(ctx, target, sessionOptions(cfg, h.log))
	if err != nil {
		h.close()
		fmt.Fprintf(stderr, "mcpwitness: %v\n", err)
		return nil, exitConnect
	}
	h.sess = sess
	return h, exitOK
}

// close ends the session and the record; a record that failed to write
// is reported.
func (h *headless) close() int {
	if h.sess != nil {
		_ = h.sess.Close()
	}
	h.log.Close()
	if err := h.finish(); err != nil {
		fmt.Fprintf(h.errw, "mcpwitness: %v\n", err)
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
		writeJSON(stdout, doc)
	case cfg.ndjson:
	default:
		h.pr.tools(doc)
	}
	code = exitOK
	switch {
	case res.Incomplete == paging.Failed:
		if !cfg.json && !cfg.ndjson {
			fmt.Fprintf(stderr, "mcpwitness: %v\n", res.Err)
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
		fmt.Fprintf(stderr, "mcpwitness: listing tools before the call: %v\n", walk.Err)
	}
	def, _, _ := h.sess.Tool(name)
	args, err := buildArgs(def, cfg.args[1:], cfg.argsJSON, cfg.argsSet)
	if err != nil {
		h.close()
		fmt.Fprintf(stderr, "mcpwitness: %v\n", err)
		return exitUsage
	}
	res := h.sess.Call(ctx, name, args, &session.CallOptions{Force: cfg.force})
	doc := callDocument(res)
	switch {
	case cfg.json:
		writeJSON(stdout, doc)
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

func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
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
			fmt.Fprintf(w, "\r\x1b[K%s: page %d · %d items · gen %d", ev.Method, ev.Page.Number, ev.Page.Count, ev.Page.Generation)
			shown = true
		case ev.Kind == session.KindWalk && ev.Walk != nil && ev.Walk.State == "done" && shown:
			fmt.Fprint(w, "\r\x1b[K")
			shown = false
		case ev.Kind == session.KindCall && ev.Call != nil && ev.Call.State == "start":
			fmt.Fprintf(w, "\r\x1b[Kcalling %s…", ev.Call.Tool)
			shown = true
		case ev.Kind == session.KindProgress && ev.Progress != nil:
			fmt.Fprintf(w, "\r\x1b[Kprogress %g", ev.Progress.Progress)
			if ev.Progress.Total > 0 {
				fmt.Fprintf(w, "/%g", ev.Progress.Total)
			}
			if ev.Progress.Message != "" {
				fmt.Fprintf(w, " · %s", ev.Progress.Message)
			}
			shown = true
		case ev.Kind == session.KindCall && ev.Call != nil && ev.Call.State == "done" && shown:
			fmt.Fprint(w, "\r\x1b[K")
			shown = false
		}
	}
}
