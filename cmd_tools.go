package main

import (
	"context"

	"mcpwitness/finding"
	"mcpwitness/fold"
	"mcpwitness/paging"
	"mcpwitness/session"
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
	folded := foldToolsLog(a.log)
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

// foldToolsLog is [foldLog] for the tools command, whose document needs no
// frame: wire events are folded without their bytes, which the fold would
// otherwise keep (and read for a note), a second copy of every page.
func foldToolsLog(log *session.Log) *logFold {
	f := &logFold{st: fold.New(nil)}
	log.AddSink(func(ev session.Event) {
		if ev.Kind == session.KindWire {
			ev.Frame = nil
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		f.st.Apply(ev)
	})
	return f
}
