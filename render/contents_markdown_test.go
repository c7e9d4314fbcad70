package render_test

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

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
