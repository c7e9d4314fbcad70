package render

import "testing"

func TestContentsMarkdownKeepsOnlySGR(t *testing.T) {
	in := "\x1b[1mbold\x1b[m \x1b]8;;http://evil\x1b\\link\x1b]8;;\x07 \x1b[2J\x1b[?25l\x1b[31;1mred\x1bc\x07\x7f\x9b2Jok\n"
	want := "\x1b[1mbold\x1b[m link \x1b[31;1mred2Jok\n"
	if got := onlySGR(in); got != want {
		t.Errorf("onlySGR(%q)\n = %q\nwant %q", in, got, want)
	}
}
