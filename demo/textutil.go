package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// simple adds a tool whose handler turns typed input into one text block.
// A handler error becomes a tool error (isError: true); input the tool's
// input schema rejects never reaches the handler.
func simple[In any](s *mcp.Server, t *mcp.Tool, h func(In) (string, error)) {
	mcp.AddTool(s, t, func(_ context.Context, _ *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
		out, err := h(in)
		if err != nil {
			return nil, nil, err
		}
		return text("%s", out), nil, nil
	})
}

type textIn struct {
	Text string `json:"text" jsonschema:"the input text"`
}

type echoIn struct {
	Message string `json:"message" jsonschema:"what to echo back"`
	Times   int    `json:"times,omitempty" jsonschema:"how many times, 1 to 20 (default 1)"`
}

type caseIn struct {
	Text string `json:"text" jsonschema:"the input text"`
	Mode string `json:"mode"`
}

type truncateIn struct {
	Text     string `json:"text" jsonschema:"the input text"`
	Max      int    `json:"max" jsonschema:"the longest result, in characters"`
	Ellipsis string `json:"ellipsis,omitempty" jsonschema:"appended when cut (default …)"`
}

type regexIn struct {
	Pattern string `json:"pattern" jsonschema:"an RE2 regular expression"`
	Text    string `json:"text" jsonschema:"the text to search"`
}

type sortLinesIn struct {
	Text    string `json:"text" jsonschema:"lines to sort"`
	Reverse bool   `json:"reverse,omitempty" jsonschema:"sort in descending order"`
	Unique  bool   `json:"unique,omitempty" jsonschema:"drop repeated lines"`
}

type loremIn struct {
	Paragraphs int `json:"paragraphs,omitempty" jsonschema:"how many paragraphs, 1 to 10 (default 1)"`
}

type wordCountOut struct {
	Words      int `json:"words" jsonschema:"whitespace-separated words"`
	Lines      int `json:"lines" jsonschema:"lines, counting a last line without a newline"`
	Characters int `json:"characters" jsonschema:"Unicode code points"`
	Bytes      int `json:"bytes" jsonschema:"UTF-8 bytes"`
}

func addTextTools(s *mcp.Server) {
	simple(s, &mcp.Tool{Name: "echo", Description: "Echo a message back, optionally several times."},
		echoText)
	simple(s, &mcp.Tool{Name: "reverse_text", Description: "Reverse a text character by character (Unicode-aware)."},
		reverseText)
	simple(s, &mcp.Tool{
		Name:        "change_case",
		Description: "Convert text to UPPER, lower, Title, snake_case, kebab-case or camelCase.",
		InputSchema: json.RawMessage(`{
  "type": "object",
  "properties": {
    "text": {"type": "string", "description": "the input text"},
    "mode": {"type": "string", "enum": ["upper", "lower", "title", "snake", "kebab", "camel"], "default": "upper"}
  },
  "required": ["text"]
}`),
	}, func(in caseIn) (string, error) { return changeCase(in.Text, in.Mode) })
	mcp.AddTool(s, &mcp.Tool{
		Name:        "word_count",
		Description: "Count words, lines, characters and bytes. Answers with structuredContent that matches its output schema.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true},
	}, wordCount)
	simple(s, &mcp.Tool{Name: "slugify", Description: "Turn a title into a URL slug: \"Hello, World!\" → \"hello-world\"."},
		func(in textIn) (string, error) { return strings.Join(words(in.Text), "-"), nil })
	simple(s, &mcp.Tool{Name: "truncate_text", Description: "Shorten a text to at most max characters, marking the cut with an ellipsis."},
		truncateText)
	simple(s, &mcp.Tool{Name: "regex_match", Description: "Find every match of an RE2 regular expression in a text, with capture groups."},
		regexMatch)
	simple(s, &mcp.Tool{Name: "sort_lines", Description: "Sort the lines of a text, optionally descending and without repeats."},
		sortLines)
	simple(s, &mcp.Tool{Name: "lorem_ipsum", Description: "Placeholder text: one or more paragraphs of lorem ipsum."},
		loremIpsum)
}

// echoText answers in.Message repeated in.Times times (1 to 20), one per line.
func echoText(in echoIn) (string, error) {
	n := min(max(in.Times, 1), 20)
	return strings.TrimSuffix(strings.Repeat(in.Message+"\n", n), "\n"), nil
}

// reverseText reverses in.Text rune by rune.
func reverseText(in textIn) (string, error) {
	r := []rune(in.Text)
	slices.Reverse(r)
	return string(r), nil
}

// wordCount counts the words, lines, characters and bytes of in.Text, as text and as structured content.
func wordCount(_ context.Context, _ *mcp.CallToolRequest, in textIn) (*mcp.CallToolResult, wordCountOut, error) {
	out := wordCountOut{
		Words:      len(strings.Fields(in.Text)),
		Lines:      strings.Count(in.Text, "\n"),
		Characters: utf8.RuneCountInString(in.Text),
		Bytes:      len(in.Text),
	}
	if in.Text != "" && !strings.HasSuffix(in.Text, "\n") {
		out.Lines++
	}
	return text("%d words, %d lines, %d characters, %d bytes", out.Words, out.Lines, out.Characters, out.Bytes), out, nil
}

// truncateText cuts in.Text to at most in.Max characters, the ellipsis included.
func truncateText(in truncateIn) (string, error) {
	if in.Max < 0 {
		return "", fmt.Errorf("max must be ≥ 0 (got %d)", in.Max)
	}
	r := []rune(in.Text)
	if len(r) <= in.Max {
		return in.Text, nil
	}
	e := []rune(in.Ellipsis)
	if in.Ellipsis == "" {
		e = []rune("…")
	}
	keep := max(in.Max-len(e), 0)
	return string(r[:keep]) + string(e[:min(len(e), in.Max)]), nil
}

// regexMatch lists the first 100 matches of in.Pattern in in.Text, with their capture groups.
func regexMatch(in regexIn) (string, error) {
	re, err := regexp.Compile(in.Pattern)
	if err != nil {
		return "", fmt.Errorf("invalid pattern: %v", err)
	}
	ms := re.FindAllStringSubmatch(in.Text, 100)
	if len(ms) == 0 {
		return "no match", nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d match(es)", len(ms))
	for i, m := range ms {
		fmt.Fprintf(&b, "\n%d: %q", i+1, m[0])
		if len(m) > 1 {
			fmt.Fprintf(&b, " groups %q", m[1:])
		}
	}
	return b.String(), nil
}

// sortLines sorts the lines of in.Text, optionally without repeats and descending.
func sortLines(in sortLinesIn) (string, error) {
	lines := strings.Split(strings.TrimSuffix(in.Text, "\n"), "\n")
	slices.Sort(lines)
	if in.Unique {
		lines = slices.Compact(lines)
	}
	if in.Reverse {
		slices.Reverse(lines)
	}
	return strings.Join(lines, "\n"), nil
}

// loremIpsum answers in.Paragraphs paragraphs (1 to 10) of lorem ipsum.
func loremIpsum(in loremIn) (string, error) {
	const p = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. " +
		"Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat."
	n := min(max(in.Paragraphs, 1), 10)
	return strings.TrimSuffix(strings.Repeat(p+"\n\n", n), "\n\n"), nil
}

// words splits s into lower-case runs of letters and digits.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// changeCase converts s to the named case.
func changeCase(s, mode string) (string, error) {
	switch mode {
	case "upper":
		return strings.ToUpper(s), nil
	case "lower":
		return strings.ToLower(s), nil
	case "title":
		f := strings.Fields(s)
		for i, w := range f {
			r := []rune(strings.ToLower(w))
			r[0] = unicode.ToUpper(r[0])
			f[i] = string(r)
		}
		return strings.Join(f, " "), nil
	case "snake":
		return strings.Join(words(s), "_"), nil
	case "kebab":
		return strings.Join(words(s), "-"), nil
	case "camel":
		w := words(s)
		for i := 1; i < len(w); i++ {
			r := []rune(w[i])
			r[0] = unicode.ToUpper(r[0])
			w[i] = string(r)
		}
		return strings.Join(w, ""), nil
	}
	return "", fmt.Errorf("unknown mode %q: use upper, lower, title, snake, kebab or camel", mode)
}
