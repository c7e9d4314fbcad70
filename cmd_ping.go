package main

import (
	"context"
	"errors"
	"fmt"
)

// pingDoc is the --json document of `ping`.
type pingDoc struct {
	docHead
	Server serverDoc `json:"server"`
	// DurationsMs are the round trips, one per ping, in milliseconds.
	DurationsMs []float64 `json:"durationsMs"`
}

// runPing sends ping --count times (default once) and prints each round
// trip: mcpwitness ping. A ping that fails ends it with exit 1.
func runPing(ctx context.Context, a *app) error {
	sess, err := a.dial(ctx)
	if err != nil {
		return err
	}
	defer sess.Close()
	doc := pingDoc{docHead: headOf("ping"), Server: serverDocument(sess.Info()), DurationsMs: []float64{}}
	n := max(a.cfg.count, 1)
	for i := 1; i <= n; i++ {
		r := sess.Ping(ctx)
		if e := requestError(r); e != nil {
			// Said on stderr and, with --json, as the error document.
			return &exitError{e.ExitCode, withCode(e.Code, errors.New(e.Message))}
		}
		ms := durationMs(r.Ms())
		doc.DurationsMs = append(doc.DurationsMs, ms)
		if !a.cfg.json && !a.cfg.ndjson {
			fmt.Fprintf(a.stdout, "ping %d: %.2f ms\n", i, ms)
		}
	}
	a.show(doc, func() {})
	return nil
}
