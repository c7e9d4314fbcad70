package main

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"mcpwitness/checks"
	"mcpwitness/session"
)

// printer writes the human output of the headless commands: aligned, and
// coloured only when asked.
type printer struct {
	w     io.Writer
	color bool
}

func newPrinter(w io.Writer, color bool) *printer { return &printer{w: w, color: color} }

func (p *printer) paint(code, s string) string {
	if !p.color || s == "" {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

func (p *printer) bold(s string) string   { return p.paint("1", s) }
func (p *printer) dim(s string) string    { return p.paint("2", s) }
func (p *printer) green(s string) string  { return p.paint("32", s) }
func (p *printer) red(s string) string    { return p.paint("31", s) }
func (p *printer) yellow(s string) string { return p.paint("33", s) }

func (p *printer) server(s serverDoc) {
	fmt.Fprintf(p.w, "%s %s · protocol %s · %s\n", p.bold(s.Name), s.Version, s.ProtocolVersion, s.Transport)
}

func (p *printer) tools(doc toolsDoc) {
	p.server(doc.Server)
	fmt.Fprintln(p.w)
	tw := tabwriter.NewWriter(p.w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, p.dim("PAGE\tITEMS\tMS\tTTL\tGEN\tNEXT CURSOR"))
	for _, pg := range doc.Pages {
		ttl := "-"
		if pg.TTLMs != nil {
			ttl = fmt.Sprintf("%d ms", *pg.TTLMs)
		}
		fmt.Fprintf(tw, "%d\t%d\t%.1f\t%s\t%d\t%s\n", pg.Page, pg.Items, pg.Ms, ttl, pg.Generation, short(pg.NextCursor, 24))
	}
	tw.Flush()
	fmt.Fprintln(p.w)
	tw = tabwriter.NewWriter(p.w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, p.dim("TOOL\tPAGE\tGEN\tHOLD\tTASK\tOUTPUT"))
	for _, t := range doc.Tools {
		hold := "own"
		if t.Held {
			hold = "held"
		}
		task := t.TaskSupport
		if task == "" {
			task = "-"
		} else if task == "required" {
			task = p.yellow(task)
		}
		out := "-"
		if t.HasOutputSchema {
			out = "schema"
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%s\n", t.Name, t.Page, t.Generation, hold, task, out)
	}
	tw.Flush()
	if len(doc.Findings) > 0 {
		fmt.Fprintln(p.w)
		for _, f := range doc.Findings {
			mark := p.yellow("⚠")
			if f.Severity == "error" {
				mark = p.red("✗")
			}
			fmt.Fprintf(p.w, "%s %s: %s\n", mark, f.Check, f.Message)
		}
	}
	fmt.Fprintln(p.w)
	state := p.green("✓ complete")
	if !doc.Walk.Complete {
		state = p.red("⚠ incomplete: " + doc.Walk.Incomplete)
	}
	fmt.Fprintf(p.w, "%s · %d tools · %s · gen %d\n", state, len(doc.Tools), pagesLabel(doc.Walk.Pages), doc.Walk.Generation)
}

func (p *printer) call(doc callDoc, r *session.CallResult) {
	sent := "sent"
	switch {
	case !doc.Sent:
		sent = p.red("not sent")
	case doc.Forced:
		sent = p.yellow("sent anyway (--force)")
	}
	listed := fmt.Sprintf("listed in gen %d", doc.Generation)
	if !doc.Listed {
		listed = p.yellow("not listed")
	}
	if doc.Sent {
		fmt.Fprintf(p.w, "%s · %s · %s · %.1f ms\n", p.bold(doc.Tool), sent, listed, doc.Ms)
	} else {
		fmt.Fprintf(p.w, "%s · %s · %s\n", p.bold(doc.Tool), sent, listed)
	}
	if doc.Stale {
		fmt.Fprintln(p.w, p.yellow("⚠ the definition checked is stale: a later listing changed it"))
	}
	if doc.ListedDuringCall {
		fmt.Fprintln(p.w, p.yellow("⚠ a list request went out while the call was in flight"))
	}
	for _, f := range doc.Findings {
		fmt.Fprintf(p.w, "%s %s\n", p.yellow("⚠"), f.Message)
	}
	fmt.Fprintln(p.w)
	for _, v := range doc.Verdicts {
		fmt.Fprintf(p.w, "%s %-18s %s\n", p.mark(v.Status), v.Check, v.Message)
		for _, e := range v.Errors {
			path := e.InstancePath
			if path == "" {
				path = "(root)"
			}
			fmt.Fprintf(p.w, "    %s %s %s\n", p.bold(path), p.dim(e.Keyword+":"), e.Message)
		}
	}
	switch {
	case r.Err != nil:
		fmt.Fprintf(p.w, "\n%s %v\n", p.red("error:"), r.Err)
	case len(r.RPCError) > 0:
		fmt.Fprintf(p.w, "\n%s %s\n", p.red("the server answered with an error:"), string(r.RPCError))
	case len(r.Result) > 0:
		p.result(r.Result)
	}
}

func (p *printer) mark(s checks.Status) string {
	switch s {
	case checks.Pass:
		return p.green("✓")
	case checks.Fail:
		return p.red("✗")
	case checks.Refused:
		return p.red("⊘")
	case checks.Unchecked:
		return p.yellow("?")
	default:
		return p.dim("–")
	}
}

func (p *printer) result(raw json.RawMessage) {
	var res struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
			URI  string `json:"uri"`
		} `json:"content"`
		StructuredContent json.RawMessage `json:"structuredContent"`
		IsError           bool            `json:"isError"`
	}
	_ = json.Unmarshal(raw, &res)
	fmt.Fprintln(p.w)
	if res.IsError {
		fmt.Fprintln(p.w, p.red("isError: true"))
	}
	for _, c := range res.Content {
		switch c.Type {
		case "text":
			fmt.Fprintln(p.w, c.Text)
		default:
			fmt.Fprintf(p.w, "[%s content %s]\n", c.Type, c.URI)
		}
	}
	if len(res.StructuredContent) > 0 {
		var v any
		if json.Unmarshal(res.StructuredContent, &v) == nil {
			b, _ := json.MarshalIndent(v, "", "  ")
			fmt.Fprintf(p.w, "%s\n%s\n", p.dim("structuredContent:"), b)
		}
	}
}

func short(s string, n int) string {
	if s == "" {
		return "-"
	}
	if len([]rune(s)) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}
