package main

import (
	"context"
	"io"
)

// runTUI opens the terminal UI. Until it lands, it walks the tools
// headlessly.
func runTUI(ctx context.Context, cfg *config, stdout, stderr io.Writer) int {
	return runTools(ctx, cfg, stdout, stderr)
}
