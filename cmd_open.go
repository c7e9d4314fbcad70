package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"mcpwitness/themes"
	"mcpwitness/ui"
)

// runOpen replays a session file in the terminal UI, read-only and with no
// server: mcpwitness open FILE. A file that cannot be opened is reported on
// stderr, exit 1, before the screen changes.
func runOpen(ctx context.Context, cfg *config, _, stderr io.Writer) int {
	if err := fileCommand(cfg, 1, "open needs one session file: mcpwitness open FILE"); err != nil {
		printError(stderr, nil, err)
		return exitUsage
	}
	if cfg.json || cfg.ndjson {
		fmt.Fprintln(stderr, "mcpwitness: open shows the terminal UI; --json and --ndjson are not for it (report and diff read files headless)")
		return exitUsage
	}
	if cfg.theme != "" {
		if _, ok := themes.Lookup(cfg.theme); !ok {
			fmt.Fprintf(stderr, "mcpwitness: unknown --theme %q; choose one of %s\n", cfg.theme, strings.Join(themes.Names(), ", "))
			return exitUsage
		}
	}
	if err := ui.Open(ctx, ui.OpenConfig{Path: cfg.args[0], Theme: cfg.theme}); err != nil {
		printError(stderr, nil, err)
		return exitConnect
	}
	return exitOK
}
