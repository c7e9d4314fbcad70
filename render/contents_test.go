package render_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"mcpwitness/render"
	"mcpwitness/sanitize"
	"mcpwitness/themes"
)

// contentsDoc is the document of a resources/read answer alone (see
// [render.Doc.Contents]).
func contentsDoc(result json.RawMessage, w int, s *themes.Styles) []string {
	d := render.NewDoc(w, s)
	d.Contents(result)
	return d.Lines()
}

// sgr is an SGR sequence, the only escape a document may hold.
var sgr = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// unsafeIn names what of lines a terminal would act on or hide: any escape
// other than SGR styling, any other control, a bidi or zero-width
// character, invalid UTF-8; "" when there is none.
func unsafeIn(lines []string) string {
	for n, l := range lines {
		rest := sgr.ReplaceAllString(l, "")
		if !utf8.ValidString(rest) {
			return fmt.Sprintf("line %d holds invalid UTF-8: %q", n, l)
		}
		for _, r := range rest {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || sanitize.Invisible(r) {
				return fmt.Sprintf("line %d holds %U: %q", n, r, l)
			}
		}
	}
	return ""
}

// checkLines fails t when a line is unsafe or wider than w, and returns the
// lines stripped of styling, joined.
func checkLines(t *testing.T, lines []string, w int) string {
	t.Helper()
	if bad := unsafeIn(lines); bad != "" {
		t.Error(bad)
	}
	var out []string
	for _, l := range lines {
		if lw := ansi.StringWidth(l); lw > w {
			t.Errorf("line %q is %d cells wide, over %d", ansi.Strip(l), lw, w)
		}
		out = append(out, ansi.Strip(l))
	}
	return strings.Join(out, "\n") + "\n"
}

// checkWideLines is [checkLines] for a document that keeps JSON lines
// whole, for a view that scrolls sideways: only lines of JSON (a member,
// a value, a bracket) may be wider than w.
func checkWideLines(t *testing.T, lines []string, w int) string {
	t.Helper()
	var prose []string
	for _, l := range lines {
		if s := strings.TrimSpace(ansi.Strip(l)); s == "" || !strings.ContainsAny(s[:1], `"{}[]`) {
			prose = append(prose, l)
		}
	}
	checkLines(t, prose, w)
	if bad := unsafeIn(lines); bad != "" {
		t.Error(bad)
	}
	return ansi.Strip(strings.Join(lines, "\n")) + "\n"
}

func colour(t *testing.T) *themes.Styles {
	t.Helper()
	p, ok := themes.Lookup(themes.Dark)
	if !ok {
		t.Fatal("no dark theme")
	}
	s := themes.New(p)
	return &s
}

// pngOf encodes a w×h PNG, base64.
func pngOf(t *testing.T, w, h int) string {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(b.Bytes())
}

// result builds a resources/read result of items.
func result(t *testing.T, items ...map[string]any) json.RawMessage {
	t.Helper()
	raw, err := json.Marshal(map[string]any{"contents": items})
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func TestContentsByType(t *testing.T) {
	raw := result(t,
		map[string]any{"uri": "demo://config.json", "mimeType": "application/json", "text": `{"port":8080,"tags":["a","b"],"debug":false}`},
		map[string]any{"uri": "demo://readme.md", "mimeType": "text/markdown", "text": "# Readme\n\nSome *emphasis* and a list:\n\n- one\n- two\n"},
		map[string]any{"uri": "demo://notes.txt", "mimeType": "text/plain", "text": "line one\nline two"},
		map[string]any{"uri": "demo://untyped.md", "text": "## From the extension"},
		map[string]any{"uri": "demo://logo.png", "mimeType": "image/png", "blob": pngOf(t, 64, 32)},
		map[string]any{"uri": "demo://data.bin", "mimeType": "application/octet-stream", "blob": base64.StdEncoding.EncodeToString([]byte("\x00\x01\x02binary head\xff\xfe and more bytes than one row"))},
		map[string]any{"uri": "demo://both", "text": "t", "blob": "AA=="},
		map[string]any{"uri": "demo://bad", "blob": "not base64!"},
		map[string]any{"uri": "demo://none"},
	)
	text := checkLines(t, contentsDoc(raw, 60, styles(t)), 60)
	for _, want := range []string{`"port": 8080`, "Readme", "• one", "line two", "PNG image, 64×32", "0000  00 01 02 62", "has both text and blob", "blob is not valid base64", "has neither text nor blob"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in:\n%s", want, text)
		}
	}
	// The mono theme keeps Markdown's marks (#, *, backticks) visible; a
	// colour theme draws them as styles instead.
	coloured := checkLines(t, contentsDoc(raw, 60, colour(t)), 60)
	if strings.Contains(coloured, "# Readme") || strings.Contains(coloured, "*emphasis*") || !strings.Contains(coloured, "Some emphasis") {
		t.Errorf("the Markdown was not rendered:\n%s", coloured)
	}
	golden.RequireEqual(t, []byte(text))
}

func TestContentsHostileStringsComeOutSafe(t *testing.T) {
	evil := "x\x1b]0;title\x07\x1b[2J\u202edesrever\u200b\x9b31m\r\bend"
	raw := result(t,
		map[string]any{"uri": "demo://" + evil, "mimeType": "text/plain" + evil, "text": evil},
		map[string]any{"uri": "demo://md", "mimeType": "text/markdown", "text": "# " + evil + "\n\n[link " + evil + "](http://x/" + evil + ")\n\n```\n" + evil + "\n```\n\n| a | b |\n|---|---|\n| " + evil + " | c |\n"},
		map[string]any{"uri": "demo://j", "mimeType": "application/json", "text": `{"k":"` + strings.ReplaceAll(evil, "\x1b", `\u001b`) + `"}`},
		map[string]any{"uri": "demo://b", "mimeType": evil, "blob": base64.StdEncoding.EncodeToString([]byte(evil))},
	)
	// Invalid JSON and invalid UTF-8 where text is expected.
	bad := []byte(`{"contents":[{"uri":"demo://u","text":"a` + "\xff\x1b[31m" + `"}]}`)
	for _, s := range []*themes.Styles{styles(t), colour(t)} {
		for _, r := range []json.RawMessage{raw, bad, json.RawMessage("\x1b[2J")} {
			lines := contentsDoc(r, 50, s)
			checkLines(t, lines, 50)
		}
	}
	text := checkLines(t, contentsDoc(raw, 50, colour(t)), 50)
	if !strings.Contains(text, "␛]0;title") || !strings.Contains(text, `\u202e`) {
		t.Errorf("the escape and the override are not shown visibly:\n%s", text)
	}
}

func TestContentsAreBounded(t *testing.T) {
	huge := strings.Repeat("a line of text\n", 100000)
	blob := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{0xab}, 8<<20))
	raw := result(t,
		map[string]any{"uri": "demo://huge.txt", "mimeType": "text/plain", "text": huge},
		map[string]any{"uri": "demo://huge.md", "mimeType": "text/markdown", "text": strings.Repeat("# heading\n\n", 20000)},
		map[string]any{"uri": "demo://huge.bin", "blob": blob},
	)
	lines := contentsDoc(raw, 60, styles(t))
	if len(lines) > 4001 {
		t.Errorf("%d lines: the document is not bounded", len(lines))
	}
	text := checkLines(t, lines, 60)
	for _, want := range []string{"more lines of this item not shown", "1.5 MB text", "demo://huge.md", "8.4 MB blob", "0000  ab ab"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q: one huge item hides the others", want)
		}
	}
	one := contentsDoc(result(t, map[string]any{"uri": "demo://huge.bin", "blob": blob}), 60, styles(t))
	text = checkLines(t, one, 60)
	if !strings.Contains(text, "8.4 MB blob") || !strings.Contains(text, "0000  ab ab") {
		t.Errorf("a huge blob is not shown by its size and head:\n%s", text)
	}
}

func TestContentsNotAResult(t *testing.T) {
	text := checkLines(t, contentsDoc(json.RawMessage(`[1,2]`), 60, styles(t)), 60)
	if !strings.Contains(text, "not a resources/read result") {
		t.Errorf("an answer of the wrong shape is not named:\n%s", text)
	}
}

func TestContentsImageDimensions(t *testing.T) {
	enc := func(f func(*bytes.Buffer) error) string {
		var b bytes.Buffer
		if err := f(&b); err != nil {
			t.Fatal(err)
		}
		return base64.StdEncoding.EncodeToString(b.Bytes())
	}
	img := image.NewRGBA(image.Rect(0, 0, 30, 20))
	raw := result(t,
		map[string]any{"uri": "demo://a.gif", "mimeType": "image/gif", "blob": enc(func(b *bytes.Buffer) error { return gif.Encode(b, img, nil) })},
		map[string]any{"uri": "demo://a.jpg", "mimeType": "image/jpeg", "blob": enc(func(b *bytes.Buffer) error { return jpeg.Encode(b, img, nil) })},
		// A PNG named as something else is still seen for what it is.
		map[string]any{"uri": "demo://a.bin", "mimeType": "application/octet-stream", "blob": pngOf(t, 7, 5)},
		map[string]any{"uri": "demo://broken.png", "mimeType": "image/png", "blob": base64.StdEncoding.EncodeToString([]byte("not a png at all"))},
		map[string]any{"uri": "demo://a.webp", "mimeType": "image/webp", "blob": base64.StdEncoding.EncodeToString([]byte("RIFF....WEBPVP8 "))},
	)
	text := checkLines(t, contentsDoc(raw, 70, styles(t)), 70)
	for _, want := range []string{"GIF image, 30×20", "JPEG image, 30×20", "PNG image, 7×5", "image: dimensions not readable (image: unknown format)"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in:\n%s", want, text)
		}
	}
}

// A contents item's size stays whole on its line when the head wraps: the
// number is not left at the end of one line with its unit on the next.
func TestContentsSizeDoesNotBreak(t *testing.T) {
	st := styles(t)
	text := strings.Repeat("x", 1600)
	result, _ := json.Marshal(map[string]any{"contents": []any{map[string]any{
		"uri": "demo://resource/static/document/architecture.md", "mimeType": "text/markdown", "text": text}}})
	for w := 40; w <= 90; w++ {
		got := checkLines(t, contentsDoc(result, w, st), w)
		if !strings.Contains(got, "1.6 kB text") {
			t.Fatalf("width %d: the size is broken across lines:\n%s", w, got)
		}
	}
}
