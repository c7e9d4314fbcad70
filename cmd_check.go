package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"mcpwitness/checks"
	"mcpwitness/finding"
	"mcpwitness/paging"
	"mcpwitness/session"
)

// checkDoc is the --json document of `check`: one per server.
type checkDoc struct {
	Server serverDoc `json:"server"`
	// Names are the names a --config file gives the server (several when
	// entries are one server); its config hash is Server.ConfigHash.
	Names    []string          `json:"names,omitempty"`
	Lists    []listDoc         `json:"lists"`
	Findings []finding.Finding `json:"findings"`
	// Error is why the server could not be checked (check --config).
	Error string `json:"error,omitempty"`
}

type listDoc struct {
	Method     string `json:"method"`
	Complete   bool   `json:"complete"`
	Incomplete string `json:"incomplete"`
	Pages      int    `json:"pages"`
	Items      int    `json:"items"`
	Generation int64  `json:"generation"`
	// ListChanged: the server said the list changed after the walk
	// started (the lists commands; check reads each list once).
	ListChanged bool `json:"listChanged,omitempty"`
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
	c := checkSession(ctx, sess)
	sess.Close()
	c.took = time.Since(start)
	a.show(c.doc, func() { a.pr.check(c.doc) })
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

// checkSession lints every list sess's server offers.
func checkSession(ctx context.Context, sess *session.Session) checked {
	info := sess.Info()
	c := checked{doc: checkDoc{Server: serverDocument(info), Lists: []listDoc{},
		Findings: checks.LintServerText(info.Name, info.Version, info.Instructions)}}
	v := checks.NewValidator()
	for _, m := range offeredLists(info.Capabilities) {
		_, res := sess.Walk(ctx, m)
		c.doc.Lists = append(c.doc.Lists, listDocument(m, res))
		c.doc.Findings = append(c.doc.Findings, lintList(v, m, res)...)
		c.failed = c.failed || res.Incomplete == paging.Failed
	}
	if c.doc.Findings == nil {
		c.doc.Findings = []finding.Finding{}
	}
	return c
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

func listDocument(m paging.Method, res *paging.Result) listDoc {
	ld := listDoc{Method: m.Name, Complete: res.Incomplete == paging.Complete, Incomplete: string(res.Incomplete),
		Pages: len(res.Pages), Generation: res.Generation}
	for _, p := range res.Pages {
		ld.Items += p.Count
	}
	return ld
}

// lintList is what check finds in one walk: the walk itself when it is
// incomplete, its cursor findings, and every item it listed.
func lintList(v *checks.Validator, m paging.Method, res *paging.Result) []finding.Finding {
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
	kind := itemKind(m)
	for _, p := range res.Pages {
		for _, item := range p.Items {
			if m.Name == paging.Tools().Name {
				fs = append(fs, v.LintTool(item)...)
			}
			fs = append(fs, checks.LintText(kind, item)...)
		}
	}
	return fs
}

// itemKind names one item of a list, for findings: "tool", "prompt", …
func itemKind(m paging.Method) string {
	switch m.Name {
	case paging.Tools().Name:
		return "tool"
	case paging.Prompts().Name:
		return "prompt"
	case paging.Resources().Name:
		return "resource"
	case paging.ResourceTemplates().Name:
		return "resource template"
	}
	return "item"
}

func (p *printer) check(doc checkDoc) {
	p.server(doc.Server)
	fmt.Fprintln(p.w)
	for _, l := range doc.Lists {
		state := p.green("✓")
		if !l.Complete {
			state = p.red("⚠ " + l.Incomplete)
		}
		fmt.Fprintf(p.w, "%s %-26s %10s in %s\n", state, l.Method, nouns(l.Items, "item"), nouns(l.Pages, "page"))
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
