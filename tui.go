package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"mcpwitness/themes"
	"mcpwitness/ui"
)

// runTUI opens the terminal UI on the target (the demo server by default).
func runTUI(ctx context.Context, cfg *config, stdout, stderr io.Writer) int {
	if cfg.json || cfg.ndjson {
		fmt.Fprintln(stderr, "mcpwitness: --json and --ndjson are for the headless commands (tools, call, check)")
		return exitUsage
	}
	if cfg.theme != "" {
		if _, ok := themes.Lookup(cfg.theme); !ok {
			fmt.Fprintf(stderr, "mcpwitness: unknown --theme %q; choose one of %s\n", cfg.theme, strings.Join(themes.Names(), ", "))
			return exitUsage
		}
	}
	target, err := resolveTarget(cfg)
	if err != nil {
		printError(stderr, cfg.target.Secrets(), err)
		return exitConnect
	}
	err = ui.Run(ctx, ui.Config{
		Target:     target,
		Session:    *sessionOptions(cfg, nil),
		Theme:      cfg.theme,
		RecordPath: cfg.record,
		Tool:       toolName(),
	})
	if err != nil {
		// The error may quote the server (its stderr, a failed record).
		printError(stderr, target.Secrets(), err)
		return exitConnect
	}
	return exitOK
}
