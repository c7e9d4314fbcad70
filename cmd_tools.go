package main

import (
	"context"

	"mcpwitness/finding"
	"mcpwitness/fold"
	"mcpwitness/paging"
)

// runTools walks every page of tools/list and prints what came: mcpwitness
// tools. An incomplete walk or a cursor error exits 3; a walk that failed
// exits 1.
func runTools(ctx context.Context, a *app) error {
	sess, err := a.dial(ctx)
	if err != nil {
		return err
	}
	defer sess.Close()
	folded := foldLog(a.log)
	_, res := sess.Walk(ctx, paging.Tools())
	var doc toolsDoc
	folded.read(func(st *fold.State) { doc = toolsDocument(sess.Info(), st) })
	a.show(doc, func() { a.pr.tools(doc) })
	switch {
	case res.Incomplete == paging.Failed && (a.cfg.json || a.cfg.ndjson):
		return exitWith(exitConnect) // the document says why
	case res.Incomplete == paging.Failed:
		return connectFailed(res.Err)
	case res.Incomplete != paging.Complete || finding.Count(res.Findings, finding.SeverityError) > 0:
		return exitWith(exitCheck)
	}
	return nil
}
