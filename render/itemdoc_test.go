package render_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"mcpwitness/fold"
	"mcpwitness/paging"
	"mcpwitness/render"
)

func TestShortMIMEAndAnnotations(t *testing.T) {
	for in, want := range map[string]string{"text/markdown; charset=utf-8": "markdown", "application/json": "json", "odd": "odd", "": "",
		"application/vnd.openxmlformats-officedocument": "vnd.openxml…", "text/x\x1b[2J": `x␛[2J`} {
		if got := render.ShortMIME(in); got != want {
			t.Errorf("ShortMIME(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{`{"audience":["user"],"priority":0.8}`: "user p0.8", `{"priority":1}`: "p1",
		`{"audience":["user","assistant"]}`: "user+assistant", `{}`: "", `null`: "", `[1]`: ""} {
		if got := render.ShortAnnotations(json.RawMessage(in)); got != want {
			t.Errorf("ShortAnnotations(%s) = %q, want %q", in, got, want)
		}
	}
}

// TestItemDocShowsAPromptsArguments: required ones marked, where it was
// listed, server text shown safely.
func TestItemDocShowsAPromptsArguments(t *testing.T) {
	it := fold.ReadItem(paging.Prompts().Name, json.RawMessage(`{"name":"p\u001b[31m","description":"d","arguments":[{"name":"x","required":true},{"name":"y","description":"why"}]}`))
	it.Walk, it.Page, it.Gen = 3, 2, 7
	doc := ansi.Strip(strings.Join(render.ItemDoc(it, render.ItemListing{Done: true, Verb: "gets it"}, nil, 60, styles(t), nil), "\n"))
	for _, want := range []string{`p␛[31m`, "walk #3 · page 2 · gen 7", "* x (required)", "  y  why", "enter gets it", "Definition"} {
		if !strings.Contains(doc, want) {
			t.Errorf("the document lacks %q:\n%s", want, doc)
		}
	}
	if strings.Contains(doc, "\x1b[31m") {
		t.Errorf("a server's escape reached the document:\n%q", doc)
	}
}
