package main

import (
	"context"
	"io"
	"os"

	"github.com/charmbracelet/x/term"

	"mcpwitness/record"
	"mcpwitness/session"
	"mcpwitness/ui"
)

// runTUI opens the terminal UI on the target (the demo server by default),
// through the session log run wired to --record and to the spool that the
// UI's export copies into the current directory (with --record, the spool
// follows the record: see [record.FollowRecord]).
func runTUI(ctx context.Context, a *app) error {
	spool := a.spool
	cfg := ui.Config{
		Target:  a.cfg.target,
		Session: interactive(sessionOptions(a.cfg, a.log, a.red)),
		Export: func(ctx context.Context) (record.Exported, error) {
			return spool.Export(ctx, ".")
		},
		Theme:   a.cfg.theme,
		NoColor: a.cfg.noColor,

		LogLevel: a.cfg.logLevel,
	}
	var err error
	if a.cfg.servers != nil {
		servers := make([]ui.Server, len(a.cfg.servers))
		for i, s := range a.cfg.servers {
			servers[i] = ui.Server{Names: s.names, Target: s.target}
		}
		err = ui.RunServers(ctx, cfg, servers)
	} else {
		err = ui.Run(ctx, cfg)
	}
	if err != nil {
		// The error may quote the server (its stderr).
		return connectFailed(err)
	}
	return nil
}

// interactive is o for the terminal UI, where a person answers the
// server's requests: the client declares sampling, elicitation (form and
// URL) and roots, which the UI edits.
func interactive(o *session.Options) session.Options {
	o.Answerer, o.EditRoots = session.NewInteractive(), true
	return *o
}

// checkTUI says why the terminal UI cannot run: it needs a terminal on
// stdin and stdout.
func checkTUI(stdin io.Reader, stdout io.Writer) error {
	in, ok := stdin.(*os.File)
	if !ok || !term.IsTerminal(in.Fd()) || !isTTY(stdout) {
		return usagef("the terminal UI needs a terminal on stdin and stdout; without one, use a headless command: mcpwitness tools, call, check, resources, read, prompts, ping (see mcpwitness --help)")
	}
	return nil
}
