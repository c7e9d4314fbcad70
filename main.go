// Command mcpwitness is a terminal inspector for Model Context Protocol
// servers: it walks every page of a server's lists, counts generations,
// checks tool calls the way clients do, and records the whole session.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"mcpwitness/record"
	"mcpwitness/sanitize"
	"mcpwitness/session"
)

func main() {
	tuneGC(largeHeap, largeHeapGC)
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// app is what every command runs with: the resolved command line, where
// its output goes, and, for the commands that dial a server here, the
// session log already wired to --record, --ndjson and the progress line.
type app struct {
	cfg    *config
	stdout *docWriter
	stderr io.Writer
	red    *record.Redactor // the target's secrets, kept out of every output
	log    *record.Log      // nil unless the command has a session (see [hasSession])
	spool  *record.Spool    // the terminal UI's, which it exports; nil for other commands
	pr     *printer

	// jsonErrors: a failure that printed no document prints the error
	// document on stdout, so that --json always gives one document.
	jsonErrors bool
}

// run is the whole program: parse the command line, resolve it, run the
// command, and turn its error into the stderr line, the --json error
// document and the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	a := &app{stdout: &docWriter{w: stdout}, stderr: stderr, jsonErrors: wantsJSON(args)}
	err := a.run(args)
	if werr := a.stdout.failed(); werr != nil {
		// Never exit 0 with output missing: say why it is.
		err = joinExit(err, werr)
	}
	return a.exit(err)
}

// run runs the command line args. For the commands that have a session
// (the terminal UI and the headless commands that dial a server) it wires
// the session log first, and closes it and the record after the command,
// whose session is closed by then.
func (a *app) run(args []string) error {
	cfg, err := parseCommandLine(args, a.stdout)
	if err != nil {
		return err
	}
	a.cfg, a.jsonErrors = cfg, cfg.json && writesDocument(cfg.cmd)
	switch {
	case cfg.done:
		return nil
	case cfg.version:
		fmt.Fprintln(a.stdout, toolName())
		return nil
	}
	if cfg, err = resolve(cfg, osEnviron()); err != nil {
		return err
	}
	a.cfg, a.red = cfg, cfg.secrets()
	a.pr = newPrinter(a.stdout, !cfg.noColor && (cfg.color == "always" || isTTY(a.stdout.w)), a.red)
	// SIGHUP too: a terminal window closed under the TUI ends it as q does
	// (the export spool removed, the server stopped, the record closed),
	// not by the signal's default, which left the spool in the temp dir.
	ctx, stop := signalContext()
	defer stop()
	cmd := lookupCommand(cfg.cmd).run
	if !hasSession(cfg.cmd) {
		return cmd(ctx, a)
	}
	if cfg.cmd == "" {
		// Said before --record makes its file.
		if err := checkTUI(os.Stdin, a.stdout.w); err != nil {
			return err
		}
	}
	closeRecord, err := a.openLog()
	if err != nil {
		return err
	}
	err = cmd(ctx, a)
	if cfg.cmd != "" {
		err = a.interrupted(ctx, err)
	}
	a.log.Close()
	return joinExit(err, closeRecord())
}

// command is one command of the command line: its name, the function that
// runs it and its help.
type command struct {
	name  string
	run   func(context.Context, *app) error
	help  string
	flags func(flags) // registers the command's flags
}

// commands are the commands, in the order the usage error names them.
func commands() []command {
	return []command{
		{"tools", runTools, helpTools, walkFlags},
		{"call", runCall, helpCall, callFlags},
		{"check", runCheck, helpCheck, checkFlags},
		{"resources", runResources, helpResources, walkFlags},
		{"read", runRead, helpRead, readFlags},
		{"prompts", runPrompts, helpPrompts, walkFlags},
		{"prompt", runPrompt, helpPrompt, promptFlags},
		{"tasks", runTasks, helpTasks, walkFlags},
		{"complete", runComplete, helpComplete, completeFlags},
		{"ping", runPing, helpPing, pingFlags},
		{"report", runReport, helpReport, reportFlags},
		{"diff", runDiff, helpDiff, diffFlags},
		{"open", runOpen, helpOpen, openFlags},
		{"demo-server", runDemoServer, helpDemo, demoFlags},
		{"completion", runCompletion, helpCompletion, noFlags},
	}
}

// lookupCommand is the command named name: "" (or a name that is no
// command) is the terminal UI, with the main help.
func lookupCommand(name string) command {
	for _, c := range commands() {
		if c.name == name {
			return c
		}
	}
	return command{run: runTUI, help: helpMain, flags: tuiFlags}
}

// dialsHere reports whether the command is a headless one that dials its
// server.
func dialsHere(cmd string) bool {
	switch cmd {
	case "tools", "call", "check", "resources", "read", "prompts", "prompt", "complete", "ping", "tasks":
		return true
	}
	return false
}

// hasSession reports whether the command has a session log, which run
// wires to --record: the terminal UI ("") and the headless commands that
// dial a server.
func hasSession(cmd string) bool { return cmd == "" || dialsHere(cmd) }

// writesDocument reports whether the command's --json is a document that
// a failure replaces with the error document.
func writesDocument(cmd string) bool { return dialsHere(cmd) || cmd == "diff" }

// exit says why the command failed, if it did, and returns its exit code.
// Errors quote what a server said (its stderr, JSON-RPC error messages),
// so every line is redacted and passes the sanitiser.
func (a *app) exit(err error) int {
	code := exitCode(err)
	msgs := messages(err)
	for _, m := range msgs {
		printError(a.stderr, a.red, m)
	}
	if len(msgs) > 0 && a.jsonErrors && !a.stdout.wrote.Load() {
		command := ""
		if a.cfg != nil {
			command = a.cfg.cmd
		}
		_ = writeJSON(a.stdout, errorDocument(command, a.red.String(msgs[0].Error()), err), a.red)
	}
	return code
}

// sessionOptions are the options of a session of the command line cfg
// logging to log, with red the registry of secrets every output masks
// with, to which the session adds the credentials it obtains.
func sessionOptions(cfg *config, log *record.Log, red *record.Redactor) *session.Options {
	return &session.Options{
		Log:           log,
		Secrets:       red,
		Timeout:       cfg.timeout,
		Protocol:      cfg.protocol,
		Roots:         cfg.roots,
		Elicit:        cfg.elicit,
		Sampling:      cfg.sampling,
		MaxPages:      cfg.maxPages,
		MaxFrame:      cfg.maxFrame,
		ClientName:    "mcpwitness",
		ClientVersion: version(),
	}
}

// version is this build's version, from the module's build info: see
// [versionOf].
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "dev"
	}
	return versionOf(bi)
}

// versionOf says which build bi describes: the module version when the
// build knows one (go install mcpwitness@v1.2.3, or a tagged clone), else
// the VCS revision and commit time that go build stamps (with +dirty for
// uncommitted changes): 0123456789ab+dirty (2026-01-02T03:04:05Z), else "dev".
func versionOf(bi *debug.BuildInfo) string {
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, at string
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "dev"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	v := rev
	if dirty {
		v += "+dirty"
	}
	if at != "" {
		v += " (" + at + ")"
	}
	return v
}

func toolName() string { return "mcpwitness " + version() }

// Exit codes, as README.md's table gives them.
const (
	exitOK        = 0
	exitConnect   = 1 // connection or protocol error
	exitUsage     = 2
	exitCheck     = 3 // a check failed
	exitToolError = 4 // the tool answered isError and every check passed
)

// usageError is a mistake on the command line: exit code 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// exitError is a failed command: the exit code it ends with and what to
// say on stderr. A nil err says nothing more: the command's output (an
// incomplete walk, a failed verdict) already told.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// connectFailed is a connection or protocol error, or anything else that
// kept the command from its answer: exit 1.
func connectFailed(err error) error { return &exitError{exitConnect, err} }

// exitWith ends with code and says nothing more: the output told why.
func exitWith(code int) error {
	if code == exitOK {
		return nil
	}
	return &exitError{code: code}
}

// exitCode is the exit code err ends the program with: 0 for nil, 2 for a
// usage error, a command's own code, and 1 for any other error.
func exitCode(err error) int {
	var e *exitError
	var u usageError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &e):
		return e.code
	case errors.As(err, &u):
		return exitUsage
	}
	return exitConnect
}

// messages lists what err has to say on stderr, one line each.
func messages(err error) []error {
	var e *exitError
	if errors.As(err, &e) {
		err = e.err
	}
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// joinExit is the outcome of a command that then had cleanup fail (a
// record that could not be written): both are said, and the command's
// exit code stands unless it had succeeded.
func joinExit(err, cleanup error) error {
	switch {
	case cleanup == nil:
		return err
	case err == nil:
		return connectFailed(cleanup)
	}
	return &exitError{exitCode(err), errors.Join(append(messages(err), cleanup)...)}
}

// printError writes err on stderr as "mcpwitness: …", redacted and shown
// safely.
func printError(w io.Writer, red *record.Redactor, err error) {
	fmt.Fprintf(w, "mcpwitness: %s\n", sanitize.Text(red.String(err.Error())))
}

// docWriter is stdout, remembering whether anything was written to it and
// the first failure to write it: every sink on stdout (--json, --ndjson,
// the printer) reports there, and the command fails with it.
type docWriter struct {
	w     io.Writer
	wrote atomic.Bool

	mu  sync.Mutex
	err error
}

func (d *docWriter) Write(b []byte) (int, error) {
	d.wrote.Store(true)
	n, err := d.w.Write(b)
	if err != nil {
		d.fail(fmt.Errorf("writing to stdout: %w", err))
	}
	return n, err
}

// fail keeps err, if it is the first failure of a sink on stdout.
func (d *docWriter) fail(err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.err == nil {
		d.err = err
	}
}

// failed is the first failure of a sink on stdout, nil if none.
func (d *docWriter) failed() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.err
}
