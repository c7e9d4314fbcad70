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
	"os/signal"
	"runtime/debug"
	"syscall"

	"mcpwitness/demo"
	"mcpwitness/session"
)

// Exit codes of the headless commands.
const (
	exitOK        = 0
	exitConnect   = 1 // connection or protocol error
	exitUsage     = 2
	exitCheck     = 3 // a check failed
	exitToolError = 4 // the tool answered isError and every check passed
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	cfg, err := parseArgs(args)
	if err != nil {
		return fail(&config{json: wantsJSON(args)}, nil, stdout, stderr, err, exitUsage)
	}
	if cfg.help {
		fmt.Fprint(stdout, helpText(cfg.cmd))
		return exitOK
	}
	if cfg.version {
		fmt.Fprintln(stdout, toolName())
		return exitOK
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	switch cfg.cmd {
	case "demo-server":
		return runDemoServer(ctx, cfg, stdout, stderr)
	case "tools":
		return runTools(ctx, cfg, stdout, stderr)
	case "call":
		return runCall(ctx, cfg, stdout, stderr)
	case "check":
		return runCheck(ctx, cfg, stdout, stderr)
	case "report":
		return runReport(ctx, cfg, stdout, stderr)
	case "diff":
		return runDiff(ctx, cfg, stdout, stderr)
	case "open":
		return runOpen(ctx, cfg, stdout, stderr)
	default:
		return runTUI(ctx, cfg, stdout, stderr)
	}
}

func runDemoServer(ctx context.Context, cfg *config, stdout, stderr io.Writer) int {
	opts := &demo.Options{PageSize: cfg.pageSize, Filler: cfg.filler, TTLMs: cfg.ttlMs}
	var err error
	if cfg.httpAddr != "" {
		err = demo.ServeHTTP(ctx, cfg.httpAddr, opts, func(url string) {
			fmt.Fprintln(stdout, url)
			if f, ok := stdout.(*os.File); ok {
				_ = f.Sync()
			}
		})
	} else {
		err = demo.ServeStdio(ctx, opts)
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(stderr, "mcpwitness demo-server: %v\n", err)
		return exitConnect
	}
	return exitOK
}

// resolveTarget fills in the default target: the embedded demo server, run
// as a child of this very binary over stdio.
func resolveTarget(cfg *config) (session.Target, error) {
	t := cfg.target
	if t.URL != "" || len(t.Command) > 0 {
		return t, nil
	}
	self, err := os.Executable()
	if err != nil {
		return t, fmt.Errorf("finding this program to start the demo server: %w", err)
	}
	t.Command = []string{self, "demo-server"}
	return t, nil
}

func sessionOptions(cfg *config, log *session.Log) *session.Options {
	return &session.Options{
		Log:           log,
		Timeout:       cfg.timeout,
		Protocol:      cfg.protocol,
		Roots:         cfg.roots,
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

// openRecord starts streaming the session log to path, redacted.
func openRecord(path string, target session.Target, log *session.Log) (*session.Recorder, func() error, error) {
	if path == "" {
		return nil, func() error { return nil }, nil
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		return nil, nil, fmt.Errorf("--record %s: the file exists; choose another name or remove it (a record is never overwritten)", path)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("--record: %w", err)
	}
	rec, err := session.NewRecorder(f, session.NewHeader(toolName(), target.Describe()), target.Secrets())
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("--record: %w", err)
	}
	log.AddSink(rec.Write)
	return rec, func() error {
		werr := rec.Err()
		cerr := f.Close()
		if werr != nil {
			return werr
		}
		if cerr != nil {
			return fmt.Errorf("--record: %w", cerr)
		}
		return nil
	}, nil
}
