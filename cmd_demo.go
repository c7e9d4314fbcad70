package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"mcpwitness/demo"
)

// runDemoServer serves the embedded demo server over stdio, or over
// Streamable HTTP with --http ADDR (the URL is printed when it listens):
// mcpwitness demo-server.
func runDemoServer(ctx context.Context, a *app) error {
	opts := &demo.Options{PageSize: a.cfg.pageSize, Filler: a.cfg.filler, TTLMs: a.cfg.ttlMs}
	var err error
	if a.cfg.httpAddr != "" {
		err = demo.ServeHTTP(ctx, a.cfg.httpAddr, opts, func(url string) {
			fmt.Fprintln(a.stdout, url)
			if f, ok := a.stdout.w.(*os.File); ok {
				_ = f.Sync()
			}
		})
	} else {
		err = demo.ServeStdio(ctx, opts)
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		return connectFailed(fmt.Errorf("demo-server: %w", err))
	}
	return nil
}
