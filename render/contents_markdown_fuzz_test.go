package render

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/yuin/goldmark/text"

	"mcpwitness/sanitize"
	"mcpwitness/themes"
)

// FuzzMarkdown parses any input without a panic, and renders it in lines
// within the width that hold no control, escape (but SGR), invisible
// character or invalid UTF-8 (testdata/fuzz holds what it found). The seeds are every construct the view
// draws, hostile strings and deep nesting; run it longer with
// go test -fuzz FuzzMarkdown -fuzztime 3m ./render/
func FuzzMarkdown(f *testing.F) {
	evil := "x\x1b]0;title\x07\x1b[2J\u202edesrever\u200b\x9b31m\r\bend"
	refs := "&#27;]8;;http://evil&#7;&#x1b;[2J&#x202E;&#x200b;&#155;&#0;&#x110000;"
	for _, seed := range []string{
		"# Title\n\nIntro with *emphasis*, **strong**, ***both***, `code`, a [link](https://example.com/docs \"t\"), " +
			"<https://example.com/auto>, ![a logo](logo.png), an escaped \\*star\\*, an &amp; entity and a hard  \nbreak.\n\n" +
			"- one\n- two\n  - nested\n    - deeper\n- three\n\n3. third\n4. fourth\n\n- loose one\n\n- loose two\n\n" +
			"> quoted *text*\n>\n> > nested quote\n\n```go\nfunc main() {\n\tprintln(\"x\")\n}\n```\n\n    indented code\n\n---\n\n" +
			"| name | value | mid |\n|:-----|------:|:---:|\n| a | 1 | x |\n| b \\| c | 22 | wide |\n\n" +
			"<div class=\"x\">\nraw html\n</div>\n\nInline <b>html</b> stays text.\n",
		"# " + evil + refs + "\n\npara *" + refs + "* `" + evil + refs + "`\n\n[link " + evil + "](http://x/" + refs + ") <http://y/" + refs + ">",
		"```" + refs + "\n" + evil + "\n```\n\n<div " + evil + ">\n" + refs + "\n</div>\n\n| a | " + refs + " |\n|---|---|\n| " + evil + " | c |\n",
		"[x][ref] [ref]\n\n[ref]: /url \"title\"\n\n- a\n\t- b\n\n\t\tcode\n> lazy\ncontinued\n",
		strings.Repeat("> ", 40) + strings.Repeat("- ", 40) + "deep\n" + strings.Repeat("[", 50) + strings.Repeat("*a ", 50),
		"*a **b** c* _d_e_ a*b*c **unclosed <!-- x --> <?pi?> <![CDATA[c]]> <a href='x'>\\\n&copy;",
	} {
		f.Add(seed, uint8(40))
	}
	mono := themes.New(themes.Palette{Name: themes.Mono, Mono: true})
	f.Fuzz(func(t *testing.T, src string, width uint8) {
		newMarkdownParser().Parse(text.NewReader([]byte(src))) // the raw source too, before the sanitiser
		w := 8 + int(width)%150
		lines, ok := renderMarkdown(sanitize.Text(src), w, &mono)
		if !ok {
			return
		}
		for _, l := range lines {
			if lw := ansi.StringWidth(l); lw > w {
				t.Fatalf("line %q is %d cells wide, over %d", l, lw, w)
			}
			// What is left is what the sanitiser leaves as it is: no
			// control, no invalid UTF-8, no bidi or zero-width character
			// (but a joiner within an emoji).
			if plain := stripSGR(l); !utf8.ValidString(plain) || sanitize.Line(plain) != plain {
				t.Fatalf("line %q is not safe for a terminal", l)
			}
		}
	})
}

// stripSGR drops the SGR sequences (ESC [ digits ; : m) of s, and only
// those: any other escape is left for the check to find.
func stripSGR(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == ';' || s[j] == ':') {
				j++
			}
			if j < len(s) && s[j] == 'm' {
				i = j
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// ParseMarkdown parses src as the Markdown view does, for the benchmarks
// of package render_test, which hold the sample.
func ParseMarkdown(src string) { newMarkdownParser().Parse(text.NewReader([]byte(src))) }
