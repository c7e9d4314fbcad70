package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"mcpwitness/finding"
	"mcpwitness/fold"
	"mcpwitness/render"
	"mcpwitness/session"
)

// completeDoc is the --json document of `complete`.
type completeDoc struct {
	docHead
	Server     serverDoc         `json:"server"`
	Values     []string          `json:"values"`
	Total      *int              `json:"total"`
	HasMore    bool              `json:"hasMore"`
	Verdicts   []finding.Verdict `json:"verdicts"`
	DurationMs float64           `json:"durationMs"`
	Error      *errorObj         `json:"error"`
}

// runComplete asks for the completions of one argument: mcpwitness
// complete (--prompt NAME | --template URI) ARG=PARTIAL [k=v ...], the
// pairs after the first being the arguments already chosen. Exit codes as
// call.
func runComplete(ctx context.Context, a *app) error {
	sess, err := a.dial(ctx)
	if err != nil {
		return err
	}
	defer sess.Close()
	arg, partial, _ := strings.Cut(a.cfg.args[0], "=")
	resolved := map[string]string{}
	for _, kv := range a.cfg.args[1:] {
		k, v, _ := strings.Cut(kv, "=")
		resolved[k] = v
	}
	if !fold.ReadCaps(sess.Info().Capabilities).Completions {
		a.warn(fmt.Errorf("the server does not declare completions; asking all the same"))
	}
	ref := session.CompleteRef{Prompt: a.cfg.prompt, Template: a.cfg.template}
	r := sess.Complete(ctx, ref, arg, partial, resolved)
	doc := completeDocument(serverDocument(sess.Info()), r)
	a.show(doc, func() { a.pr.complete(doc, r) })
	return requestExit(r)
}

// completeDocument is the document of the completion r, made on server.
func completeDocument(server serverDoc, r *session.RequestResult) completeDoc {
	doc := completeDoc{docHead: headOf("complete"), Server: server, Values: []string{},
		Verdicts: append([]finding.Verdict{}, r.Verdicts...), DurationMs: durationMs(r.Ms()), Error: requestError(r)}
	var res struct {
		Completion struct {
			Values  []string `json:"values"`
			Total   *int     `json:"total"`
			HasMore bool     `json:"hasMore"`
		} `json:"completion"`
	}
	if json.Unmarshal(r.Result, &res) == nil {
		if res.Completion.Values != nil {
			doc.Values = res.Completion.Values
		}
		doc.Total, doc.HasMore = res.Completion.Total, res.Completion.HasMore
	}
	return doc
}

// complete prints a completion: the values, one a line, then the verdict.
func (p *printer) complete(doc completeDoc, r *session.RequestResult) {
	for _, v := range doc.Values {
		fmt.Fprintln(p.w, p.line(v))
	}
	more := ""
	switch {
	case doc.Total != nil && doc.HasMore:
		more = fmt.Sprintf(" of %d (more to come)", *doc.Total)
	case doc.Total != nil:
		more = fmt.Sprintf(" of %d", *doc.Total)
	case doc.HasMore:
		more = " (more to come)"
	}
	fmt.Fprintf(p.w, "\n%s%s · %s\n", counted(r, len(doc.Values), "value"), more, render.Ms(doc.DurationMs))
	p.verdicts(doc.Verdicts)
	p.failure(r)
}
