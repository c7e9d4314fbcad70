package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"mcpwitness/record"

	"mcpwitness/ui/panes"
)

// wideSchema is an object schema of n string properties p00000 …, every
// third with a description.
func wideSchema(n int) string {
	props := make([]string, n)
	for i := range props {
		desc := ""
		if i%3 == 0 {
			desc = fmt.Sprintf(`,"description":"field %d"`, i)
		}
		props[i] = fmt.Sprintf(`"p%05d":{"type":"string"%s}`, i, desc)
	}
	return `{"type":"object","properties":{` + strings.Join(props, ",") + `}}`
}

// wideToolModel is a model at 120×40 whose server lists one tool, "wide",
// whose input schema has n string properties p00000 …, every third with
// a description.
func wideToolModel(t testing.TB, n int) *model {
	t.Helper()
	def := []byte(`{"name":"wide","inputSchema":` + wideSchema(n) + `}`)
	m := newModel(options{Theme: "dark", Now: func() time.Time { return t0 }, Loc: time.UTC, Backend: &fakeBackend{}})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	b := &evs{}
	for _, ev := range []record.Event{b.connect(), b.walkStart(1), b.page(1, 1, 1, "", def), b.walkDone(1, 1, 1, 1, "")} {
		m.Update(eventMsg(ev))
	}
	return m
}

// The form of a schema with hundreds of properties draws only the lines
// it shows: whatever the field focused, the window holds it, is a run of
// the whole form's lines, and counts those above and below it.
func TestWideFormWindow(t *testing.T) {
	m := wideToolModel(t, panes.MaxFormFields)
	m.Update(keyMsg("enter"))
	e := &m.editor
	if m.mode != modeEditor || e.Raw || len(e.Fields) != panes.MaxFormFields {
		t.Fatalf("mode %v raw %v fields %d: want the form of %d fields", m.mode, e.Raw, len(e.Fields), panes.MaxFormFields)
	}
	plain := func(ls []string) string { return ansi.Strip(strings.Join(ls, "\n")) }
	for _, focus := range []int{0, 1, 2, 3, 30, 31, 250, panes.MaxFormFields - 2, panes.MaxFormFields - 1} {
		e.Focus = focus
		all := e.FormLines(0, e.FormLineCount())
		if len(all) != e.FormLineCount() {
			t.Fatalf("focus %d: the whole form is %d lines, counted %d", focus, len(all), e.FormLineCount())
		}
		for _, room := range []int{3, 4, 10, 25} {
			win := e.FormWindow(room)
			if len(win) > room {
				t.Errorf("focus %d room %d: %d lines", focus, room, len(win))
			}
			var above, below int
			body := win
			if len(body) > 0 && strings.Contains(ansi.Strip(body[0]), "above") {
				fmt.Sscanf(strings.TrimSpace(ansi.Strip(body[0])), "… %d", &above)
				body = body[1:]
			}
			if n := len(body); n > 0 && strings.Contains(ansi.Strip(body[n-1]), "below") {
				fmt.Sscanf(strings.TrimSpace(ansi.Strip(body[n-1])), "… %d", &below)
				body = body[:n-1]
			}
			if above+len(body)+below != len(all) || plain(body) != plain(all[above:above+len(body)]) {
				t.Fatalf("focus %d room %d: %d above, %d shown, %d below of %d lines; shown:\n%s", focus, room, above, len(body), below, len(all), plain(body))
			}
			if !strings.Contains(plain(body), fmt.Sprintf("▸ p%05d", focus)) {
				t.Errorf("focus %d room %d: the focused field is not shown:\n%s", focus, room, plain(body))
			}
		}
	}
}

// A schema with more properties than a form takes is edited as raw JSON,
// and ctrl+r says why.
func TestTooManyPropertiesForAForm(t *testing.T) {
	m := wideToolModel(t, panes.MaxFormFields+1)
	m.Update(keyMsg("enter"))
	if m.mode != modeEditor || !m.editor.Raw || m.editor.Fields != nil {
		t.Fatalf("mode %v raw %v fields %d: want raw JSON", m.mode, m.editor.Raw, len(m.editor.Fields))
	}
	m.Update(keyMsg("ctrl+r"))
	if want := fmt.Sprintf("it has %d properties, and a form takes at most %d", panes.MaxFormFields+1, panes.MaxFormFields); !strings.Contains(m.editor.Note, want) {
		t.Errorf("ctrl+r said %q, want %q", m.editor.Note, want)
	}
}

// BenchmarkOpenWideForm measures enter on a tool of as many properties
// as a form takes, and of ten thousand (raw JSON).
func BenchmarkOpenWideForm(b *testing.B) {
	for _, n := range []int{panes.MaxFormFields, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				m := wideToolModel(b, n)
				b.StartTimer()
				m.Update(keyMsg("enter"))
				_ = m.View()
			}
		})
	}
}

// BenchmarkTypeWideForm measures a key typed in the form of as many
// fields as a form takes; BenchmarkTypeWideRaw in the raw JSON of ten
// thousand properties.
func BenchmarkTypeWideForm(b *testing.B) {
	m := wideToolModel(b, panes.MaxFormFields)
	m.Update(keyMsg("enter"))
	for b.Loop() {
		m.Update(keyMsg("a"))
		_ = m.View()
	}
}

func BenchmarkTypeWideRaw(b *testing.B) {
	m := wideToolModel(b, 10000)
	m.Update(keyMsg("enter"))
	for b.Loop() {
		m.Update(keyMsg("a"))
		_ = m.View()
	}
}
