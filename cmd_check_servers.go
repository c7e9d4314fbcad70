package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"mcpwitness/checks"
	"mcpwitness/finding"
	"mcpwitness/record"
	"mcpwitness/session"
)

// checkParallel bounds how many servers check --config lints at once.
const checkParallel = 4

// runCheckServers lints every server of --config (those --server names),
// at most [checkParallel] at once, each with a log of its own: one summary
// line per server (and its errors and warnings under it), or with --json
// one document per server. An entry that could not be read (an unset
// variable, a bad value) is that server's result, and the others are
// still checked. The exit is the worst of the servers': 2 when an entry is
// broken, else 1 when any server could not be reached or had a list that
// could not be read — its findings are then unknown, which CI must not
// take for a pass — else 3 when any has errors or warnings, else 0.
func runCheckServers(ctx context.Context, a *app, junit *junitOut) error {
	servers := a.cfg.servers
	results := make([]checked, len(servers))
	sem := make(chan struct{}, checkParallel)
	var wg sync.WaitGroup
	for i, s := range servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			if s.err != nil {
				results[i] = brokenEntry(s)
				return
			}
			results[i] = checkServer(ctx, a.cfg, s, a.red)
		}()
	}
	wg.Wait()
	exit := 0
	names := make([]string, len(servers))
	for i, s := range servers {
		names[i] = s.name()
		c := results[i]
		if !a.cfg.json {
			a.pr.checkSummary(s, c, a.red)
		}
		exit = worseExit(exit, c.outcome())
	}
	if a.cfg.json {
		if err := writeJSON(a.stdout, checkReport(results), a.red); err != nil {
			a.stdout.fail(fmt.Errorf("writing the --json document: %w", err))
		}
	} else {
		a.pr.checkTotals(results)
	}
	if err := a.writeJUnit(junit, results, names); err != nil {
		return err
	}
	if exit != 0 {
		return exitWith(exit)
	}
	return nil
}

// worseExit is the worse of two servers' exits: a broken entry (2), then
// a server not reached or not read whole (1), then findings (3), then 0.
func worseExit(a, b int) int {
	rank := func(code int) int {
		switch code {
		case exitUsage:
			return 3
		case exitConnect:
			return 2
		case exitCheck:
			return 1
		}
		return 0
	}
	if rank(b) > rank(a) {
		return b
	}
	return a
}

// brokenEntry is the result of a server whose config entry could not be
// read: it is not dialled, and its error is its document's and the JUnit
// suite's.
func brokenEntry(s configServer) checked {
	doc := checkDoc{Server: serverDoc{Name: s.name()}, Names: s.names, Lists: []walkDoc{}, Findings: []finding.Finding{},
		Error: &errorObj{Code: codeUsage, Message: s.err.Error(), ExitCode: exitUsage}}
	return checked{doc: doc, err: s.err, broken: true}
}

// checkServer connects to one server of --config and lints it, adding
// the credentials it obtains to red.
func checkServer(ctx context.Context, cfg *config, s configServer, red *record.Redactor) checked {
	start := time.Now()
	log := record.NewLog(nil)
	defer log.Close()
	doc := checkDoc{Server: serverDoc{Target: s.target.Describe().String()}, Names: s.names, Lists: []walkDoc{}, Findings: []finding.Finding{}}
	if s.target.Identity != nil {
		doc.Server.ConfigHash = s.target.Identity.Hash
	}
	sess, err := session.Dial(ctx, s.target, sessionOptions(cfg, log, red))
	if err != nil {
		doc.Error = errorObjOf(err, exitConnect)
		return checked{doc: doc, err: err, took: time.Since(start)}
	}
	if level := cfg.logLevel; level != "" {
		// As for one server; a refusal is the server's business here.
		sess.SetLogLevel(ctx, level)
	}
	c := checkSession(ctx, sess, settleWalks(cfg))
	sess.Close()
	c.doc.Names = s.names
	c.took = time.Since(start)
	return c
}

// writeJUnit writes the --junit report to junit, if asked for: one suite
// per server, named by names.
func (a *app) writeJUnit(junit *junitOut, results []checked, names []string) error {
	if junit == nil {
		return nil
	}
	suites := make([]checks.JUnitSuite, len(results))
	for i, c := range results {
		s := checks.JUnitSuite{Name: a.red.String(names[i]), Findings: maskedFindings(a.red, c.doc.Findings), Err: maskedError(a.red, c.err), Duration: c.took}
		if c.broken {
			s.ErrCase = "config"
		}
		if c.doc.Server.ConfigHash != "" {
			s.Properties = append(s.Properties, [2]string{"configHash", c.doc.Server.ConfigHash})
		}
		if c.doc.Server.Version != "" {
			s.Properties = append(s.Properties, [2]string{"serverVersion", c.doc.Server.Version})
		}
		suites[i] = s
	}
	return junit.write(a, suites)
}

// checkSummary prints one server's line of check --config, and its errors
// and warnings indented under it. red holds that server's secrets.
func (p *printer) checkSummary(s configServer, c checked, red *record.Redactor) {
	safe := func(text string) string { return p.line(red.String(text)) }
	name := p.bold(safe(s.name()))
	hash := ""
	if c.doc.Server.ConfigHash != "" {
		hash = " · config " + c.doc.Server.ConfigHash[:12]
	}
	if c.broken {
		fmt.Fprintf(p.w, "%s %s · broken config entry: %s\n", p.red("✗"), name, safe(c.err.Error()))
		return
	}
	if c.err != nil {
		// The cause on the server's line; what it quotes (the last lines of
		// a stdio server's stderr) under it, a line each.
		first, quoted, _ := strings.Cut(red.String(c.err.Error()), "\n")
		fmt.Fprintf(p.w, "%s %s%s · could not connect: %s\n", p.red("✗"), name, hash, p.line(first))
		for l := range strings.SplitSeq(quoted, "\n") {
			if strings.TrimSpace(l) != "" {
				fmt.Fprintf(p.w, "    %s\n", p.line(l))
			}
		}
		return
	}
	mark := p.green("✓")
	switch c.outcome() {
	case exitConnect:
		mark = p.red("✗")
	case exitCheck:
		mark = p.red("⚠")
	}
	items := 0
	incomplete := []string{}
	for _, l := range c.doc.Lists {
		items += l.Items
		if !l.Complete {
			incomplete = append(incomplete, l.Method+" "+l.Incomplete)
		}
	}
	server := strings.TrimSpace(safe(c.doc.Server.Name + " " + c.doc.Server.Version))
	line := fmt.Sprintf("%s %s%s · %s · %s in %s · %s · %s · %s", mark, name, hash, server,
		nouns(items, "item"), nouns(len(c.doc.Lists), "list"),
		nouns(finding.Count(c.doc.Findings, finding.SeverityError), "error"),
		nouns(finding.Count(c.doc.Findings, finding.SeverityWarning), "warning"),
		nouns(finding.Count(c.doc.Findings, finding.SeverityInfo), "note"))
	if len(incomplete) > 0 {
		line += " · incomplete: " + strings.Join(incomplete, ", ")
	}
	fmt.Fprintln(p.w, line)
	for _, f := range c.doc.Findings {
		if f.Severity != finding.SeverityInfo {
			fmt.Fprintf(p.w, "    %s %-18s %s\n", p.severity(f.Severity), f.Check, safe(f.Message))
		}
	}
}

// checkTotals closes check --config's output with a count of servers.
func (p *printer) checkTotals(results []checked) {
	var ok, findings, unreachable, broken int
	for _, c := range results {
		switch c.outcome() {
		case 0:
			ok++
		case exitCheck:
			findings++
		case exitUsage:
			broken++
		default:
			unreachable++
		}
	}
	line := fmt.Sprintf("\n%s · %d clean · %d with findings · %d not reached or not read whole",
		nouns(len(results), "server"), ok, findings, unreachable)
	if broken > 0 {
		line += fmt.Sprintf(" · %d broken config %s", broken, plural(broken, "entry", "entries"))
	}
	fmt.Fprintln(p.w, line)
}

// maskedFindings returns found with every secret red knows masked in
// their text; found itself when none held one.
func maskedFindings(red *record.Redactor, found []finding.Finding) []finding.Finding {
	b, err := json.Marshal(found)
	if err != nil {
		return found
	}
	out := red.JSON(b)
	if bytes.Equal(out, b) {
		return found
	}
	var masked []finding.Finding
	if json.Unmarshal(out, &masked) != nil {
		return found
	}
	return masked
}

// maskedError is err with every secret red knows masked in its text.
func maskedError(red *record.Redactor, err error) error {
	if err == nil {
		return nil
	}
	if text := red.String(err.Error()); text != err.Error() {
		return errors.New(text)
	}
	return err
}
