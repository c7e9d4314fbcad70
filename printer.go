package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/charmbracelet/x/ansi"

	"mcpwitness/finding"
	"mcpwitness/fold"
	"mcpwitness/record"
	"mcpwitness/render"
	"mcpwitness/sanitize"
	"mcpwitness/session"
)

// printer writes the human output of the headless commands: aligned, and
// coloured only when asked. Every string that came from a server passes
// [printer.line] or [printer.text] on its way: the target's secrets are
// replaced and control characters, escapes, bidi controls and zero-width
// characters are shown visibly, so a server cannot write to the terminal.
type printer struct {
	w      io.Writer
	color  bool
	secret *record.Redactor
}

func newPrinter(w io.Writer, color bool, red *record.Redactor) *printer {
	return &printer{w: w, color: color, secret: red}
}

// line makes server text safe for one line (a name, a table cell).
func (p *printer) line(s string) string { return sanitize.Line(p.secret.String(s)) }

// text makes server text safe where it may span lines (a result).
func (p *printer) text(s string) string { return sanitize.Text(p.secret.String(s)) }

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
	name := p.line(s.Name)
	if name == "" {
		name = "(unnamed server)"
	}
	head := p.bold(name)
	if s.Version != "" {
		head += " " + p.line(s.Version)
	}
	parts := []string{head}
	if s.ProtocolVersion != "" {
		v := "protocol " + p.line(s.ProtocolVersion)
		if s.AskedProtocol != "" {
			v += " (asked for " + p.line(s.AskedProtocol) + ")"
		}
		parts = append(parts, v)
	}
	if s.Transport != "" {
		parts = append(parts, s.Transport)
	}
	fmt.Fprintln(p.w, strings.Join(parts, " · "))
}

// tools prints the tools document: the pages, the tools and the findings,
// through one buffered writer (a tabwriter writes each cell apart), flushed
// before it returns.
func (p *printer) tools(doc toolsDoc) {
	out := p.w
	bw := bufio.NewWriterSize(out, 64<<10)
	p.w = bw
	defer func() {
		p.w = out
		bw.Flush()
	}()
	p.server(doc.Server)
	fmt.Fprintln(p.w)
	tw := tabwriter.NewWriter(p.w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, p.dim("PAGE\tITEMS\tMS\tTTL\tGEN\tNEXT CURSOR"))
	for _, pg := range doc.Pages {
		ttl := "-"
		if pg.TTLMs != nil {
			ttl = fmt.Sprintf("%d ms", *pg.TTLMs)
		}
		fmt.Fprintf(tw, "%d\t%d\t%.1f\t%s\t%d\t%s\n", pg.Page, pg.Items, pg.DurationMs, ttl, pg.Generation, short(p.line(pg.NextCursor), 24))
	}
	tw.Flush()
	fmt.Fprintln(p.w)
	p.toolsTable(doc)
	if len(doc.Findings) > 0 {
		fmt.Fprintln(p.w)
		for _, f := range doc.Findings {
			fmt.Fprintf(p.w, "%s %s: %s\n", p.severity(f.Severity), f.Check, p.line(f.Message))
		}
	}
	fmt.Fprintln(p.w)
	state := p.green("✓ complete")
	if !doc.Walk.Complete {
		state = p.red("⚠ incomplete: " + doc.Walk.Incomplete)
	}
	fmt.Fprintf(p.w, "%s · %s · %s · gen %d%s\n", state, nouns(doc.toolCount(), "tool"), nouns(doc.Walk.Pages, "page"), doc.Walk.Generation,
		p.walksNote(doc.Walk))
	if doc.Walk.ListChanged {
		fmt.Fprintln(p.w, p.yellow(changedSince("tools/list")))
	}
}

// changedSince says that the server said list (its method) changed after
// the walk of it started.
func changedSince(list string) string {
	return "⚠ the server said " + list + " changed after this walk started: what it shows may be out of date; walk again for the current list"
}

// toolsTable writes the table of doc's tools, columns two cells apart,
// without holding every row as a tabwriter does (at 10,000 tools some 2 MB
// of cells beside the tools' records): a first pass measures the columns,
// a second writes each row as it is made. A cell's width is its width on
// the screen, colours not counted (a tabwriter counted their escapes: the
// TASK column was ten cells too wide on a terminal when a tool required a
// task).
func (p *printer) toolsTable(doc toolsDoc) {
	header := p.dim("TOOL\tPAGE\tGEN\tHOLD\tTASK\tOUTPUT")
	row := func(i int) string {
		t := doc.tool(i)
		hold := "own"
		if t.Held {
			hold = "held"
		}
		task := p.line(t.TaskSupport)
		if task == "" {
			task = "-"
		} else if task == "required" {
			task = p.yellow(task)
		}
		out := "-"
		if t.HasOutputSchema {
			out = "schema"
		}
		return fmt.Sprintf("%s\t%d\t%d\t%s\t%s\t%s", p.line(t.Name), t.Page, t.Generation, hold, task, out)
	}
	var widths []int // of each cell a tab ends, the widest in the column
	measure := func(line string) {
		for j, cell := range strings.Split(line, "\t") {
			if j == len(widths) {
				widths = append(widths, 0)
			}
			widths[j] = max(widths[j], ansi.StringWidth(cell))
		}
	}
	write := func(line string) {
		cells := strings.Split(line, "\t")
		for j, cell := range cells {
			io.WriteString(p.w, cell)
			if j < len(cells)-1 {
				io.WriteString(p.w, strings.Repeat(" ", widths[j]+2-ansi.StringWidth(cell)))
			}
		}
		io.WriteString(p.w, "\n")
	}
	n := doc.toolCount()
	measure(header)
	for i := range n {
		measure(row(i))
	}
	write(header)
	for i := range n {
		write(row(i))
	}
}

// sentState says whether a request a check may refuse went out: "sent",
// "not sent", or "sent anyway (--force)".
func (p *printer) sentState(sent, forced bool) string {
	switch {
	case !sent:
		return p.red("not sent")
	case forced:
		return p.yellow("sent anyway (--force)")
	}
	return "sent"
}

// call prints the call c, whose document is doc.
func (p *printer) call(doc callDoc, c *fold.Call) {
	sent := p.sentState(doc.Sent, doc.Forced)
	listed := fmt.Sprintf("listed in gen %d", doc.Generation)
	if doc.FoundOnPage > 0 {
		listed += fmt.Sprintf(" on page %d", doc.FoundOnPage)
	}
	if !doc.Listed {
		listed = p.yellow("not listed")
	}
	tool := p.bold(p.line(doc.Tool))
	if doc.Sent {
		fmt.Fprintf(p.w, "%s · %s · %s · %s\n", tool, sent, listed, render.Ms(doc.DurationMs))
	} else {
		fmt.Fprintf(p.w, "%s · %s · %s\n", tool, sent, listed)
	}
	switch {
	case doc.Stale:
		fmt.Fprintln(p.w, p.yellow("⚠ the definition checked is stale: a later listing changed it"))
	case doc.ListChanged:
		fmt.Fprintln(p.w, p.yellow("⚠ the server said its tool list changed after the listing checked against, before the answer: the definition may be stale"))
	}
	if doc.ListedDuringCall {
		fmt.Fprintln(p.w, p.yellow("⚠ a list request went out while the call was in flight"))
	}
	for _, f := range doc.Findings {
		fmt.Fprintf(p.w, "%s %s\n", p.yellow("⚠"), p.line(f.Message))
	}
	fmt.Fprintln(p.w)
	p.verdicts(doc.Verdicts)
	if !doc.Sent && c.Err == "" {
		fmt.Fprintf(p.w, "\n%s\n", p.dim("Nothing was sent. --force sends it anyway, to see the server's own answer."))
	}
	switch {
	case c.Err != "":
		fmt.Fprintf(p.w, "\n%s %s\n", p.red("error:"), p.text(c.Err))
	case len(c.RPCError) > 0:
		fmt.Fprintf(p.w, "\n%s %s\n", p.red("the server answered with an error:"), p.text(record.RPCErrorText(c.RPCError)))
	case len(c.Result) > 0:
		p.result(c.Result)
	}
}

func (p *printer) mark(s finding.Status) string {
	switch s {
	case finding.Pass:
		return p.green("✓")
	case finding.Fail:
		return p.red("✗")
	case finding.Refused:
		return p.red("⊘")
	case finding.Unchecked:
		return p.yellow("?")
	default:
		return p.dim("–")
	}
}

// severity marks a finding: ✗ an error, ⚠ a warning, i a note.
func (p *printer) severity(s finding.Severity) string {
	switch s {
	case finding.SeverityError:
		return p.red("✗")
	case finding.SeverityWarning:
		return p.yellow("⚠")
	}
	return p.dim("i")
}

// nouns returns "1 tool", "2 tools", "0 tools".
func nouns(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
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

// content is one item of a tool result's content, as much of it as the
// human output shows.
type content struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	URI      string `json:"uri"`
	Name     string `json:"name"`
	MimeType string `json:"mimeType"`
	Data     string `json:"data"`
	Resource *struct {
		URI      string  `json:"uri"`
		MimeType string  `json:"mimeType"`
		Text     *string `json:"text"`
		Blob     *string `json:"blob"`
	} `json:"resource"`
}

func (p *printer) result(raw json.RawMessage) {
	var res struct {
		Content           []content       `json:"content"`
		StructuredContent json.RawMessage `json:"structuredContent"`
		IsError           bool            `json:"isError"`
	}
	_ = json.Unmarshal(raw, &res)
	fmt.Fprintln(p.w)
	if res.IsError {
		fmt.Fprintln(p.w, p.red("isError: true"))
	}
	for _, c := range res.Content {
		p.block(c)
	}
	if len(res.StructuredContent) > 0 && string(res.StructuredContent) != "null" {
		var out bytes.Buffer
		if b, err := cleanJSON(res.StructuredContent); err == nil && json.Indent(&out, b, "", "  ") == nil {
			fmt.Fprintf(p.w, "%s\n%s\n", p.dim("structuredContent:"), p.text(out.String()))
		}
	}
}

// counted says how many things a request's answer held, or that it held no
// result to count: an error answer is not "0 items".
func counted(r *session.RequestResult, n int, noun string) string {
	switch {
	case len(r.RPCError) > 0:
		return "error answer"
	case r.Err != nil || len(r.Result) == 0:
		return "no result"
	}
	return nouns(n, noun)
}

// block writes one content block: a text as it is, anything else as a
// line saying what it holds, and an embedded resource's text under that
// line, as read shows a resource's.
func (p *printer) block(c content) {
	if c.Type == "text" {
		fmt.Fprintln(p.w, p.text(c.Text))
		return
	}
	fmt.Fprintln(p.w, p.dim("["+p.describe(c)+"]"))
	if c.Type == "resource" && c.Resource != nil && c.Resource.Text != nil {
		p.resourceText(c.Resource.MimeType, *c.Resource.Text)
	}
}

// resourceText writes a resource's text, indented when it is JSON.
func (p *printer) resourceText(mimeType, text string) {
	var out bytes.Buffer
	if strings.Contains(mimeType, "json") && json.Indent(&out, []byte(text), "", "  ") == nil {
		text = out.String()
	}
	fmt.Fprintln(p.w, p.text(strings.TrimRight(text, "\n")))
}

// describe says what a content item that is not text holds: an image's or
// audio clip's type and size, an embedded resource's uri, type and size, a
// resource link's uri and name.
func (p *printer) describe(c content) string {
	parts := []string{p.line(c.Type)}
	if c.Type == "" {
		parts[0] = "content of no type"
	}
	add := func(label, v string) {
		if v != "" {
			parts = append(parts, label+p.line(v))
		}
	}
	switch c.Type {
	case "image", "audio":
		add("", c.MimeType)
		parts = append(parts, base64Size(c.Data))
	case "resource":
		if c.Resource == nil {
			parts = append(parts, "with no resource")
			break
		}
		add("", c.Resource.URI)
		add("", c.Resource.MimeType)
		switch {
		case c.Resource.Text != nil:
			parts = append(parts, byteCount(len(*c.Resource.Text))+" of text")
		case c.Resource.Blob != nil:
			parts = append(parts, "blob "+base64Size(*c.Resource.Blob))
		}
	case "resource_link":
		add("", c.URI)
		if c.Name != "" {
			parts = append(parts, "name "+`"`+p.line(c.Name)+`"`)
		}
		add("", c.MimeType)
	default:
		add("", c.URI)
		add("", c.MimeType)
	}
	return strings.Join(parts, " · ")
}

// base64Size says how many bytes base64 data decodes to, or that it does
// not decode.
func base64Size(data string) string {
	b, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		return fmt.Sprintf("data is not valid base64 (%s)", nouns(len(data), "character"))
	}
	return byteCount(len(b))
}

// byteCount returns "1 byte", "512 bytes", "2.0 KiB (2048 bytes)".
func byteCount(n int) string {
	switch {
	case n == 1:
		return "1 byte"
	case n < 1024:
		return fmt.Sprintf("%d bytes", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB (%d bytes)", float64(n)/1024, n)
	}
	return fmt.Sprintf("%.1f MiB (%d bytes)", float64(n)/(1<<20), n)
}

// verdicts prints the verdicts of a call or another request, each error with its path.
func (p *printer) verdicts(vs []finding.Verdict) {
	for _, v := range vs {
		fmt.Fprintf(p.w, "%s %-18s %s\n", p.mark(v.Status), v.Check, p.line(v.Message))
		for _, e := range v.Errors {
			path := e.InstancePath
			if path == "" {
				path = "(root)"
			}
			fmt.Fprintf(p.w, "    %s %s %s\n", p.bold(p.line(path)), p.dim(p.line(e.Keyword)+":"), p.line(e.Message))
		}
	}
}
