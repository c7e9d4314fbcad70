package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"mcpwitness/finding"
	"mcpwitness/sanitize"
)

// failed writes every failed or refused call in a collapsed block: its
// arguments, verdicts, and the tools/call frames that went out and came
// back.
func (s *Summary) failed(b *bytes.Buffer, o MarkdownOptions) {
	var failed []*Call
	for _, c := range s.Calls {
		if c.Failed() {
			failed = append(failed, c)
		}
	}
	if len(failed) == 0 {
		return
	}
	b.WriteString("## Failed and refused calls\n\n")
	for _, c := range failed {
		fmt.Fprintf(b, "<details>\n<summary>Call %d · <code>%s</code> · %s</summary>\n\n",
			c.ID, summaryHTML(c.Tool), summaryHTML(strings.Join(c.reasons(), ", ")))
		b.WriteString("**Verdicts**\n\n")
		for _, v := range c.Verdicts {
			fmt.Fprintf(b, "- %s: %s — %s\n", code(v.Check), status(&v), text(v.Message))
			for _, e := range v.Errors {
				fmt.Fprintf(b, "  - %s %s: %s\n", code(pathOf(e.InstancePath)), text(e.Keyword), text(e.Message))
			}
		}
		if len(c.Verdicts) == 0 {
			b.WriteString("_None recorded._\n")
		}
		b.WriteString("\n")
		switch {
		case c.Request == nil && !c.Sent:
			b.WriteString("**Nothing was sent**: no `tools/call` request left mcpwitness, so there is no request or response frame. " +
				"The arguments the call would have sent:\n\n")
			jsonBlock(b, c.Args, o.MaxFrame, "")
		case c.Request == nil:
			b.WriteString("**Arguments** (the request frame is not in the file):\n\n")
			jsonBlock(b, c.Args, o.MaxFrame, "")
		default:
			fmt.Fprintf(b, "**Request** · id %s · sent %s\n\n", code(c.Request.ID), clock(c.Request))
			jsonBlock(b, c.Request.Raw, o.MaxFrame, fmt.Sprintf("event seq %d", c.Request.Seq))
			if c.Response == nil {
				b.WriteString("**Response**: none is in the file.\n\n")
			} else {
				fmt.Fprintf(b, "**Response** · received %s, %s after the request\n\n", clock(c.Response),
					c.Response.T.Sub(c.Request.T).Round(time.Microsecond))
				jsonBlock(b, c.Response.Raw, o.MaxFrame, fmt.Sprintf("event seq %d", c.Response.Seq))
			}
		}
		b.WriteString("</details>\n\n")
	}
}

// reasons says why a call is shown in full.
func (c *Call) reasons() []string {
	var out []string
	for _, v := range c.Verdicts {
		switch v.Status {
		case finding.Fail:
			out = append(out, v.Check+" failed")
		case finding.Refused:
			out = append(out, v.Check+" refused")
		case finding.Unchecked:
			out = append(out, v.Check+" unchecked")
		}
	}
	switch {
	case !c.Done:
		out = append(out, "unfinished")
	case !c.Sent:
		out = append(out, "not sent")
	case c.Err != "":
		out = append(out, "no answer")
	case len(c.RPCError) > 0:
		out = append(out, "JSON-RPC error")
	case c.IsError:
		out = append(out, "isError: true")
	}
	return out
}

func clock(f *Frame) string {
	return f.T.UTC().Format("15:04:05.000")
}

// jsonBlock writes raw indented in a fenced block, cut at a line after max
// bytes; where says where the whole of it is.
func jsonBlock(b *bytes.Buffer, raw json.RawMessage, max int, where string) {
	var out bytes.Buffer
	lang := "json"
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = json.RawMessage("{}")
	}
	if json.Indent(&out, raw, "", "  ") != nil {
		out.Reset()
		out.Write(raw)
		lang = "text"
	}
	body := sanitize.Text(out.String())
	cut := 0
	if len(body) > max {
		i := strings.LastIndexByte(body[:max], '\n')
		if i < 0 {
			i = max
		}
		cut = len(body) - i
		body = body[:i]
	}
	fence := fenceFor(body)
	fmt.Fprintf(b, "%s%s\n%s\n%s\n\n", fence, lang, strings.TrimRight(body, "\n"), fence)
	if cut > 0 {
		msg := fmt.Sprintf("_%d more bytes not shown", cut)
		if where != "" {
			msg += "; the whole frame is " + where + " in the session file"
		}
		b.WriteString(msg + "._\n\n")
	}
}

// fenceFor returns a code fence longer than any run of backticks in s.
func fenceFor(s string) string {
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}

// server writes what else the server did: notifications, its own
// requests, stderr, instructions, and events of unknown kinds.
func (s *Summary) server(b *bytes.Buffer) {
	var parts bytes.Buffer
	if len(s.Notifications) > 0 {
		parts.WriteString("| Notification | Count |\n|---|---:|\n")
		for _, n := range s.Notifications {
			fmt.Fprintf(&parts, "| %s | %d |\n", cell(code(n.Name)), n.Count)
		}
		parts.WriteString("\n")
	}
	if len(s.ServerRequests) > 0 {
		parts.WriteString("Requests from the server:\n\n")
		for _, r := range s.ServerRequests {
			fmt.Fprintf(&parts, "- %s: %s\n", code(r.Method), text(r.Text))
		}
		parts.WriteString("\n")
	}
	if s.StderrCount > 0 {
		fmt.Fprintf(&parts, "<details>\n<summary>stderr (last %d of %d lines)</summary>\n\n", len(s.Stderr), s.StderrCount)
		body := sanitize.Text(strings.Join(s.Stderr, "\n"))
		fence := fenceFor(body)
		fmt.Fprintf(&parts, "%stext\n%s\n%s\n\n</details>\n\n", fence, body, fence)
	}
	if s.Server != nil && s.Server.Instructions != "" {
		body := sanitize.Text(s.Server.Instructions)
		fence := fenceFor(body)
		fmt.Fprintf(&parts, "<details>\n<summary>Instructions</summary>\n\n%stext\n%s\n%s\n\n</details>\n\n", fence, body, fence)
	}
	if len(s.Unknown) > 0 {
		var kinds []string
		for _, k := range s.Unknown {
			kinds = append(kinds, fmt.Sprintf("%s ×%d", code(k.Name), k.Count))
		}
		fmt.Fprintf(&parts, "Events of kinds this mcpwitness does not know, kept in the file: %s.\n\n", strings.Join(kinds, ", "))
	}
	if parts.Len() == 0 {
		return
	}
	b.WriteString("## Server\n\n")
	b.Write(parts.Bytes())
}
