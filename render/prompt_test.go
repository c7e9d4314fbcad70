package render_test

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"mcpwitness/render"
	"mcpwitness/themes"
)

// promptDoc is the document of a prompts/get answer alone (see
// [render.Doc.PromptMessages]).
func promptDoc(result json.RawMessage, w int, s *themes.Styles) []string {
	d := render.NewDoc(w, s)
	d.PromptMessages(result)
	return d.Lines()
}

func promptResult(t *testing.T, desc string, msgs ...map[string]any) json.RawMessage {
	t.Helper()
	raw, err := json.Marshal(map[string]any{"description": desc, "messages": msgs})
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func TestPromptMessagesByRoleAndType(t *testing.T) {
	raw := promptResult(t, "Review a change and suggest improvements.",
		map[string]any{"role": "user", "content": map[string]any{"type": "text", "text": "Please review this diff:\n+ added a line"}},
		map[string]any{"role": "user", "content": map[string]any{"type": "image", "mimeType": "image/png", "data": pngOf(t, 16, 8)}},
		map[string]any{"role": "assistant", "content": map[string]any{"type": "audio", "mimeType": "audio/wav", "data": base64.StdEncoding.EncodeToString(make([]byte, 3000))}},
		map[string]any{"role": "user", "content": map[string]any{"type": "resource", "resource": map[string]any{"uri": "file:///src/main.go", "mimeType": "text/x-go", "text": "package main"}}},
		map[string]any{"role": "user", "content": map[string]any{"type": "resource_link", "uri": "file:///README.md", "name": "readme", "title": "The readme", "description": "What the project is", "mimeType": "text/markdown", "size": 2048}},
		map[string]any{"role": "system", "content": map[string]any{"type": "video", "uri": "x"}},
		map[string]any{"content": []any{map[string]any{"type": "text", "text": "one of a list"}}},
	)
	text := checkLines(t, promptDoc(raw, 60, styles(t)), 60)
	for _, want := range []string{
		"Review a change", "Messages (7)", "1 user", "Please review this diff:", "PNG image, 16×8",
		"audio/wav · 3.0 kB", "file:///src/main.go", "package main", "The readme (readme)",
		"2.0 kB", "3 assistant", "6 system", "unknown content type", "7 no role", "one of a list",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in:\n%s", want, text)
		}
	}
	golden.RequireEqual(t, []byte(text))
}

func TestPromptHostileStringsComeOutSafe(t *testing.T) {
	evil := "x\x1b]0;title\x07\x1b[2J\u202edesrever\u2066\x9b31m\r\bend"
	raw := promptResult(t, evil,
		map[string]any{"role": evil, "content": map[string]any{"type": "text", "text": evil}},
		map[string]any{"role": "user", "content": map[string]any{"type": evil}},
		map[string]any{"role": "user", "content": map[string]any{"type": "image", "mimeType": evil, "data": evil}},
		map[string]any{"role": "user", "content": map[string]any{"type": "resource_link", "uri": evil, "name": evil, "title": evil, "description": evil, "annotations": map[string]any{"audience": []string{evil}}}},
		map[string]any{"role": "user", "content": map[string]any{"type": "resource", "resource": map[string]any{"uri": evil, "mimeType": "text/markdown", "text": evil}}},
	)
	for _, s := range []*themes.Styles{styles(t), colour(t)} {
		for _, r := range []json.RawMessage{raw, json.RawMessage(`"` + evil + `"`), json.RawMessage(`{"messages":[7]}`)} {
			checkLines(t, promptDoc(r, 44, s), 44)
		}
	}
	text := checkLines(t, promptDoc(raw, 44, styles(t)), 44)
	if !strings.Contains(text, "␛]0;title") || !strings.Contains(text, `\u202e`) {
		t.Errorf("the escape and the override are not shown visibly:\n%s", text)
	}
}
