package report_test

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mcpwitness/session"
)

// forge is server text that tries to become Markdown structure: a
// heading, a table row, a link, an image, HTML that closes the collapsed
// block, code fences of every length, emphasis, entities, and the terminal
// sequences of the hostile evil-strings server.
const forge = "x\n# Forged heading\n| forged | row |\n[click](http://evil.example) ![img](http://evil.example/i.png) " +
	"<img src=x onerror=alert(1)> </details></summary> ```` ``` ~~~ **bold** _em_ ~~strike~~ &lt; " +
	"\x1b[2J \x1b]52;c;ZXZpbA==\x07 \x1b]0;title\x07 \u009b31m \r over \b \u202eevil\u202c zero\u200bwidth end"

// forgingServer answers every call with forge: as text, and as an error
// text from a tool whose output schema the answer does not satisfy, so the
// report shows its frames in a collapsed block.
func forgingServer() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "srv " + forge, Version: "1 " + forge},
		&mcp.ServerOptions{Instructions: "instructions " + forge})
	srv.AddTool(&mcp.Tool{
		Name: "forge", Description: forge,
		InputSchema:  map[string]any{"type": "object"},
		OutputSchema: map[string]any{"type": "object", "required": []any{"n"}},
	}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: forge}}}, nil
	})
	return srv
}

func TestMarkdownServerTextCannotForgeStructure(t *testing.T) {
	args, err := json.Marshal(map[string]string{"q": forge})
	if err != nil {
		t.Fatal(err)
	}
	path := recordSession(t, forgingServer(), session.Target{Command: []string{"server"}}, []step{
		walk(),
		call("forge", string(args)),
	})
	md := markdown(t, path, nil)
	if strings.ContainsAny(md, "\x1b\r\b\u009b\u202e\u200b") {
		t.Errorf("the report holds raw control or invisible characters:\n%q", md)
	}
	headings := map[string]bool{"## Session": true, "## Walks": true, "## Findings": true, "## Calls": true,
		"## Failed and refused calls": true, "## Server": true}
	tag := regexp.MustCompile(`</?([A-Za-z]+)[^>]*>`)
	allowedTags := map[string]bool{"details": true, "summary": true, "code": true, "br": true}
	fence, tableCols := "", 0
	details := 0
	for i, line := range strings.Split(md, "\n") {
		if fence != "" {
			if strings.TrimSpace(line) == fence {
				fence = ""
			}
			continue
		}
		if run := leadingBackticks(line); run >= 3 {
			fence = strings.Repeat("`", run)
			continue
		}
		if strings.HasPrefix(line, "#") && !strings.HasPrefix(line, "# mcpwitness session: ") && !headings[line] {
			t.Errorf("line %d is a heading the report did not mean to write: %q", i+1, line)
		}
		if strings.HasPrefix(line, "|") {
			n := cells(line)
			if tableCols == 0 {
				tableCols = n
			} else if n != tableCols {
				t.Errorf("line %d has %d cells, its table %d: %q", i+1, n, tableCols, line)
			}
		} else {
			tableCols = 0
		}
		prose := stripCode(line)
		for _, m := range tag.FindAllStringSubmatch(prose, -1) {
			if !allowedTags[m[1]] {
				t.Errorf("line %d holds the HTML tag %q: %q", i+1, m[0], line)
			}
		}
		details += strings.Count(prose, "<details>") - strings.Count(prose, "</details>")
		if strings.Contains(prose, "](") && !strings.Contains(prose, `\](`) {
			t.Errorf("line %d holds a link: %q", i+1, line)
		}
	}
	if fence != "" {
		t.Errorf("a code block is never closed (%s)", fence)
	}
	if details != 0 {
		t.Errorf("<details> and </details> do not pair up: %+d", details)
	}
	if !strings.Contains(md, "## Failed and refused calls") || !strings.Contains(md, "Forged heading") {
		t.Fatalf("the report does not show the failed call's frames:\n%s", md)
	}
}

func leadingBackticks(line string) int {
	n := 0
	for n < len(line) && line[n] == '`' {
		n++
	}
	return n
}

// cells counts the cells of a table row: its pipes that are not escaped,
// outside code spans, less one.
func cells(line string) int {
	n := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '\\':
			i++
		case '|':
			n++
		}
	}
	return n - 1
}

// stripCode removes inline code spans (which GitHub shows literally) and
// escaped characters from a line of Markdown prose.
func stripCode(line string) string {
	var b strings.Builder
	for i := 0; i < len(line); {
		switch {
		case line[i] == '\\' && i+1 < len(line):
			i += 2
		case line[i] == '`':
			run := leadingBackticks(line[i:])
			closing := strings.Index(line[i+run:], strings.Repeat("`", run))
			if closing < 0 {
				b.WriteString(line[i : i+run])
				i += run
				continue
			}
			i += run + closing + run
		default:
			b.WriteByte(line[i])
			i++
		}
	}
	return b.String()
}
