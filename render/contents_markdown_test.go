package render_test

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/google/go-cmp/cmp"

	"mcpwitness/render"
	"mcpwitness/themes"
)

// markdownSample holds every construct the Markdown view draws.
const markdownSample = "# Title\n\n" +
	"Intro with *emphasis*, **strong**, ***both***, `code`, a [link](https://example.com/docs \"t\"), " +
	"<https://example.com/auto>, ![a logo](logo.png), an escaped \\*star\\*, an &amp; entity and a hard  \nbreak.\n\n" +
	"## Lists\n\n" +
	"- one\n- two with a long line that has to wrap around the width of the pane\n  - nested\n    - deeper\n- three\n\n" +
	"3. third\n4. fourth\n\n" +
	"- loose one\n\n- loose two\n\n" +
	"### Quote\n\n" +
	"> quoted *text* that is long enough to wrap onto a second line\n>\n> > nested quote\n\n" +
	"```go\nfunc main() {\n\tprintln(\"a very long line of code that is cut rather than wrapped at the width\")\n}\n```\n\n" +
	"    indented code\n\n" +
	"---\n\n" +
	"| name | value | mid |\n|:-----|------:|:---:|\n| a | 1 | x |\n| b \\| c | 22 | wide |\n\n" +
	"<div class=\"x\">\nraw html\n</div>\n\n" +
	"Inline <b>html</b> stays text.\n"

func TestMarkdownConstructs(t *testing.T) {
	var out strings.Builder
	for _, st := range []*themes.Styles{styles(t), colour(t)} {
		d := render.NewDoc(50, st)
		d.Markdown(markdownSample, 2)
		out.WriteString("== " + st.Name + "\n")
		out.WriteString(checkLines(t, d.Lines(), 50))
	}
	golden.RequireEqual(t, []byte(out.String()))
}

// markdownLines renders src in st at width w, checked safe and in bounds,
// and returns it stripped.
func markdownLines(t *testing.T, src string, w int, st *themes.Styles) string {
	t.Helper()
	d := render.NewDoc(w, st)
	d.Markdown(src, 0)
	return checkLines(t, d.Lines(), w)
}

func TestMarkdownHostileStringsComeOutSafe(t *testing.T) {
	evil := "x\x1b]0;title\x07\x1b[2J\u202edesrever\u200b\x9b31m\r\bend"
	// References resolve to controls only once parsed: they must be
	// sanitised after that, not only in the source.
	refs := "&#27;]8;;http://evil&#7;&#x1b;[2J&#x202E;&#x200b;&#155;"
	src := "# " + evil + refs + "\n\n" +
		"para " + evil + " *" + refs + "* `" + evil + refs + "`\n\n" +
		"[link " + evil + "](http://x/" + refs + ") <http://y/" + refs + "> ![" + refs + "](" + refs + ")\n\n" +
		"```" + refs + "\n" + evil + "\n```\n\n" +
		"<div " + evil + ">\n" + refs + "\n</div>\n\n" +
		"inline <span title=\"" + refs + "\">x</span>\n\n" +
		"| a | " + refs + " |\n|---|---|\n| " + evil + " | c |\n\n" +
		"- " + evil + "\n  > " + refs + "\n"
	for _, st := range []*themes.Styles{styles(t), colour(t)} {
		for _, w := range []int{12, 50} {
			markdownLines(t, src, w, st)
		}
	}
	text := markdownLines(t, src, 200, colour(t))
	for _, want := range []string{"␛]0;title", "␛]8;;http://evil", `\u202e`, `\u200b`} {
		if !strings.Contains(text, want) {
			t.Errorf("%q is not shown visibly:\n%s", want, text)
		}
	}
}

// TestMarkdownHostileStringsInEveryConstruct puts an escape, bidi
// controls and tag characters in each construct, written out and as
// references (which become characters only once parsed): each reaches the
// drawn lines only as a visible escape. Code and autolinks resolve no
// reference: there a reference is drawn as written.
func TestMarkdownHostileStringsInEveryConstruct(t *testing.T) {
	written := "\x1b]8;;http://evil\x07\u2066\u202e\U000E0041\U000E0042"
	refs := "&#27;]8;;http://evil&#7;&#x2066;&#x202E;&#xE0041;&#xE0042;"
	want := []string{"␛]8;;http://evil", `\u2066`, `\u202e`, `\U000e0041\U000e0042`}
	for _, bad := range []string{written, refs} {
		for _, tc := range []struct {
			name, src string
			verbatim  bool // references are not resolved
		}{
			{"heading", "# h" + bad, false},
			{"setext heading", "h" + bad + "\n===", false},
			{"emphasis", "**s" + bad + "**", false},
			{"link text", "[t" + bad + "](http://x)", false},
			{"link target", "[t](http://x/" + bad + ")", false},
			{"link reference", "[t][r]\n\n[r]: http://x/" + bad, false},
			{"autolink", "<http://x/" + bad + ">", true},
			{"image", "![a" + bad + "](http://x/" + bad + ")", false},
			{"code span", "`" + bad + "`", true},
			{"code block", "```\n" + bad + "\n```", true},
			{"info string", "```" + bad + "\nx\n```", false},
			{"indented code", "    " + bad, true},
			{"table cell", "| a" + bad + " |\n|---|\n| " + bad + " |", false},
			{"list in quote", "> - " + bad, false},
		} {
			want := want
			if tc.verbatim && bad == refs {
				want = []string{refs}
			}
			t.Run(tc.name, func(t *testing.T) {
				for _, st := range []*themes.Styles{styles(t), colour(t)} {
					text := markdownLines(t, tc.src, 200, st)
					for _, w := range want {
						if !strings.Contains(text, w) {
							t.Errorf("%s: %q is not shown visibly in:\n%s", st.Name, w, text)
						}
					}
				}
			})
		}
	}
}

func TestMarkdownDeepNestingStaysInWidth(t *testing.T) {
	src := strings.Repeat("> ", 300) + strings.Repeat("- ", 300) + "text that is long enough to wrap " + strings.Repeat("x", 90) + "\n"
	for _, st := range []*themes.Styles{styles(t), colour(t)} {
		text := markdownLines(t, src, 40, st)
		if !strings.Contains(text, "text that") {
			t.Errorf("the text of a deeply nested block is lost:\n%s", text)
		}
	}
}

func TestMarkdownMonoMarksWithoutColour(t *testing.T) {
	d := render.NewDoc(60, styles(t))
	d.Markdown(markdownSample, 0)
	lines := d.Lines()
	text := checkLines(t, lines, 60)
	for _, l := range lines {
		for _, seq := range sgr.FindAllString(l, -1) {
			if strings.Contains(seq, "38;") || strings.Contains(seq, "48;") {
				t.Errorf("mono line %q holds a colour: %q", l, seq)
			}
		}
	}
	for _, want := range []string{"# Title", "*emphasis*", "**strong**", "`code`", "> quoted", "```go", "link (https://example.com/docs)", "• one", "3. third"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in the mono rendering:\n%s", want, text)
		}
	}
	coloured := markdownLines(t, markdownSample, 60, colour(t))
	for _, gone := range []string{"# Title", "*emphasis*", "`code`", "```"} {
		if strings.Contains(coloured, gone) {
			t.Errorf("the colour rendering shows the mark %q:\n%s", gone, coloured)
		}
	}
}

func TestMarkdownOverBoundIsPlainText(t *testing.T) {
	src := strings.Repeat("# heading\n\n", 7000) // over 64 KiB
	text := markdownLines(t, src, 60, colour(t))
	if !strings.Contains(text, "# heading") {
		t.Errorf("Markdown over the bound is not shown as its plain text:\n%.200s", text)
	}
	if text := markdownLines(t, "# heading\n", 60, colour(t)); strings.Contains(text, "#") {
		t.Errorf("Markdown under the bound is not rendered:\n%s", text)
	}
}

func TestMarkdownTableTooWideWrapsEachRow(t *testing.T) {
	src := "| key | description |\n|---|---|\n| alpha | a description far too long for one line of twenty cells |\n"
	text := markdownLines(t, src, 24, styles(t))
	for _, want := range []string{"key │ description", "alpha │ a description", "twenty cells"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in:\n%s", want, text)
		}
	}
	if strings.Contains(text, "┼") {
		t.Errorf("a table too wide for columns is drawn in columns:\n%s", text)
	}
}

// TestMarkdownDrawsCommonMark draws what CommonMark parses: each case is
// a rule of the spec as the mono view shows it.
func TestMarkdownDrawsCommonMark(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"atx and setext headings", "# one #\n## two\nthree\n===\n#nope",
			"# one\n\n## two\n\n# three\n\n#nope\n"},
		{"nested lists by depth", "- a\n  * b\n    + c\n- e\n* f",
			"• a\n  ◦ b\n    ▪ c\n• e\n\n• f\n"},
		{"ordered lists keep start and delimiter", "3. a\n4. b\n\n1) c", "3. a\n4. b\n\n1) c\n"},
		{"a loose list has blank lines", "- a\n\n- b\n- c", "• a\n\n• b\n\n• c\n"},
		{"a number other than 1 does not interrupt a paragraph", "a\n2. b", "a 2. b\n"},
		{"lazy continuation of a quote", "> a\nb\n\nd", "> a b\n\nd\n"},
		{"nested quotes", "> a\n>\n> > b", "> a\n>\n> > b\n"},
		{"fences", "~~~~ py x\n~~~\ncode\n~~~~~", "```py\n  ~~~\n  code\n```\n"},
		{"an unclosed fence runs to the end", "```\na\n\nb", "```\n  a\n  \n  b\n```\n"},
		{"html block", "<!-- a\nb -->\nc", "<!-- a\nb -->\n\nc\n"},
		{"reference definitions", "[x][ref] [y]\n\n[ref]: /u \"t\"\n", "x (/u) [y]\n"},
		{"no intraword underscore emphasis", "_snake_case_ and a_b_c", "*snake_case* and a_b_c\n"},
		{"rule of three", "*foo**bar*", "*foo**bar*\n"},
		{"destinations", "[a](http://x/(b)c) [d](<e f> 't') [a](x(y)", "a (http://x/(b)c) d (e f) [a](x(y)\n"},
		{"autolinks", "<https://x.y/z> <mail@x.org> <1 2>", "https://x.y/z mail@x.org <1 2>\n"},
		{"code spans", "`a` `` b`c `` ``` d", "`a` `b`c` ``` d\n"},
		{"escapes and references", `\*a\* \q &amp; &copy; &nosuch;`, "*a* \\q & © &nosuch;\n"},
		{"hard and soft breaks", "a  \nb\\\nc\nd", "a\nb\nc d\n"},
		{"no strikethrough, no linkify", "~~s~~ www.x.com", "~~s~~ www.x.com\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, markdownLines(t, tc.src, 40, styles(t))); diff != "" {
				t.Errorf("%q drawn (-want +got):\n%s", tc.src, diff)
			}
		})
	}
}

// TestMarkdownTableCellsAsGFM draws a table as GFM reads one: a cell's
// inlines parsed, cells past the header's count dropped, a short row
// filled.
func TestMarkdownTableCellsAsGFM(t *testing.T) {
	src := "| a | *b* |\n|---|:-:|\n| `c` | d \\| e | extra |\n| only |\n"
	want := "a    │  *b*\n─────┼──────\n`c`  │ d | e\nonly │\n"
	if diff := cmp.Diff(want, markdownLines(t, src, 40, styles(t))); diff != "" {
		t.Errorf("table drawn (-want +got):\n%s", diff)
	}
	if text := markdownLines(t, src, 40, colour(t)); strings.Contains(text, "*b*") || strings.Contains(text, "`c`") {
		t.Errorf("a cell's emphasis or code is drawn as its source:\n%s", text)
	}
}

// TestMarkdownDeepInputEnds feeds 10,000 of each nesting mark on one line
// (1,000 on lines of their own, within the lines a document shows): the
// view is drawn (the suite's timeout would say if it were not), within
// the width, and the text after the marks is kept.
func TestMarkdownDeepInputEnds(t *testing.T) {
	for _, mark := range []string{"[", "![", ">", "> ", "- ", "*", "_", "`", "(", "<", "&", "*a ", "[a](", "<!--", "[a]: <"} {
		src := strings.Repeat(mark, 10000) + " end"
		for _, s := range []string{src, src + strings.Repeat("]", 10000), strings.Repeat(mark+"\n", 1000) + "end"} {
			if text := markdownLines(t, s, 40, styles(t)); !strings.Contains(text, "end") {
				t.Errorf("%q×10000: the text after the marks is lost", mark)
			}
		}
	}
}

// BenchmarkMarkdown renders about 60 KiB of Markdown, near the bound, as
// a pane does when a resource's contents arrive.
func BenchmarkMarkdown(b *testing.B) {
	src := strings.Repeat(markdownSample, 60<<10/len(markdownSample))
	st := themes.New(themes.Palette{Name: themes.Mono, Mono: true})
	for b.Loop() {
		d := render.NewDoc(80, &st)
		d.Markdown(src, 2)
	}
}

// BenchmarkMarkdownNestedEmphasis renders 5,000 openers of emphasis
// closed in reverse, the nesting a parser that backtracks pays for most.
func BenchmarkMarkdownNestedEmphasis(b *testing.B) {
	src := strings.Repeat("*a ", 5000) + strings.Repeat("b* ", 5000)
	st := themes.New(themes.Palette{Name: themes.Mono, Mono: true})
	for b.Loop() {
		d := render.NewDoc(80, &st)
		d.Markdown(src, 2)
	}
}

// BenchmarkMarkdownParse parses the source of BenchmarkMarkdown without
// drawing it: the parser's share of the view's cost.
func BenchmarkMarkdownParse(b *testing.B) {
	src := strings.Repeat(markdownSample, 60<<10/len(markdownSample))
	for b.Loop() {
		render.ParseMarkdown(src)
	}
}
