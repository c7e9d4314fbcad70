package render_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"

	"mcpwitness/finding"
	"mcpwitness/fold"
	"mcpwitness/paging"
	"mcpwitness/render"
	"mcpwitness/themes"
)

func styles(t testing.TB) *themes.Styles {
	t.Helper()
	p, ok := themes.Lookup(themes.Mono)
	if !ok {
		t.Fatal("no mono theme")
	}
	s := themes.New(p)
	return &s
}

func TestDocWrapsAndShowsControlsVisibly(t *testing.T) {
	s := styles(t)
	d := render.NewDoc(20, s)
	d.Text(s.Text, "one two three four five six\x1b[2J", 2)
	d.JSON(json.RawMessage(`{"name":"a\u202eb"}`), 0)
	var got []string
	for _, l := range d.Lines() {
		got = append(got, ansi.Strip(l))
		if w := ansi.StringWidth(l); w > 20 {
			t.Errorf("line %q is %d cells wide, over 20", l, w)
		}
	}
	text := strings.Join(got, "\n")
	if strings.ContainsAny(text, "\x1b\u202e") {
		t.Errorf("a control or a bidi override reached the lines:\n%q", text)
	}
	if !strings.HasPrefix(got[0], "  one two") || len(got) < 3 {
		t.Errorf("text not wrapped with its indent:\n%s", text)
	}
}

func TestDocBoundsItsLines(t *testing.T) {
	s := styles(t)
	d := render.NewDoc(40, s)
	for range 5000 {
		d.Add("x")
	}
	lines := d.Lines()
	if last := ansi.Strip(lines[len(lines)-1]); last != "… 1000 more lines not shown" {
		t.Errorf("%d lines, the last %q; want the bound and a line saying what was left out", len(lines), last)
	}
}

func TestFormats(t *testing.T) {
	got := []string{
		render.VerdictMark(finding.Pass), render.VerdictMark(finding.Refused), render.VerdictMark(finding.Unchecked),
		render.Ms(0.42), render.Ms(12), render.Ms(1234), render.Dur(90 * time.Second),
		render.Ms(59_960), render.Dur(5 * time.Minute), render.Dur(2*time.Hour + 5*time.Minute + 9*time.Second), render.Dur(3 * time.Hour),
		render.TTL(30000), render.TTL(1500), render.TTL(300000), render.Size(812), render.Size(4300), render.Size(1_200_000),
		render.Plural(1, "page", "pages"), render.Plural(2, "page", "pages"),
		render.OneLine("first\r\nsecond"), render.OrDash(""), render.ShortLevel("warning"),
		render.PathOrRoot(""), render.Trunc("abcdef", 4), ansi.Strip(render.Fit("ab", 4)) + "|",
	}
	want := []string{
		"✓", "⊘", "?",
		"0.4 ms", "12 ms", "1.2 s", "1 min 30 s",
		"1 min", "5 min", "2 h 5 min", "3 h",
		"ttl 30 s", "ttl 1.5 s", "ttl 5 min", "812 B", "4.3 kB", "1.2 MB",
		"page", "pages",
		"first …", "–", "warn",
		"(root)", "abc…", "ab  |",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("formats (-want +got):\n%s", diff)
	}
}

func TestSafeJSONEscapesWhatATerminalWouldActOn(t *testing.T) {
	in := "{\n  \"a\": \"x\x1b[31m\u200by\u0085\U000e0041\u00ad ❤️\"\n}"
	want := "{\n  \"a\": \"x\\u001b[31m\\u200by\\u0085\\udb40\\udc41\\u00ad ❤️\"\n}"
	got := render.SafeJSON(in)
	if got != want {
		t.Errorf("SafeJSON(%q) = %q, want %q", in, got, want)
	}
	// In valid JSON (which holds no raw C0 control) the escapes mean the same.
	valid := "{\"a\": \"x\u200by\u0085\u202e\U000e0041\"}"
	var a, b any
	if json.Unmarshal([]byte(valid), &a) != nil || json.Unmarshal([]byte(render.SafeJSON(valid)), &b) != nil || !cmp.Equal(a, b) {
		t.Errorf("SafeJSON changed what the JSON means: %v != %v", a, b)
	}
	if plain := "{\"a\": 1}"; render.SafeJSON(plain) != plain {
		t.Errorf("SafeJSON changed plain JSON")
	}
}

func TestRowText(t *testing.T) {
	for _, c := range []struct {
		row              fold.Row
		wantKind, wantTx string
	}{
		{fold.Row{Kind: fold.RowStderr, Text: "boom\x1b[2J\nsecond line"}, "stderr", "boom␛[2J …"},
		{fold.Row{Kind: fold.RowStderr, Text: "cut", Cut: true}, "stderr", "cut …"},
		{fold.Row{Kind: fold.RowLog, LogLevel: "warning", Text: "careful"}, "log warn", "careful"},
		{fold.Row{Kind: fold.RowError, Method: "tools/list", Text: "timed out"}, "error", "tools/list: timed out"},
		{fold.Row{Kind: fold.RowWalk, Walk: &fold.WalkRow{ID: 2, Method: "tools/list", Pages: 3, Items: 25, Ms: 12,
			Incomplete: paging.CursorRepeated, Err: "cursor \"a\" again", AfterChange: true}},
			"walk", `walk #2 tools/list: ⚠ incomplete: cursor-repeated · 25 items · 12 ms (after list_changed) · cursor "a" again`},
		{fold.Row{Kind: fold.RowWalk, Walk: &fold.WalkRow{ID: 3, Method: "resources/list", Pages: 1, Items: 1, Ms: 2}},
			"walk", `walk #3 resources/list: ✓ 1 page · 1 item · 2.0 ms`},
	} {
		kind, text := render.RowText(&c.row)
		if kind != c.wantKind || text != c.wantTx {
			t.Errorf("RowText(%s) = %q, %q; want %q, %q", c.row.Kind, kind, text, c.wantKind, c.wantTx)
		}
	}
	long := fold.Row{Kind: fold.RowStderr, Text: strings.Repeat("é", fold.MaxRowText)}
	if _, text := render.RowText(&long); len(text) > fold.MaxRowText+len(" …") || !strings.HasSuffix(text, " …") {
		t.Errorf("a row over the bound is %d bytes, ending %q", len(text), text[len(text)-8:])
	}
}

func TestFrameRow(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 678e6, time.UTC)
	f := &fold.Frame{T: at, Method: "tools/call", ID: `"17"`, Size: 4300, Frame: json.RawMessage(`{}`),
		Latency: 12 * time.Millisecond, Note: "weather\x1b]0;title\x07"}
	got := render.FrameRow(f, 80, time.UTC)
	// The method in 20 cells at this width; the note as room allows.
	want := "03:04:05.678 tools/call           #17      4.3 kB    12 ms  weather␛]0;title…"
	if got != want {
		t.Errorf("FrameRow =\n%q\nwant\n%q", got, want)
	}
	if got := render.FrameRow(&fold.Frame{T: at, Text: "oops", Size: 4}, 60, time.UTC); !strings.Contains(got, "(not JSON)") {
		t.Errorf("a frame that is not JSON: %q", got)
	}
	if got := render.FrameRow(&fold.Frame{T: at, ID: "3", Frame: json.RawMessage(`{}`)}, 60, time.UTC); !strings.Contains(got, "(answer)     #3 ") {
		t.Errorf("an answer: %q", got)
	}
}

func TestHighlightStylesTheMatchedCharacters(t *testing.T) {
	base, hit := lipgloss.NewStyle(), lipgloss.NewStyle().Bold(true)
	got := render.Highlight("get_weather", []int{0, 4, 99}, base, hit)
	want := hit.Render("g") + base.Render("et_") + hit.Render("w") + base.Render("eather")
	if got != want {
		t.Errorf("Highlight = %q, want %q", got, want)
	}
	if ansi.Strip(got) != "get_weather" {
		t.Errorf("Highlight changed the text: %q", ansi.Strip(got))
	}
}
