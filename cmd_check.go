package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"mcpwitness/checks"
	"mcpwitness/paging"
)

// checkDoc is the --json document of `check`.
type checkDoc struct {
	Server   serverDoc        `json:"server"`
	Lists    []listDoc        `json:"lists"`
	Findings []checks.Finding `json:"findings"`
}

type listDoc struct {
	Method     string `json:"method"`
	Complete   bool   `json:"complete"`
	Incomplete string `json:"incomplete"`
	Pages      int    `json:"pages"`
	Items      int    `json:"items"`
	Generation int64  `json:"generation"`
}

// runCheck walks every list the server offers and lints what it lists:
// cursor health, tool names, schemas that do not describe objects or do not
// compile, task eligibility. Errors and warnings make it exit 3.
func runCheck(ctx context.Context, cfg *config, stdout, stderr io.Writer) int {
	h, code := start(ctx, cfg, stdout, stderr)
	if code != exitOK {
		return code
	}
	info := h.sess.Info()
	doc := checkDoc{Server: serverDoc{Name: info.Name, Version: info.Version, ProtocolVersion: info.ProtocolVersion, Transport: info.Transport},
		Lists: []listDoc{}, Findings: []checks.Finding{}}
	var caps struct {
		Tools, Prompts, Resources json.RawMessage
	}
	_ = json.Unmarshal(info.Capabilities, &caps)
	methods := []paging.Method{paging.Tools()}
	if len(caps.Prompts) > 0 {
		methods = append(methods, paging.Prompts())
	}
	if len(caps.Resources) > 0 {
		methods = append(methods, paging.Resources(), paging.ResourceTemplates())
	}
	doc.Findings = append(doc.Findings, checks.LintServerText(info.Name, info.Version, info.Instructions)...)
	failed := false
	v := checks.NewValidator()
	for _, m := range methods {
		_, res := h.sess.Walk(ctx, m)
		ld := listDoc{Method: m.Name, Complete: res.Incomplete == paging.Complete, Incomplete: string(res.Incomplete),
			Pages: len(res.Pages), Generation: res.Generation}
		for _, p := range res.Pages {
			ld.Items += p.Count
		}
		doc.Lists = append(doc.Lists, ld)
		if res.Incomplete != paging.Complete {
			msg := fmt.Sprintf("the %s walk is incomplete (%s)", m.Name, res.Incomplete)
			if res.Err != nil {
				msg += ": " + res.Err.Error()
			}
			doc.Findings = append(doc.Findings, checks.Finding{Check: "walk", Severity: "error", Message: msg})
			failed = failed || res.Incomplete == paging.Failed
		}
		for _, f := range res.Findings {
			doc.Findings = append(doc.Findings, checks.Finding{Check: f.Check, Severity: f.Severity, Message: m.Name + ": " + f.Message})
		}
		kind := itemKind(m)
		for _, p := range res.Pages {
			for _, item := range p.Items {
				if m.Name == paging.Tools().Name {
					doc.Findings = append(doc.Findings, v.LintTool(item)...)
				}
				doc.Findings = append(doc.Findings, checks.LintText(kind, item)...)
			}
		}
	}
	switch {
	case cfg.json:
		_ = writeJSON(stdout, doc, h.red)
	case cfg.ndjson:
	default:
		h.pr.check(doc)
	}
	code = exitOK
	switch {
	case failed:
		code = exitConnect
	case countSeverity(doc.Findings, "error")+countSeverity(doc.Findings, "warning") > 0:
		code = exitCheck
	}
	if c := h.close(); c != exitOK && code == exitOK {
		code = c
	}
	return code
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

func countSeverity(fs []checks.Finding, sev string) int {
	n := 0
	for _, f := range fs {
		if f.Severity == sev {
			n++
		}
	}
	return n
}

func (p *printer) check(doc checkDoc) {
	p.server(doc.Server)
	fmt.Fprintln(p.w)
	for _, l := range doc.Lists {
		state := p.green("✓")
		if !l.Complete {
			state = p.red("⚠ " + l.Incomplete)
		}
		fmt.Fprintf(p.w, "%s %-26s %10s in %s\n", state, l.Method, nouns(l.Items, "item"), pagesLabel(l.Pages))
	}
	if len(doc.Findings) > 0 {
		fmt.Fprintln(p.w)
	}
	for _, f := range doc.Findings {
		mark := p.dim("i")
		switch f.Severity {
		case "error":
			mark = p.red("✗")
		case "warning":
			mark = p.yellow("⚠")
		}
		fmt.Fprintf(p.w, "%s %-18s %s\n", mark, f.Check, p.line(f.Message))
	}
	fmt.Fprintf(p.w, "\n%s · %s · %s\n", nouns(countSeverity(doc.Findings, "error"), "error"),
		nouns(countSeverity(doc.Findings, "warning"), "warning"), nouns(countSeverity(doc.Findings, "info"), "note"))
}
