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
	opts := &demo.Options{PageSize: a.cfg.pageSize, Filler: a.cfg.filler, TTLMs: a.cfg.ttlMs, Auth: a.cfg.auth}
	var err error
	if a.cfg.auth && a.cfg.httpAddr == "" {
		return usagef("demo-server --auth puts the HTTP endpoint behind OAuth: give --http ADDR too")
	}
	if a.cfg.httpAddr != "" {
		err = demo.ServeHTTP(ctx, a.cfg.httpAddr, opts, func(url string) {
			fmt.Fprintln(a.stdout, url)
			if a.cfg.auth {
				fmt.Fprintf(a.stderr, "OAuth required; dynamic registration is open, or --client-id %s --client-secret %s (also --oauth client-credentials), or --oauth client-credentials --client-id %s --client-key FILE with the demo's key (README.md)\n", demo.DemoClientID, demo.DemoClientSecret, demo.DemoJWTClientID)
			}
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
