package main

import (
	"context"
	"fmt"

	"mcpwitness/finding"
	"mcpwitness/fold"
	"mcpwitness/paging"
)

// resourcesDoc is the --json document of `resources`.
type resourcesDoc struct {
	Server    serverDoc         `json:"server"`
	Walks     []listDoc         `json:"walks"`
	Resources []itemDoc         `json:"resources"`
	Templates []itemDoc         `json:"templates"`
	Findings  []finding.Finding `json:"findings"`
}

// runResources walks every page of resources/list and
// resources/templates/list: mcpwitness resources. Exit codes as tools.
func runResources(ctx context.Context, a *app) error {
	sess, err := a.dial(ctx)
	if err != nil {
		return err
	}
	defer sess.Close()
	folded := foldLog(a.log)
	info := sess.Info()
	doc := resourcesDoc{Server: serverDocument(info), Walks: []listDoc{}, Resources: []itemDoc{}, Templates: []itemDoc{}, Findings: []finding.Finding{}}
	methods := []paging.Method{paging.Resources(), paging.ResourceTemplates()}
	if !declares(info, "resources", "") {
		doc.Findings = append(doc.Findings, finding.Finding{Check: "capability", Severity: finding.SeverityInfo,
			Message: "the server does not declare resources; nothing was listed"})
		a.show(doc, func() { a.pr.resources(doc) })
		return nil
	}
	failed, bad, werr := walkLists(ctx, sess, methods)
	folded.read(func(st *fold.State) {
		for _, m := range methods {
			w := st.Latest(m.Name)
			doc.Walks = append(doc.Walks, listDocOf(m.Name, w))
			doc.Findings = append(doc.Findings, walkFindings(m.Name, w)...)
		}
		doc.Resources = itemDocs(st, st.Latest(paging.Resources().Name))
		doc.Templates = itemDocs(st, st.Latest(paging.ResourceTemplates().Name))
	})
	a.show(doc, func() { a.pr.resources(doc) })
	return a.listsExit(failed, bad, werr)
}

// resources prints the resources document.
func (p *printer) resources(doc resourcesDoc) {
	p.listing(doc.Server, doc.Walks, []itemSection{
		{head: []string{"RESOURCE", "URI", "TYPE", "SIZE", "PAGE", "GEN"}, items: doc.Resources,
			row: func(p *printer, it itemDoc) []string {
				size := "-"
				if it.Size != nil {
					size = byteCount(int(*it.Size))
				}
				return []string{short(p.line(it.Name), 28), short(p.line(it.URI), 48), orDash(p.line(it.MIMEType)), size,
					fmt.Sprint(it.Page), fmt.Sprint(it.Generation)}
			}},
		{head: []string{"TEMPLATE", "URI TEMPLATE", "TYPE", "PAGE", "GEN"}, items: doc.Templates,
			row: func(p *printer, it itemDoc) []string {
				return []string{short(p.line(it.Name), 28), short(p.line(it.URITemplate), 48), orDash(p.line(it.MIMEType)),
					fmt.Sprint(it.Page), fmt.Sprint(it.Generation)}
			}},
	}, doc.Findings)
}
