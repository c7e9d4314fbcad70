package main

import (
	"context"

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
	if err := ui.Open(ctx, ui.OpenConfig{Path: a.cfg.args[0], Theme: a.cfg.theme, NoColor: a.cfg.noColor}); err != nil {
		return connectFailed(err)
	}
	return nil
}
