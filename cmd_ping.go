package main

import (
	"context"
	"errors"
	"fmt"
)

// pingDoc is the --json document of `ping`.
type pingDoc struct {
	Ms []float64 `json:"ms"`
}

// runPing sends ping --count times (default once) and prints each round
// trip: mcpwitness ping. A ping that fails ends it with exit 1.
func runPing(ctx context.Context, a *app) error {
	sess, err := a.dial(ctx)
	if err != nil {
		return err
	}
	defer sess.Close()
	doc := pingDoc{Ms: []float64{}}
	n := max(a.cfg.count, 1)
	for i := 1; i <= n; i++ {
		r := sess.Ping(ctx)
		if why := errorText(r); why != "" {
			// Said on stderr and, with --json, as the error document.
			return connectFailed(errors.New(why))
		}
		ms := r.Ms()
		doc.Ms = append(doc.Ms, ms)
		if !a.cfg.json && !a.cfg.ndjson {
			fmt.Fprintf(a.stdout, "ping %d: %.2f ms\n", i, ms)
		}
	}
	a.show(doc, func() {})
	return nil
}
