package main

import (
	"context"

	"mcpwitness/finding"
	"mcpwitness/fold"
	"mcpwitness/paging"
	"mcpwitness/record"
	"mcpwitness/session"
)

// runTools walks every page of tools/list and prints what came: mcpwitness
// tools. While the server says the list changed during the walk, it is
// walked again (see [settleWalks]). An incomplete walk or a cursor error exits 3; a walk that failed
// exits 1.
func runTools(ctx context.Context, a *app) error {
	sess, err := a.dial(ctx)
	if err != nil {
		return err
	}
	defer sess.Close()
	folded := foldToolsLog(a.log)
	// Nothing is called after the walk; its result is read for the exit
	// code only, so that it does not keep every page's items alive while
	// the document is written (the fold has the tools).
	st := sess.WalkSettled(ctx, paging.Tools(), &session.WalkOptions{NoCalls: true}, settleWalks(a.cfg))
	res := st.Result
	var exit error
	switch {
	case res.Incomplete == paging.Failed && (a.cfg.json || a.cfg.ndjson):
		exit = exitWith(exitConnect) // the document says why
	case res.Incomplete == paging.Failed:
		exit = connectFailed(res.Err)
	case res.Incomplete.Finding() || finding.Count(res.Findings, finding.SeverityError) > 0:
		exit = exitWith(exitCheck)
	}
	var doc toolsDoc
	folded.read(func(st *fold.State) { doc = toolsDocumentOf(sess.Info(), st) })
	doc.Walk.WalksTaken, doc.Walk.Settled = st.Walks, st.Settled
	// The document has what it needs of the fold, the walk's tool records
	// (each made a tool's document as it is written): the rest goes before
	// the document is written.
	folded.drop()
	a.show(doc, func() { a.pr.tools(doc) })
	return exit
}

// foldToolsLog is [foldLog] for the tools command, whose document needs no
// frame: wire events are folded without their bytes, which the fold would
// otherwise keep (and read for a note), a second copy of every page.
func foldToolsLog(log *record.Log) *logFold {
	f := &logFold{st: fold.New(nil)}
	log.AddSink(func(ev record.Event) {
		if ev.Kind == record.KindWire {
			ev.Frame = nil
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		if f.st != nil {
			f.st.Apply(ev)
		}
	})
	return f
}

// drop lets the fold go: events appended from now on are not folded.
func (f *logFold) drop() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.st = nil
}
