package main

import (
	"context"
	"os"

	"mcpwitness/ui"
)

// runOpen replays a session file in the terminal UI, read-only and with no
// server: mcpwitness open FILE. A file that cannot be opened is reported on
// stderr, exit 1, before the screen changes.
func runOpen(ctx context.Context, a *app) error {
	if err := fileCommand(a.cfg, 1, "open needs one session file: mcpwitness open FILE"); err != nil {
		return err
	}
	if a.cfg.json || a.cfg.ndjson {
		return usagef("open shows the terminal UI; --json and --ndjson are not for it (report and diff read files headless)")
	}
	noTerminal := error(nil)
	cfg := ui.OpenConfig{Path: a.cfg.args[0], Theme: a.cfg.theme, NoColor: a.cfg.noColor, Terminal: func() error {
		if checkTUI(os.Stdin, a.stdout.w) != nil {
			noTerminal = usagef("open draws the terminal UI and needs a terminal on stdin and stdout; without one, read the file headless: mcpwitness report %s", a.cfg.args[0])
		}
		return noTerminal
	}}
	if err := ui.Open(ctx, cfg); err != nil {
		if noTerminal != nil {
			return noTerminal
		}
		return connectFailed(err)
	}
	return nil
}
