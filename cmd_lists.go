package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"mcpwitness/checks"
	"mcpwitness/finding"
	"mcpwitness/fold"
	"mcpwitness/paging"
	"mcpwitness/record"
	"mcpwitness/session"
)

// itemDoc is one item of a list other than tools in --json: its fields as
// listed, where and when it came, and the definition as the server sent it.
type itemDoc struct {
	Name        string                  `json:"name"`
	Title       string                  `json:"title,omitempty"`
	Description string                  `json:"description,omitempty"`
	URI         string                  `json:"uri,omitempty"`
	URITemplate string                  `json:"uriTemplate,omitempty"`
	MIMEType    string                  `json:"mimeType,omitempty"`
	Size        *int64                  `json:"size,omitempty"`
	Arguments   []checks.PromptArgument `json:"arguments,omitempty"`
	Page        int                     `json:"page"`
	Generation  int64                   `json:"generation"`
	Held        bool                    `json:"held"`
	Definition  json.RawMessage         `json:"definition"`
}

// lists is what a lists command read of its walks: each list's walk and
// items, in the order of its methods, and the findings of them all.
type lists struct {
	walks    []walkDoc
	items    [][]itemDoc
	findings []finding.Finding
}

// walkLists walks each of methods in turn, the lists of capability
// (resources, prompts), and reads what the lists documents say of them
// from the fold. When the server does not declare capability nothing is
// asked and a finding says so. The error is the command's exit: see
// [app.listsExit].
func (a *app) walkLists(ctx context.Context, sess *session.Session, declared bool, capability string, methods ...paging.Method) (lists, error) {
	l := lists{walks: []walkDoc{}, findings: []finding.Finding{}}
	if !declared {
		for range methods {
			l.items = append(l.items, []itemDoc{})
		}
		l.findings = append(l.findings, finding.Finding{Check: "capability", Severity: finding.SeverityInfo,
			Message: "the server does not declare " + capability + "; nothing was listed"})
		return l, nil
	}
	folded := foldLog(a.log)
	var failed, bad bool
	var err error
	settled := make([]session.Settled, len(methods))
	for i, m := range methods {
		settled[i] = sess.WalkSettled(ctx, m, nil, settleWalks(a.cfg))
		res := settled[i].Result
		switch {
		case optional(m) && res.Incomplete == paging.Failed && session.NotOffered(res.Err):
			l.findings = append(l.findings, finding.Finding{Check: "not-offered", Severity: finding.SeverityInfo,
				Message: m.Name + ": the server does not offer this optional method (method not found, -32601); nothing was listed"})
		case res.Incomplete == paging.Failed:
			failed = true
			if err == nil {
				err = res.Err
			}
		case res.Incomplete != paging.Complete || finding.Count(res.Findings, finding.SeverityError) > 0:
			bad = true
		}
	}
	folded.read(func(st *fold.State) {
		for i, m := range methods {
			w := st.Latest(m.Name)
			ld := walkDocOf(m.Name, w)
			ld.WalksTaken, ld.Settled = settled[i].Walks, settled[i].Settled
			if optional(m) && session.NotOffered(settled[i].Result.Err) {
				ld.NotOffered, ld.Error = true, nil
				l.walks = append(l.walks, ld)
				l.items = append(l.items, []itemDoc{})
				continue
			}
			l.walks = append(l.walks, ld)
			l.findings = append(l.findings, walkFindings(m.Name, w)...)
			l.items = append(l.items, itemDocs(st, w))
		}
	})
	return l, a.listsExit(failed, bad, err)
}

// optional reports whether a server that declares the capability of list
// m may still leave m out: resource templates.
func optional(m paging.Method) bool { return m.Name == paging.ResourceTemplates().Name }

// listsExit maps the walks of a lists command to its exit code, as tools
// does: 1 when a walk failed (the document says why with --json), 3 when
// one was incomplete or had cursor errors.
func (a *app) listsExit(failed, bad bool, err error) error {
	switch {
	case failed && (a.cfg.json || a.cfg.ndjson):
		return exitWith(exitConnect)
	case failed:
		return connectFailed(err)
	case bad:
		return exitWith(exitCheck)
	}
	return nil
}

// walk is the summary of the one list l walked: nil when it walked none
// (the server does not declare the list).
func (l lists) walk() *walkDoc {
	if len(l.walks) == 0 {
		return nil
	}
	return &l.walks[0]
}

// walksByMethod are the summaries of walks keyed by their lists' methods,
// as documents that walk several lists give them.
func walksByMethod(walks []walkDoc) map[string]walkDoc {
	m := make(map[string]walkDoc, len(walks))
	for _, w := range walks {
		m[w.Method] = w
	}
	return m
}

// walkList is the one walk w as a list, for the printer: empty when nil.
func walkList(w *walkDoc) []walkDoc {
	if w == nil {
		return nil
	}
	return []walkDoc{*w}
}

// itemDocs are the items of walk w as the fold has them.
func itemDocs(st *fold.State, w *fold.Walk) []itemDoc {
	docs := []itemDoc{}
	held := st.Held(w)
	for _, it := range st.Items(w) {
		docs = append(docs, itemDoc{Name: it.Name, Title: it.Title, Description: it.Description, URI: it.URI,
			URITemplate: it.URITemplate, MIMEType: it.MIMEType, Size: it.Size, Arguments: it.Arguments,
			Page: it.Page, Generation: it.Gen, Held: held, Definition: it.Raw})
	}
	return docs
}

// walkFindings are the findings of walk w, each naming its list, and one
// more when the walk did not read every page.
func walkFindings(method string, w *fold.Walk) []finding.Finding {
	var fs []finding.Finding
	if w == nil {
		return fs
	}
	if w.Done && w.Incomplete != paging.Complete {
		msg := fmt.Sprintf("the %s walk is incomplete (%s)", method, w.Incomplete)
		if w.Err != "" {
			msg += ": " + w.Err
		}
		fs = append(fs, finding.Finding{Check: "walk", Severity: finding.SeverityError, Message: msg})
	}
	for _, f := range w.Findings {
		fs = append(fs, finding.Finding{Check: f.Check, Severity: f.Severity, Message: method + ": " + f.Message})
	}
	return fs
}

// requestExit maps a request to the exit codes of call: 1 when it could
// not be made or the server answered with an error, 3 when a check refused
// it or did not pass. As for call, the request's document has said why.
func requestExit(r *session.RequestResult) error {
	if r.Refused() {
		return exitWith(exitCheck)
	}
	if r.Err != nil || len(r.RPCError) > 0 {
		return exitWith(exitConnect)
	}
	for _, v := range r.Verdicts {
		switch v.Status {
		case finding.Fail, finding.Refused, finding.Unchecked:
			return exitWith(exitCheck)
		}
	}
	return nil
}

// errorText is what the documents say went wrong with a request: its
// failure or the server's JSON-RPC error ("" when neither).
func errorText(r *session.RequestResult) string {
	switch {
	case r.Err != nil:
		return r.Err.Error()
	case len(r.RPCError) > 0:
		return "the server answered with an error: " + record.RPCErrorText(r.RPCError)
	}
	return ""
}

// listing prints the walks and items of a lists command.
func (p *printer) listing(server serverDoc, walks []walkDoc, sections []itemSection, findings []finding.Finding) {
	p.server(server)
	for _, sec := range sections {
		if len(walks) == 0 {
			break // the server declares none of these lists: no empty tables
		}
		fmt.Fprintln(p.w)
		tw := tabwriter.NewWriter(p.w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, p.dim(strings.Join(sec.head, "\t")))
		for _, it := range sec.items {
			fmt.Fprintln(tw, strings.Join(sec.row(p, it), "\t"))
		}
		tw.Flush()
	}
	if len(findings) > 0 {
		fmt.Fprintln(p.w)
		for _, f := range findings {
			fmt.Fprintf(p.w, "%s %s: %s\n", p.severity(f.Severity), f.Check, p.line(f.Message))
		}
	}
	fmt.Fprintln(p.w)
	for _, w := range walks {
		state := p.green("✓ complete")
		if !w.Complete {
			state = p.red("⚠ incomplete: " + w.Incomplete)
		}
		if w.NotOffered {
			fmt.Fprintf(p.w, "%s %s\n", w.Method, p.dim("– not offered by the server"))
			continue
		}
		fmt.Fprintf(p.w, "%s %s · %s · %s · gen %d%s\n", w.Method, state, nouns(w.Items, "item"), nouns(w.Pages, "page"), w.Generation, p.walksNote(w))
		if w.ListChanged {
			fmt.Fprintln(p.w, p.yellow(changedSince(w.Method)))
		}
	}
}

// itemSection is one table of a listing: its heading and how a row reads.
type itemSection struct {
	head  []string
	items []itemDoc
	row   func(p *printer, it itemDoc) []string
}

// failure prints why a request has no answer, if it has none.
func (p *printer) failure(r *session.RequestResult) {
	switch {
	case r.Refused():
		fmt.Fprintf(p.w, "\n%s\n", p.dim("Nothing was sent. --force sends it anyway, to see the server's own answer."))
	case r.Err != nil:
		fmt.Fprintf(p.w, "\n%s %s\n", p.red("error:"), p.text(r.Err.Error()))
	case len(r.RPCError) > 0:
		fmt.Fprintf(p.w, "\n%s %s\n", p.red("the server answered with an error:"), p.text(record.RPCErrorText(r.RPCError)))
	}
	for _, f := range r.Findings {
		fmt.Fprintf(p.w, "%s %s\n", p.yellow("⚠"), p.line(f.Message))
	}
}

// orDash is s, or "-" when it is empty.
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
