package main

import (
	"context"

	"mcpwitness/ui"
)

// runTUI opens the terminal UI on the target (the demo server by default).
// The UI opens --record itself.
func runTUI(ctx context.Context, a *app) error {
	if a.cfg.json || a.cfg.ndjson {
		return usagef("--json and --ndjson are for the headless commands (tools, call, check)")
	}
	err := ui.Run(ctx, ui.Config{
		Target:     a.cfg.target,
		Session:    *sessionOptions(a.cfg, nil),
		Theme:      a.cfg.theme,
		RecordPath: a.cfg.record,
		Tool:       toolName(),
	})
	if err != nil {
		// The error may quote the server (its stderr, a failed record).
		return connectFailed(err)
	}
	return nil
}
