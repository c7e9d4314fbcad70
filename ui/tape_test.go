package ui

import (
	"bufio"
	"fmt"
	"mcpwitness/ui/panes"
	"os"
	"os/exec"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// tapeKey is one key press of a VHS tape, in Bubble Tea's key names.
type tapeKey struct {
	line int
	key  string // "enter", "ctrl+s", "w", ...
	text bool   // typed by a Type command
}

// tapeKeys reads the key presses of a VHS tape: Type text, the named keys
// (Enter, Escape, Tab, arrows, …, with an optional @speed and count) and
// Ctrl+X combinations. Other commands are not key presses.
func tapeKeys(t *testing.T, path string) []tapeKey {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	names := map[string]string{"Enter": "enter", "Escape": "esc", "Tab": "tab", "Space": "space", "Backspace": "backspace",
		"Delete": "delete", "Up": "up", "Down": "down", "Left": "left", "Right": "right", "PageUp": "pgup", "PageDown": "pgdown",
		"Home": "home", "End": "end", "Insert": "insert"}
	var out []tapeKey
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cmd, rest, _ := strings.Cut(line, " ")
		word, _, _ := strings.Cut(cmd, "@")
		switch {
		case word == "Type":
			text, err := strconv.Unquote(strings.TrimSpace(rest))
			if err != nil {
				t.Fatalf("%s:%d: Type wants a quoted string: %v", path, n, err)
			}
			for _, r := range text {
				out = append(out, tapeKey{line: n, key: string(r), text: true})
			}
		case names[word] != "":
			count := 1
			if rest = strings.TrimSpace(rest); rest != "" {
				if count, err = strconv.Atoi(rest); err != nil {
					t.Fatalf("%s:%d: bad count %q", path, n, rest)
				}
			}
			for range count {
				out = append(out, tapeKey{line: n, key: names[word]})
			}
		case strings.HasPrefix(word, "Ctrl+") || strings.HasPrefix(word, "Alt+") || strings.HasPrefix(word, "Shift+"):
			parts := strings.Split(word, "+")
			last := parts[len(parts)-1]
			if k, ok := names[last]; ok {
				last = k
			} else {
				last = strings.ToLower(last)
			}
			mods := strings.ToLower(strings.Join(parts[:len(parts)-1], "+"))
			out = append(out, tapeKey{line: n, key: mods + "+" + last})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// stroke is a key string for key.Matches.
type stroke string

func (s stroke) String() string { return string(s) }

// TestTapeFollowsTheKeyMap walks demo.tape's key presses through the UI's
// modes: outside an input every key must be a binding of DefaultKeyMap;
// text goes only into the filter, the argument editor or the form a key
// opened. Enter on the demo's tabs: tools open the editor, resources are
// read, templates and prompts open the form (the tape's prompts have
// arguments).
func TestTapeFollowsTheKeyMap(t *testing.T) {
	keys := tapeKeys(t, "../demo.tape")
	live := panes.DefaultKeyMap()
	// A replay's keys: those of a live session that need a server are off.
	replay := live
	panes.DisableLiveKeys(&replay)
	w := &tapeWalk{km: live, live: live, replay: replay, all: bindings(live), shell: true} // the tape starts at a shell prompt
	for _, k := range keys {
		w.press(t, k)
	}
	if !w.started {
		t.Error("demo.tape never starts mcpwitness")
	}
	if w.mode != tapeNormal {
		t.Error("demo.tape ends inside the filter, the editor or a form")
	}
	if last := keys[len(keys)-1]; !key.Matches(stroke(last.key), w.km.Global.Quit) {
		t.Errorf("demo.tape ends with %q, not a quit key", last.key)
	}
}

// tapeMode is where a tape's keys go.
type tapeMode int

const (
	tapeNormal tapeMode = iota
	tapeFilter
	tapeEditor
	tapeForm
)

// tapeWalk follows a tape's keys: at the shell, in mcpwitness (live or a
// replay, with their key maps), in the filter or the editor.
type tapeWalk struct {
	km, live, replay panes.KeyMap
	all              []key.Binding // every binding of km
	mode             tapeMode
	tab              tab  // the tab shown, as the demo declares all four
	picking          bool // in a form, ↓ or ↑ chose a suggestion
	shell, started   bool
}

// press takes one key of the tape, failing t when mcpwitness would not
// take it where the tape is.
func (w *tapeWalk) press(t *testing.T, k tapeKey) {
	t.Helper()
	s, km := stroke(k.key), &w.km
	switch {
	case w.shell:
		// Typing the command that starts mcpwitness (or opens a file).
		if cmd := lineText(t, k.line-1); k.key == "enter" && k.line > 0 && strings.Contains(cmd, "mcpwitness") {
			w.shell, w.started, w.tab = false, true, tabTools
			w.km = w.live
			if strings.Contains(cmd, "mcpwitness open") {
				w.km = w.replay
			}
			w.all = bindings(w.km)
		}
	case w.mode == tapeNormal && key.Matches(s, km.Global.Quit) && k.text:
		// Back at the shell prompt; the tape may start mcpwitness again.
		w.shell = true
	case w.mode == tapeFilter:
		switch {
		case k.text:
		case key.Matches(s, km.Global.Back), k.key == "enter":
			w.mode = tapeNormal
		default:
			t.Errorf("demo.tape:%d: %q while filtering is neither text nor enter/esc", k.line, k.key)
		}
	case w.mode == tapeEditor:
		w.inEditor(t, k)
	case w.mode == tapeForm:
		w.inForm(t, k)
	default:
		w.inNormal(t, k)
	}
}

// inNormal takes a key of the tape outside an input: a tab, Enter on an
// item of the tab shown, or any other key of the map.
func (w *tapeWalk) inNormal(t *testing.T, k tapeKey) {
	t.Helper()
	s, km := stroke(k.key), &w.km
	switch {
	case key.Matches(s, km.Tools.Filter):
		w.mode = tapeFilter
	case key.Matches(s, km.Global.Tabs):
		w.tab = tab(k.key[0] - '1')
	case w.tab == tabTools && key.Matches(s, km.Tools.Call):
		w.mode = tapeEditor
	case w.tab != tabTools && key.Matches(s, km.Items.Open):
		if w.tab != tabResources {
			w.mode = tapeForm
		}
	case key.Matches(s, w.all...):
	default:
		t.Errorf("demo.tape:%d: %q is not a key of DefaultKeyMap", k.line, k.key)
	}
}

// inEditor takes a key of the tape in the argument editor.
func (w *tapeWalk) inEditor(t *testing.T, k tapeKey) {
	t.Helper()
	s, km := stroke(k.key), &w.km
	switch {
	case k.text:
	case key.Matches(s, km.Editor.Send), key.Matches(s, km.Global.Back):
		w.mode = tapeNormal
	case key.Matches(s, km.Editor.NextField, km.Editor.PrevField, km.Editor.Choice, km.Editor.Raw):
	default:
		t.Errorf("demo.tape:%d: %q in the editor is not an editor key", k.line, k.key)
	}
}

// inForm takes a key of the tape in a form. Enter picks a suggestion
// after ↓ or ↑ chose one, and sends the form otherwise.
func (w *tapeWalk) inForm(t *testing.T, k tapeKey) {
	t.Helper()
	s, f := stroke(k.key), &w.km.Form
	switch {
	case k.text:
	case key.Matches(s, f.Submit):
		if !w.picking {
			w.mode = tapeNormal
		}
		w.picking = false
	case key.Matches(s, f.Cancel), key.Matches(s, f.Force):
		w.mode, w.picking = tapeNormal, false
	case key.Matches(s, f.NextSuggst, f.PrevSuggst):
		w.picking = true
	case key.Matches(s, f.NextField, f.PrevField):
		w.picking = false
	default:
		t.Errorf("demo.tape:%d: %q in a form is not a form key", k.line, k.key)
	}
}

// bindings returns every binding of km, in every part's map.
func bindings(km panes.KeyMap) []key.Binding {
	var all []key.Binding
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		if b, ok := v.Interface().(key.Binding); ok {
			all = append(all, b)
			return
		}
		for i := range v.NumField() {
			walk(v.Field(i))
		}
	}
	walk(reflect.ValueOf(km))
	return all
}

// lineText is the line'th line (1-based) of demo.tape.
func lineText(t *testing.T, line int) string {
	t.Helper()
	b, err := os.ReadFile("../demo.tape")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	if line < 1 || line > len(lines) {
		return ""
	}
	return lines[line-1]
}

// TestTapeValidates runs `vhs validate` on demo.tape when vhs is installed.
func TestTapeValidates(t *testing.T) {
	vhs, err := exec.LookPath("vhs")
	if err != nil {
		t.Skip("vhs is not installed")
	}
	out, err := exec.Command(vhs, "validate", "../demo.tape").CombinedOutput()
	if err != nil {
		t.Errorf("vhs validate demo.tape: %v\n%s", err, out)
	}
}

// tapeWaits are the Wait+Screen commands of a VHS tape: the pattern each
// waits for on the screen, by line.
func tapeWaits(t *testing.T, path string) map[int]*regexp.Regexp {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int]*regexp.Regexp{}
	for i, line := range strings.Split(string(b), "\n") {
		cmd, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
		if word, _, _ := strings.Cut(cmd, "@"); word != "Wait+Screen" {
			continue
		}
		rest = strings.TrimSpace(rest)
		if len(rest) < 2 || rest[0] != '/' || rest[len(rest)-1] != '/' {
			t.Fatalf("%s:%d: Wait+Screen wants /pattern/: %q", path, i+1, rest)
		}
		out[i+1] = regexp.MustCompile(rest[1 : len(rest)-1])
	}
	return out
}

// stepEnd is the line of demo.tape after its step whose comment holds
// about: the next comment line after a command, or the end.
func stepEnd(t *testing.T, about string) int {
	t.Helper()
	b, err := os.ReadFile("../demo.tape")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	in, commands := false, false
	for i, l := range lines {
		l = strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(l, "#") && strings.Contains(l, about):
			in = true
		case in && strings.HasPrefix(l, "#") && commands:
			return i + 1
		case in && l != "" && !strings.HasPrefix(l, "#"):
			commands = true
		}
	}
	if !in {
		t.Fatalf("demo.tape has no step about %q", about)
	}
	return len(lines) + 1
}

// TestTapeOpensAVerdictWhole plays demo.tape against the demo server, from
// mcpwitness's start through its step that opens a verdict whole: each key
// as the tape presses it, each Wait+Screen waiting for its pattern on the
// screen (the calls go to the demo; the screen is 120×40, about the tape's
// 1200×760 pixels). The step reaches what it says: the failed verdict of
// forecast_broken opened whole with its paths, y copying that verdict,
// esc back to the call's detail.
func TestTapeOpensAVerdictWhole(t *testing.T) {
	keys, waits := tapeKeys(t, "../demo.tape"), tapeWaits(t, "../demo.tape")
	end := stepEnd(t, "verdict opened whole")
	h, _ := demoHarness(t)
	started, waited := false, 0
	var copied []string
	wait := func(upTo int) {
		for line := waited + 1; line < upTo; line++ {
			if re := waits[line]; re != nil && started {
				h.until(fmt.Sprintf("demo.tape:%d: /%s/", line, re), func() bool { return re.MatchString(h.screen()) })
				if re.String() == "Verdict whole" {
					if v := h.m.whole.x.Verdict; v == nil || v.Check != "output-schema" || len(v.Errors) == 0 {
						t.Errorf("demo.tape:%d: the view opened whole holds verdict %+v, not output-schema with its paths", line, v)
					}
				}
			}
		}
		waited = max(waited, upTo-1)
	}
	for _, k := range keys {
		if k.line >= end {
			break
		}
		wait(k.line)
		if !started {
			// At the shell: the tape types the command that starts mcpwitness.
			started = k.key == "enter" && strings.Contains(lineText(t, k.line-1), "mcpwitness")
			continue
		}
		msg := keyMsg(k.key)
		if k.text {
			msg = tea.KeyPressMsg{Code: []rune(k.key)[0], Text: k.key}
		}
		_, cmd := h.m.Update(msg)
		if k.key == "y" && h.m.whole.Shown() {
			if text, ok := clipboard(t, cmd); ok {
				copied = append(copied, text)
			}
		}
		h.exec(cmd)
		h.drain()
	}
	wait(end)
	if len(copied) != 1 || !strings.Contains(copied[0], "output-schema") || !strings.Contains(copied[0], "/temperature") {
		t.Errorf("y in the verdict opened whole copied %q, want the output-schema verdict with its paths", copied)
	}
	if h.m.whole.Shown() || h.m.detail.Call() == nil || h.m.detail.Call().Tool != "forecast_broken" {
		t.Errorf("after the step: opened whole %v, detail showing %+v; want the call's detail back", h.m.whole.Shown(), h.m.detail.Call())
	}
}
