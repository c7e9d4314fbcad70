package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"

	"mcpwitness/finding"
	"mcpwitness/fold"
	"mcpwitness/paging"
	"mcpwitness/record"
	"mcpwitness/render"
)

// MarkdownOptions tune [Summary.Markdown]. nil means defaults.
type MarkdownOptions struct {
	// MaxFrame bounds each frame shown, in bytes of indented JSON; 0 means
	// 16 KiB. A longer frame is cut at a line and says where it is in full.
	MaxFrame int
	// Scrubber keys the digests of what the last check for secrets
	// replaces (see [Scrubber]); nil is the user's key.
	Scrubber *Scrubber
}

// DefaultMaxFrame is the bound on a frame shown when [MarkdownOptions.MaxFrame] is 0.
const DefaultMaxFrame = 16 << 10

// knownChecks are the call checks, in the order a report shows them.
var knownChecks = [...]string{finding.TaskSupport, finding.InputSchema, finding.StructuredContent, finding.OutputSchema}

// Markdown writes the report: the session, its walks, findings and calls,
// and the frames of every failed or refused call in collapsed blocks. It
// reads well on GitHub. What it writes passes through a last check for
// secrets, although the file holds none: see [Scrubber].
func (s *Summary) Markdown(w io.Writer, opts *MarkdownOptions) error {
	o := MarkdownOptions{MaxFrame: DefaultMaxFrame}
	if opts != nil {
		o.Scrubber = opts.Scrubber
		if opts.MaxFrame > 0 {
			o.MaxFrame = opts.MaxFrame
		}
	}
	sc := o.Scrubber.or()
	var b bytes.Buffer
	s.title(&b)
	s.session(&b, sc)
	s.walks(&b)
	s.findings(&b)
	s.calls(&b)
	s.requests(&b)
	s.failed(&b, o)
	s.server(&b)
	return sc.write(w, b.String())
}

func (s *Summary) serverName() string {
	if s.Server == nil || s.Server.Name == "" {
		return "unknown server"
	}
	return strings.TrimSpace(s.Server.Name + " " + s.Server.Version)
}

func (s *Summary) title(b *bytes.Buffer) {
	fmt.Fprintf(b, "# mcpwitness session: %s\n\n", text(s.serverName()))
	parts := []string{plural(len(s.Walks), "walk"), plural(len(s.Calls), "call")}
	if len(s.Requests) > 0 {
		parts = append(parts, plural(len(s.Requests), "other request"))
	}
	failed := 0
	for _, c := range s.Calls {
		if c.Failed() {
			failed++
		}
	}
	if n := s.failedRequests(); n > 0 {
		parts = append(parts, "**"+plural(n, "request")+" with a failed verdict**")
	}
	if failed > 0 {
		parts = append(parts, fmt.Sprintf("**%d failed or refused**", failed))
	}
	incomplete := 0
	for _, w := range s.Walks {
		if !w.Complete() && !w.Stopped() {
			incomplete++
		}
	}
	if incomplete > 0 {
		parts = append(parts, "**"+plural(incomplete, "incomplete walk")+"**")
	}
	fmt.Fprintf(b, "%s · recorded %s\n\n", strings.Join(parts, " · "), stamp(s.Header.Started))
	if len(s.Warnings) > 0 {
		b.WriteString("> [!WARNING]\n> The session file is damaged; what could be read is reported.\n")
		for _, w := range s.Warnings {
			fmt.Fprintf(b, "> - %s\n", text(w))
		}
		b.WriteString("\n")
	}
}

func (s *Summary) session(b *bytes.Buffer, sc *Scrubber) {
	b.WriteString("## Session\n\n| | |\n|---|---|\n")
	row := func(k, v string) { fmt.Fprintf(b, "| %s | %s |\n", k, cell(v)) }
	t := s.Header.Target
	row("Target", t.Transport+" · "+code(sc.guardURL(t.String())))
	if t.Dir != "" {
		row("Working directory", code(t.Dir))
	}
	if len(t.Env) > 0 {
		row("Environment", sc.guarded(t.Env))
	}
	if len(t.Headers) > 0 {
		row("Headers", sc.guarded(t.Headers))
	}
	if t.Config != nil {
		row("Config hash", code(t.Config.Hash))
	}
	if s.Server != nil {
		row("Server", text(s.serverName()))
		row("Protocol", code(s.Server.ProtocolVersion))
		row("Transport", text(s.Server.Transport))
		if caps := capabilities(s.Server.Capabilities); caps != "" {
			row("Capabilities", caps)
		}
	} else {
		row("Server", "no handshake in the file")
	}
	row("Recorded", stamp(s.Header.Started)+" by "+text(s.Header.Tool))
	span := ""
	if from := firstOf(s.Header.Started, s.First); !from.IsZero() && s.Last.After(from) {
		span = " over " + render.Dur(s.Last.Sub(from))
	}
	row("Events", fmt.Sprintf("%d%s", s.Events, span))
	if s.Closed != "" {
		row("Ended", text(s.Closed))
	}
	b.WriteString("\n")
}

func (s *Summary) walks(b *bytes.Buffer) {
	b.WriteString("## Walks\n\n")
	if len(s.Walks) == 0 {
		b.WriteString("_No list was walked._\n\n")
		return
	}
	b.WriteString("| Walk | Method | Pages | Items | Generations | Result | Time |\n|---:|---|---:|---:|---|---|---:|\n")
	for _, w := range s.Walks {
		gens := "—"
		if first, last := w.Generations(); first == last && first > 0 {
			gens = fmt.Sprint(first)
		} else if first > 0 {
			gens = fmt.Sprintf("%d–%d", first, last)
		}
		items := w.Items
		if !w.Done {
			for _, p := range w.Pages {
				items += p.Count
			}
		}
		fmt.Fprintf(b, "| %d | %s | %d | %d | %s | %s | %s |\n", w.ID, cell(code(w.Method)), len(w.Pages), items, gens, cell(walkResult(w)), ms(w.Ms, w.Done))
	}
	b.WriteString("\n")
}

func walkResult(w *fold.Walk) string {
	switch {
	case !w.Done:
		return "⏳ " + walkState(w)
	case w.Incomplete == paging.Failed:
		return "❌ " + text(walkState(w))
	case w.Stopped():
		return "⏹️ " + text(walkState(w))
	case w.Incomplete != paging.Complete:
		return "⚠️ " + text(walkState(w))
	}
	return "✅ complete"
}

// walkState says how a walk ended, in plain words.
func walkState(w *fold.Walk) string {
	switch {
	case !w.Done:
		return "unfinished: the file ends before the walk did"
	case w.Incomplete == paging.Failed:
		return "incomplete: error — " + w.Err
	case w.Stopped():
		return fmt.Sprintf("stopped at page %d: the client read no further", len(w.Pages))
	case w.Incomplete != paging.Complete:
		return "incomplete: " + string(w.Incomplete)
	}
	return "complete"
}

func (s *Summary) findings(b *bytes.Buffer) {
	b.WriteString("## Findings\n\n")
	n := 0
	item := func(mark, check, where, msg string) {
		fmt.Fprintf(b, "- %s **%s** (%s): %s\n", mark, text(check), where, text(msg))
		n++
	}
	// A session of check holds its findings as events: those are the
	// findings of its walks, and what it said of lists that changed.
	for _, f := range s.Findings {
		where := "check"
		if f.Item != "" {
			where = "check, " + code(f.Item)
		}
		item(severityMark(f.Severity), f.Check, where, f.Message)
	}
	s.walkFindings(item)
	for _, c := range s.Calls {
		where := fmt.Sprintf("call %d, %s", c.ID, code(c.Tool))
		if c.Done && !c.Listed {
			item("⚠️", "not-listed", where, "the server did not list this tool; it was sent as a probe and its definition checks were skipped")
		}
		switch {
		case c.Stale:
			item("⚠️", "stale-definition", where, "the definition the checks used is stale: a later listing changed it")
		case c.ListChanged:
			item("⚠️", "list-changed", where, "the server said its tool list changed after the listing the checks used, before the answer")
		}
		if c.ListedDuring {
			item("⚠️", "listed-during-call", where, "a list request went out while the call was in flight")
		}
		if c.Forced {
			item("⚠️", "forced", where, "sent anyway although a check refused it")
		}
		if c.Cancelled {
			item("⚠️", "cancelled", where, "the call was cancelled")
		}
	}
	s.requestFindings(item)
	for _, e := range s.Errors {
		where := "session"
		if e.Method != "" {
			where = code(e.Method)
		}
		item("❌", "error", where, e.Text)
	}
	if more := s.ErrorCount - len(s.Errors); more > 0 {
		fmt.Fprintf(b, "- … and %d more errors\n", more)
		n++
	}
	if n == 0 {
		b.WriteString("_No findings._\n")
	}
	b.WriteString("\n")
}

func severityMark(sev finding.Severity) string {
	switch sev {
	case finding.SeverityError:
		return "❌"
	case finding.SeverityWarning:
		return "⚠️"
	}
	return "ℹ️"
}

// checkNames returns the checks the calls ran: the known ones in order,
// then any others by name.
func (s *Summary) checkNames() []string {
	seen := map[string]bool{}
	var extra []string
	for _, c := range s.Calls {
		for _, v := range c.Verdicts {
			if !seen[v.Check] && !slices.Contains(knownChecks[:], v.Check) {
				extra = append(extra, v.Check)
			}
			seen[v.Check] = true
		}
	}
	sort.Strings(extra)
	return append(knownChecks[:len(knownChecks):len(knownChecks)], extra...)
}

func (s *Summary) calls(b *bytes.Buffer) {
	b.WriteString("## Calls\n\n")
	if len(s.Calls) == 0 {
		b.WriteString("_No tool was called._\n\n")
		return
	}
	names := s.checkNames()
	b.WriteString("| Call | Tool | Sent |")
	for _, n := range names {
		b.WriteString(" " + n + " |")
	}
	b.WriteString(" Answer | Failing instance paths |\n|---:|---|---|")
	b.WriteString(strings.Repeat("---|", len(names)) + "---|---|\n")
	for _, c := range s.Calls {
		fmt.Fprintf(b, "| %d | %s | %s |", c.ID, cell(code(c.Tool)), sent(c))
		for _, n := range names {
			b.WriteString(" " + status(c.verdict(n)) + " |")
		}
		fmt.Fprintf(b, " %s | %s |\n", cell(answer(c)), cell(failingPaths(c, 5)))
	}
	b.WriteString("\n")
}

func (c *Call) verdict(check string) *finding.Verdict {
	for i := range c.Verdicts {
		if c.Verdicts[i].Check == check {
			return &c.Verdicts[i]
		}
	}
	return nil
}

func sent(c *Call) string {
	switch {
	case !c.Done && !c.Sent && !c.requested():
		return "—"
	case c.Forced:
		return "yes (forced)"
	case c.Sent || c.requested():
		return "yes"
	}
	return "**no**"
}

func status(v *finding.Verdict) string {
	if v == nil {
		return "—"
	}
	switch v.Status {
	case finding.Pass:
		return "✅ pass"
	case finding.Fail:
		return "❌ **fail**"
	case finding.Refused:
		return "⛔ **refused**"
	case finding.Unchecked:
		return "⚠️ unchecked"
	case finding.Skipped:
		return "➖ skipped"
	}
	return text(string(v.Status))
}

func answer(c *Call) string {
	switch {
	case !c.Done:
		return "⏳ unfinished: the file ends before the call did"
	case !c.Sent:
		return "— (not sent)"
	case c.Cancelled:
		return "cancelled"
	case c.Err != "":
		return "no answer: " + text(c.Err)
	case len(c.RPCError) > 0:
		return "JSON-RPC error: " + text(record.RPCErrorText(c.RPCError))
	case c.IsError:
		return "`isError: true`"
	}
	return fmt.Sprintf("result in %s", ms(c.Ms, true))
}

// failingPaths lists the instance paths of failed checks, at most max.
func failingPaths(c *Call, max int) string {
	var out []string
	n := 0
	for _, v := range c.Verdicts {
		if v.Status != finding.Fail {
			continue
		}
		for _, e := range v.Errors {
			n++
			if len(out) < max {
				out = append(out, code(pathOf(e.InstancePath))+" "+text(e.Keyword))
			}
		}
	}
	if n > len(out) {
		out = append(out, fmt.Sprintf("and %d more", n-len(out)))
	}
	if len(out) == 0 {
		return "—"
	}
	return strings.Join(out, ", ")
}

func pathOf(p string) string {
	if p == "" {
		return "(root)"
	}
	return p
}

func ms(v float64, known bool) string {
	if !known {
		return "—"
	}
	return fmt.Sprintf("%.1f ms", v)
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return "at an unknown time"
	}
	return t.UTC().Format("2006-01-02 15:04:05 UTC")
}

func firstOf(ts ...time.Time) time.Time {
	for _, t := range ts {
		if !t.IsZero() {
			return t
		}
	}
	return time.Time{}
}

// capabilities lists the server's capabilities: "logging, tools (listChanged)".
func capabilities(raw json.RawMessage) string {
	var caps map[string]map[string]any
	if json.Unmarshal(raw, &caps) != nil {
		return ""
	}
	var out []string
	for name, sub := range caps {
		var flags []string
		for k, v := range sub {
			if v == true {
				flags = append(flags, k)
			}
		}
		sort.Strings(flags)
		s := code(name)
		if len(flags) > 0 {
			s += " (" + text(strings.Join(flags, ", ")) + ")"
		}
		out = append(out, s)
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

// guarded lists names and values, each value a redaction placeholder: a
// value that is not one is replaced by its own.
func (sc *Scrubber) guarded(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []string
	for _, k := range keys {
		out = append(out, code(k)+" = "+code(sc.guard(k, m[k])))
	}
	return strings.Join(out, "<br>")
}

// guard is value when it is a redaction placeholder, else its own keyed
// placeholder.
func (sc *Scrubber) guard(name, value string) string {
	if strings.HasPrefix(value, "[REDACTED:") && strings.HasSuffix(value, "]") {
		return value
	}
	return sc.placeholder(name, value)
}
