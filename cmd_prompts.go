package main

import (
	"context"
	"fmt"
	"strings"

	"mcpwitness/finding"
	"mcpwitness/fold"
	"mcpwitness/paging"
)

// promptsDoc is the --json document of `prompts`.
type promptsDoc struct {
	docHead
	Server serverDoc `json:"server"`
	// Walk is null when the server does not declare prompts.
	Walk     *walkDoc          `json:"walk"`
	Prompts  []itemDoc         `json:"prompts"`
	Findings []finding.Finding `json:"findings"`
}

// runPrompts walks every page of prompts/list: mcpwitness prompts. Exit
// codes as tools.
func runPrompts(ctx context.Context, a *app) error {
	sess, err := a.dial(ctx)
	if err != nil {
		return err
	}
	defer sess.Close()
	info := sess.Info()
	l, exit := a.walkLists(ctx, sess, fold.ReadCaps(info.Capabilities).Prompts, "prompts", paging.Prompts())
	doc := promptsDoc{docHead: headOf("prompts"), Server: serverDocument(info), Walk: l.walk(), Prompts: l.items[0], Findings: l.findings}
	a.show(doc, func() { a.pr.prompts(doc) })
	return exit
}

// prompts prints the prompts document: each prompt with its arguments,
// the required ones marked *.
func (p *printer) prompts(doc promptsDoc) {
	p.listing(doc.Server, walkList(doc.Walk), []itemSection{
		{head: []string{"PROMPT", "ARGUMENTS", "PAGE", "GEN", "DESCRIPTION"}, items: doc.Prompts,
			row: func(p *printer, it itemDoc) []string {
				var args []string
				for _, a := range it.Arguments {
					name := p.line(a.Name)
					if a.Required {
						name += "*"
					}
					args = append(args, name)
				}
				return []string{short(p.line(it.Name), 28), orDash(strings.Join(args, ", ")),
					fmt.Sprint(it.Page), fmt.Sprint(it.Generation), short(p.line(it.Description), 48)}
			}},
	}, doc.Findings)
}
