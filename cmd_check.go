package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"mcpwitness/checks"
	"mcpwitness/finding"
	"mcpwitness/paging"
	"mcpwitness/record"
	"mcpwitness/session"
)

// checkReportDoc is the --json document of `check`: one for all the
// servers checked, one entry each (one without --config).
type checkReportDoc struct {
	docHead
	Servers []checkDoc `json:"servers"`
}

// checkDoc is what check says of one server: what it listed and found, or
// the error that kept it from being checked. An entry of --config that
// could not be checked at all (it could not be dialled, or the entry
// itself is broken) has an error, empty walks and findings, and a server
// block that says only what the entry gave (its target, its config hash).
type checkDoc struct {
	// Names are the names a --config file gives the server (several when
	// entries are one server); its config hash is Server.ConfigHash.
	Names  []string  `json:"names,omitempty"`
	Server serverDoc `json:"server"`
	// Walks are the summaries of Lists keyed by method (see [checkReport]).
	Walks    map[string]walkDoc `json:"walks"`
	Lists    []walkDoc          `json:"-"`
	Findings []finding.Finding  `json:"findings"`
	// Error is why the server could not be checked.
	Error *errorObj `json:"error,omitempty"`
}

// checkReport is the document of the servers checked.
func checkReport(results []checked) checkReportDoc {
	doc := checkReportDoc{docHead: headOf("check"), Servers: make([]checkDoc, len(results))}
	for i, c := range results {
		d := c.doc
		d.Walks = walksByMethod(d.Lists)
		if d.Findings == nil {
			d.Findings = []finding.Finding{}
		}
		if c.err != nil && d.Error == nil {
			d.Error = errorObjOf(c.err, exitCode(c.err))
		}
		doc.Servers[i] = d
	}
	return doc
}

// checked is what checking one server found: its document, whether a list
// could not be read, the error that kept it from connecting, and how long
// it took.
type checked struct {
	doc    checkDoc
	failed bool
	err    error
	// broken says err is the server's config entry's: it was not dialled.
	broken bool
	took   time.Duration
}

// outcome is the exit a checked server asks for: 2 when its config entry
// is broken, 1 when it could not be reached or a list could not be read,
// 3 when it has errors or warnings.
func (c checked) outcome() int {
	switch {
	case c.broken:
		return exitUsage
	case c.err != nil || c.failed:
		return exitConnect
	case finding.Count(c.doc.Findings, finding.SeverityError)+finding.Count(c.doc.Findings, finding.SeverityWarning) > 0:
		return exitCheck
	}
	return 0
}

// runCheck walks every list the server offers and lints what it lists:
// mcpwitness check. Cursor health, tool names, schemas that do not describe
// objects or do not compile, task eligibility, unsafe text. Errors and
// warnings exit 3; a list that could not be read exits 1. With several
// servers (check --config) see [runCheckServers]; --junit FILE writes the
// findings as JUnit XML either way.
func runCheck(ctx context.Context, a *app) error {
	// Every definition's schemas are compiled: the library's first
	// compile is warmed while the servers start.
	go checks.Warm()
	junit, err := a.openJUnit()
	if err != nil {
		return err
	}
	defer junit.discard()
	if junit != nil && junit.tmp == nil {
		// stdout is the XML's: what is said to a person goes to stderr.
		a.pr.w = a.stderr
	}
	if a.cfg.servers != nil {
		return runCheckServers(ctx, a, junit)
	}
	start := time.Now()
	sess, err := a.dial(ctx)
	if err != nil {
		c := checked{err: err, took: time.Since(start)}
		return joinExit(err, a.writeJUnit(junit, []checked{c}, []string{a.cfg.target.Describe().String()}))
	}
	c := checkSession(ctx, sess, settleWalks(a.cfg))
	sess.Close()
	c.took = time.Since(start)
	a.show(checkReport([]checked{c}), func() { a.pr.check(c.doc) })
	if err := a.writeJUnit(junit, []checked{c}, []string{c.doc.Server.Name}); err != nil {
		return err
	}
	switch c.outcome() {
	case exitConnect:
		return exitWith(exitConnect) // the walk finding says why
	case exitCheck:
		return exitWith(exitCheck)
	}
	return nil
}

// checkSession lints every list sess's server offers, each walk settled
// (see [session.Session.WalkSettled]) within walks walks, and what its
// stdout carried that is not JSON-RPC. Each finding is also an event of
// sess's log, so that --record, --ndjson and report carry it.
func checkSession(ctx context.Context, sess *session.Session, walks int) checked {
	info := sess.Info()
	c := checked{doc: checkDoc{Server: serverDocument(info), Lists: []walkDoc{},
		Findings: checks.LintServerText(info.Name, info.Version, info.Instructions)}}
	v := checks.NewValidator()
	for _, m := range offeredLists(info.Capabilities) {
		st := sess.WalkSettled(ctx, m, nil, walks)
		ld, fs, failed := checkList(v, info, m, st)
		c.doc.Lists = append(c.doc.Lists, ld)
		c.doc.Findings = append(c.doc.Findings, fs...)
		c.failed = c.failed || failed
	}
	if f, ok := noiseFinding(info.Transport, sess.NotJSONRPC()); ok {
		c.doc.Findings = append(c.doc.Findings, f)
	}
	if c.doc.Findings == nil {
		c.doc.Findings = []finding.Finding{}
	}
	for _, f := range c.doc.Findings {
		sess.Log().Append(record.Event{Kind: record.KindFinding, Finding: &f})
	}
	return c
}

// checkList is what check says of the settled walk st of list m: its
// document, its findings, and whether it could not be read. An optional
// list the server does not offer (-32601) is a warning, not a failure.
func checkList(v *checks.Validator, info record.ServerInfo, m paging.Method, st session.Settled) (walkDoc, []finding.Finding, bool) {
	ld := listDocument(m, st)
	res := st.Result
	if optionalList(m, info.Capabilities) && res.Incomplete == paging.Failed && session.NotOffered(res.Err) {
		ld.NotOffered, ld.Error = true, nil
		return ld, []finding.Finding{{Check: "not-offered", Severity: finding.SeverityWarning,
			Message: fmt.Sprintf("%s: the server does not offer this optional method (method not found, -32601); nothing was listed", m.Name)}}, false
	}
	fs := append(lintList(v, info.ProtocolVersion, m, res), settleFindings(m, st)...)
	return ld, fs, res.Incomplete == paging.Failed
}

// optionalList reports whether a server with capabilities may leave list m
// out: resource templates always, tools when it does not declare them.
func optionalList(m paging.Method, capabilities json.RawMessage) bool {
	switch m.Name {
	case paging.ResourceTemplates().Name:
		return true
	case paging.Tools().Name:
		var caps struct{ Tools json.RawMessage }
		_ = json.Unmarshal(capabilities, &caps)
		return len(caps.Tools) == 0
	}
	return false
}

// settleFindings say that the server changed list m while it was walked: a
// warning when no walk of st held still (what was checked may be out of
// date), a note when one did.
func settleFindings(m paging.Method, st session.Settled) []finding.Finding {
	switch {
	case !st.Changed || st.Result.Incomplete != paging.Complete:
		return nil
	case !st.Settled && st.Walks == 1:
		return []finding.Finding{{Check: "list-changed", Severity: finding.SeverityWarning,
			Message: m.Name + ": the server said the list changed while it was walked; what was checked may be out of date (not walked again: --no-settle)"}}
	case !st.Settled:
		return []finding.Finding{{Check: "list-changed", Severity: finding.SeverityWarning,
			Message: fmt.Sprintf("%s: the server said the list changed during each of %d walks; what was checked may be out of date", m.Name, st.Walks)}}
	}
	return []finding.Finding{{Check: "list-changed", Severity: finding.SeverityInfo,
		Message: fmt.Sprintf("%s: the server said the list changed while it was walked; it held still on walk %d, which was checked", m.Name, st.Walks)}}
}

// noiseFinding is the finding of what a server sent that is not JSON-RPC,
// if it sent any: on stdio, lines of its stdout a client drops or dies of.
func noiseFinding(transport string, n session.Noise) (finding.Finding, bool) {
	if n.Count == 0 {
		return finding.Finding{}, false
	}
	msg := "the server sent " + n.Text("frame")
	if transport == "stdio" {
		msg = "the server wrote " + n.Text("line") + " to stdout: a stdio server writes only JSON-RPC there (logs go to stderr)"
	}
	return finding.Finding{Check: "not-json-rpc", Severity: finding.SeverityError, Message: msg}, true
}

// offeredLists are the lists a server with these capabilities offers:
// tools always, prompts, resources and resource templates when declared.
func offeredLists(capabilities json.RawMessage) []paging.Method {
	var caps struct {
		Tools, Prompts, Resources json.RawMessage
	}
	_ = json.Unmarshal(capabilities, &caps)
	methods := []paging.Method{paging.Tools()}
	if len(caps.Prompts) > 0 {
		methods = append(methods, paging.Prompts())
	}
	if len(caps.Resources) > 0 {
		methods = append(methods, paging.Resources(), paging.ResourceTemplates())
	}
	return methods
}

// listDocument is check's summary of the settled walk st of list m.
func listDocument(m paging.Method, st session.Settled) walkDoc {
	ld := walkResultDoc(m, st.Result)
	ld.WalksTaken, ld.Settled = st.Walks, st.Settled
	return ld
}

// lintList is what check finds in one walk: the walk itself when it is
// incomplete, its cursor findings, and every item it listed, linted as the
// negotiated protocol revision asks.
func lintList(v *checks.Validator, protocol string, m paging.Method, res *paging.Result) []finding.Finding {
	var fs []finding.Finding
	if res.Incomplete != paging.Complete {
		msg := fmt.Sprintf("the %s walk is incomplete (%s)", m.Name, res.Incomplete)
		if res.Err != nil {
			msg += ": " + res.Err.Error()
		}
		fs = append(fs, finding.Finding{Check: "walk", Severity: finding.SeverityError, Message: msg})
	}
	for _, f := range res.Findings {
		fs = append(fs, finding.Finding{Check: f.Check, Severity: f.Severity, Message: m.Name + ": " + f.Message})
	}
	kind := m.Item
	for _, p := range res.Pages {
		for _, item := range p.Items {
			if m.Name == paging.Tools().Name {
				fs = append(fs, v.LintToolAt(item, protocol)...)
			}
			fs = append(fs, checks.LintText(kind, item)...)
		}
	}
	return fs
}

func (p *printer) check(doc checkDoc) {
	p.server(doc.Server)
	fmt.Fprintln(p.w)
	for _, l := range doc.Lists {
		state := p.green("✓")
		switch {
		case l.NotOffered:
			fmt.Fprintf(p.w, "%s %-26s %s\n", p.dim("–"), l.Method, p.dim("not offered"))
			continue
		case !l.Complete:
			state = p.red("⚠ " + l.Incomplete)
		}
		fmt.Fprintf(p.w, "%s %-26s %10s in %s%s\n", state, l.Method, nouns(l.Items, "item"), nouns(l.Pages, "page"), p.walksNote(l))
	}
	if len(doc.Findings) > 0 {
		fmt.Fprintln(p.w)
	}
	for _, f := range doc.Findings {
		fmt.Fprintf(p.w, "%s %-18s %s\n", p.severity(f.Severity), f.Check, p.line(f.Message))
	}
	fmt.Fprintf(p.w, "\n%s · %s · %s\n", nouns(finding.Count(doc.Findings, finding.SeverityError), "error"),
		nouns(finding.Count(doc.Findings, finding.SeverityWarning), "warning"), nouns(finding.Count(doc.Findings, finding.SeverityInfo), "note"))
}

// settleWalks is how many walks a headless walk takes at most to settle:
// [session.SettleWalks], or one with --no-settle.
func settleWalks(cfg *config) int {
	if cfg.noSettle {
		return 1
	}
	return session.SettleWalks
}

// walksNote says, after a list's line, how many walks it took when it
// took more than one, and that it did not settle.
func (p *printer) walksNote(l walkDoc) string {
	switch {
	case l.WalksTaken > 1 && l.Settled:
		return p.dim(fmt.Sprintf(" · settled on walk %d", l.WalksTaken))
	case l.WalksTaken > 1:
		return p.yellow(fmt.Sprintf(" · not settled after %d walks", l.WalksTaken))
	}
	return ""
}
