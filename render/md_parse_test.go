package render

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// mdTree writes n as an S-expression: blocks by kind with their children,
// inlines as quoted text, so that a test states the structure it expects.
func mdTree(n *mdNode) string {
	var b strings.Builder
	writeTree(&b, n)
	return b.String()
}

func writeTree(b *strings.Builder, n *mdNode) {
	switch n.kind {
	case mdText:
		fmt.Fprintf(b, "%q", n.text)
		return
	case mdSoftBreak:
		b.WriteString("soft")
		return
	case mdHardBreak:
		b.WriteString("hard")
		return
	case mdCodeSpan:
		fmt.Fprintf(b, "(code %q)", n.text)
		return
	case mdRawHTML:
		fmt.Fprintf(b, "(html %q)", n.text)
		return
	case mdAutoLink:
		fmt.Fprintf(b, "(autolink %q)", n.dest)
		return
	case mdThematicBreak:
		b.WriteString("(hr)")
		return
	}
	b.WriteString("(")
	b.WriteString([...]string{mdDocument: "doc", mdQuote: "quote", mdList: "list", mdItem: "item",
		mdParagraph: "p", mdHeading: "h", mdCodeBlock: "code", mdFencedCode: "fence", mdHTMLBlock: "htmlblock",
		mdEmph: "em", mdLink: "link", mdImage: "image"}[n.kind])
	switch n.kind {
	case mdHeading, mdEmph:
		fmt.Fprintf(b, "%d", n.level)
	case mdList:
		fmt.Fprintf(b, " %c", n.list.marker)
		if n.list.ordered {
			fmt.Fprintf(b, " start=%d", n.list.start)
		}
		if !n.list.tight {
			b.WriteString(" loose")
		}
	case mdFencedCode:
		fmt.Fprintf(b, " %q", n.text)
	case mdLink, mdImage:
		fmt.Fprintf(b, " %q", n.dest)
	}
	for _, l := range n.lines {
		if n.kind != mdParagraph {
			fmt.Fprintf(b, " %q", l)
		}
	}
	for c := n.first; c != nil; c = c.nx {
		b.WriteString(" ")
		writeTree(b, c)
	}
	b.WriteString(")")
}

func TestParseMarkdownBlocks(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"headings", "# one #\n## two\nthree\n===\nfour\n---\n#nope",
			`(doc (h1 "one") (h2 "two") (h1 "three") (h2 "four") (p "#nope"))`},
		{"nested lists with different markers",
			"- a\n  * b\n    + c\n  * d\n- e\n* f",
			`(doc (list - (item (p "a") (list * (item (p "b") (list + (item (p "c")))) (item (p "d")))) (item (p "e"))) (list * (item (p "f"))))`},
		{"ordered lists keep start and delimiter", "3. a\n4. b\n\n1) c",
			`(doc (list . start=3 (item (p "a")) (item (p "b"))) (list ) start=1 (item (p "c"))))`},
		{"a blank line between items makes the list loose", "- a\n\n- b\n- c",
			`(doc (list - loose (item (p "a")) (item (p "b")) (item (p "c"))))`},
		{"a blank line between blocks of an item makes it loose", "- a\n\n  b\n- c",
			`(doc (list - loose (item (p "a") (p "b")) (item (p "c"))))`},
		{"a number other than 1 does not interrupt a paragraph", "a\n2. b",
			`(doc (p "a" soft "2. b"))`},
		{"lazy block quote continuation", "> a\nb\n> c\n\nd",
			`(doc (quote (p "a" soft "b" soft "c")) (p "d"))`},
		{"lazy continuation in a list in a quote", "> - a\nb",
			`(doc (quote (list - (item (p "a" soft "b")))))`},
		{"nested quotes", "> a\n>\n> > b",
			`(doc (quote (p "a") (quote (p "b"))))`},
		{"tilde fences and longer fences", "~~~~ py x\n~~~\ncode\n~~~~~\n````\n```\n````",
			`(doc (fence "py x" "~~~" "code") (fence "" "` + "```" + `"))`},
		{"a backtick fence's info has no backtick", "``` a`b ```",
			"(doc (p (code \"a`b\")))"},
		{"an unclosed fence runs to the end", "```\na\n\nb",
			`(doc (fence "" "a" "" "b"))`},
		{"indented code keeps inner blank lines, not trailing ones", "    a\n\n    b\n\n\nc",
			`(doc (code "a" "" "b") (p "c"))`},
		{"thematic breaks", "***\n- - -\n_ _ _ _",
			`(doc (hr) (hr) (hr))`},
		{"html block", "<div class=\"x\">\n*x*\n</div>\n\n*y*",
			`(doc (htmlblock "<div class=\"x\">" "*x*" "</div>") (p (em1 "y")))`},
		{"html comment block ends at its closer", "<!-- a\nb -->\nc",
			`(doc (htmlblock "<!-- a" "b -->") (p "c"))`},
		{"reference definitions are taken out and used", "[x][ref] [Ref] [y]\n\n[ref]: /u \"t\"\n",
			`(doc (p (link "/u" "x") " " (link "/u" "Ref") " [y]"))`},
		{"a tab is read as spaces to the next stop", "-\tfoo\n\n\tbar",
			`(doc (list - loose (item (p "foo") (p "bar"))))`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, mdTree(parseMarkdown(tc.src))); diff != "" {
				t.Errorf("parse of %q (-want +got):\n%s", tc.src, diff)
			}
		})
	}
}

func TestParseMarkdownInlines(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"intraword star emphasis", "a*b*c", `(doc (p "a" (em1 "b") "c"))`},
		{"no intraword underscore emphasis", "_snake_case_ and snake_case_x",
			`(doc (p (em1 "snake_case") " and snake_case_x"))`},
		{"an unclosed run is text", "**unclosed *and", `(doc (p "**unclosed *and"))`},
		{"both", "***both***", `(doc (p (em1 (em2 "both"))))`},
		{"strong in emphasis", "*a **b** c*", `(doc (p (em1 "a " (em2 "b") " c")))`},
		{"rule of three", "*foo**bar*", `(doc (p (em1 "foo**bar")))`},
		{"parentheses in a destination", "[a](http://x/(b)c) [d](<e f> 't')",
			`(doc (p (link "http://x/(b)c" "a") " " (link "e f" "d")))`},
		{"unbalanced parentheses are no link", "[a](x(y)", `(doc (p "[a](x(y)"))`},
		{"links do not nest, images do", "[a [b](c) d](e) ![x ![y](z)](w)",
			`(doc (p "[a " (link "c" "b") " d](e) " (image "w" "x " (image "z" "y"))))`},
		{"autolinks", "<https://x.y/z> <mail@x.org> <1 2>",
			`(doc (p (autolink "https://x.y/z") " " (autolink "mail@x.org") " <1 2>"))`},
		{"code spans", "`a` `` b`c `` ``` d",
			"(doc (p (code \"a\") \" \" (code \"b`c\") \" ``` d\"))"},
		{"escapes", `\*a\* \\ \q`, `(doc (p "*a* \\ \\q"))`},
		{"references are decoded", "&amp; &#27; &#x1b; &#0; &copy; &nosuch; &#xZZ;",
			`(doc (p "& \x1b \x1b � © &nosuch; &#xZZ;"))`},
		{"hard and soft breaks", "a  \nb\\\nc\nd", `(doc (p "a" hard "b" hard "c" soft "d"))`},
		{"inline html is kept", `a <span title="x">b</span> <!-- c --> 1 < 2`,
			`(doc (p "a " (html "<span title=\"x\">") "b" (html "</span>") " " (html "<!-- c -->") " 1 < 2"))`},
		{"escaped brackets are no link", `\[a](b)`, `(doc (p "[a](b)"))`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, mdTree(parseMarkdown(tc.src))); diff != "" {
				t.Errorf("parse of %q (-want +got):\n%s", tc.src, diff)
			}
		})
	}
}

// TestParseMarkdownDeepInput feeds 10,000 of each nesting mark: the parse
// ends (the suite's timeout would say if it did not) without a panic, the
// tree stays within mdMaxNesting and the text after the marks is kept.
func TestParseMarkdownDeepInput(t *testing.T) {
	for _, mark := range []string{"[", "![", ">", "> ", "- ", "*", "_", "`", "(", "<", "&", "*a ", "[a](", "<!--", "[a]: <"} {
		src := strings.Repeat(mark, 10000) + " end"
		for _, s := range []string{src, src + strings.Repeat("]", 10000), strings.Repeat(mark+"\n", 10000) + "end"} {
			doc := parseMarkdown(s)
			if d := treeDepth(doc); d > 2*mdMaxNesting+4 {
				t.Errorf("%q×10000: the tree is %d deep", mark, d)
			}
			if !strings.Contains(fmt.Sprint(mdTree(doc)), "end") {
				t.Errorf("%q×10000: the text after the marks is lost", mark)
			}
		}
	}
}

// treeDepth is the depth of n's deepest block.
func treeDepth(n *mdNode) int {
	d := 0
	for c := n.first; c != nil; c = c.nx {
		if c.kind < mdText {
			d = max(d, treeDepth(c))
		}
	}
	return d + 1
}

// ParseMarkdown is parseMarkdown for the benchmarks of package
// render_test, which hold the sample.
var ParseMarkdown = parseMarkdown
