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
	docHead
	Server serverDoc `json:"server"`
	// Walks are keyed by method; none when the server does not declare
	// resources.
	Walks     map[string]walkDoc `json:"walks"`
	walks     []walkDoc
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
	info := sess.Info()
	l, exit := a.walkLists(ctx, sess, fold.ReadCaps(info.Capabilities).Resources, "resources", paging.Resources(), paging.ResourceTemplates())
	doc := resourcesDoc{docHead: headOf("resources"), Server: serverDocument(info), Walks: walksByMethod(l.walks), walks: l.walks, Resources: l.items[0], Templates: l.items[1], Findings: l.findings}
	a.show(doc, func() { a.pr.resources(doc) })
	return exit
}

// resources prints the resources document.
func (p *printer) resources(doc resourcesDoc) {
	p.listing(doc.Server, doc.walks, []itemSection{
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
