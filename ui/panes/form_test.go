package panes

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/google/go-cmp/cmp"

	"mcpwitness/sanitize"
	"mcpwitness/themes"
)

// completer is a CompleteFunc that records what it was asked and answers
// with the values answer gives.
type completer struct {
	asked  []string // "field=value"
	all    []map[string]string
	Answer func(field, value string) FormCompletionsMsg
}

func (c *completer) complete(field, value string, all map[string]string) tea.Cmd {
	c.asked = append(c.asked, field+"="+value)
	c.all = append(c.all, all)
	msg := c.Answer(field, value)
	return func() tea.Msg { return msg }
}

// cities answers with the cities that start with the value.
func cities(field, value string) FormCompletionsMsg {
	var out []string
	for _, c := range []string{"Lisbon", "London", "Lyon", "Paris", "Porto"} {
		if strings.HasPrefix(c, value) {
			out = append(out, c)
		}
	}
	return FormCompletionsMsg{Values: out, Total: len(out)}
}

func formStyles(t *testing.T, name string) *themes.Styles {
	t.Helper()
	p, ok := themes.Lookup(name)
	if !ok {
		t.Fatalf("no theme %s", name)
	}
	s := themes.New(p)
	return &s
}

// formHarness drives one form through Update, as the root would.
type formHarness struct {
	t    *testing.T
	f    FormPane
	Keys FormKeyMap
	out  []tea.Msg // what the form's commands sent, other than its own debounce
	tick []FormDebounceMsg
}

func newFormHarness(t *testing.T, opts FormOptions, theme string) *formHarness {
	t.Helper()
	h := &formHarness{t: t, Keys: DefaultFormKeyMap()}
	g := DefaultGlobalKeyMap()
	opts.Debounce = time.Millisecond
	var cmd tea.Cmd
	h.f, cmd = NewForm(&Common{Sty: formStyles(t, theme), Global: &g, Loc: time.UTC}, &h.Keys, opts)
	h.f.SetSize(60, 18)
	h.run(cmd)
	return h
}

// run runs cmd and what it batches, keeping the messages: the debounce
// ticks apart, for the test to deliver when it chooses.
func (h *formHarness) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			h.run(c)
		}
	case FormDebounceMsg:
		h.tick = append(h.tick, msg)
	case nil:
	default:
		h.out = append(h.out, msg)
	}
}

func (h *formHarness) update(msg tea.Msg) {
	h.t.Helper()
	var cmd tea.Cmd
	h.f, cmd = h.f.Update(msg)
	h.run(cmd)
}

func (h *formHarness) key(k string) {
	h.t.Helper()
	if k == "alt+enter" {
		h.update(tea.KeyPressMsg{Code: tea.KeyEnter, Mod: tea.ModAlt})
		return
	}
	h.update(keyMsg(k))
}

func (h *formHarness) typeText(s string) {
	for _, r := range s {
		h.update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// pause delivers the debounce ticks in the order they were made, then the
// answers they led to.
func (h *formHarness) pause() {
	ticks := h.tick
	h.tick = nil
	for _, m := range ticks {
		h.update(m)
	}
	out := h.out
	h.out = nil
	for _, m := range out {
		if c, ok := m.(FormCompletionsMsg); ok {
			h.update(c)
		} else {
			h.out = append(h.out, m)
		}
	}
}

// sent returns the messages the form sent for the root, and forgets them.
func (h *formHarness) sent() []tea.Msg {
	out := h.out
	h.out = nil
	return out
}

func (h *formHarness) screen() string { return ansi.Strip(h.f.View()) }

func promptForm(c *completer) FormOptions {
	o := FormOptions{ID: 7, Kind: FormPrompt, Target: "weather_report", Description: "A weather report for a city.",
		Fields: []FormField{
			{Name: "city", Description: "Where the weather is", Required: true},
			{Name: "units", Description: "metric or imperial", Value: "metric"},
			{Name: "days"},
		}}
	if c != nil {
		o.Complete = c.complete
	}
	return o
}

func TestFormTabMovesBetweenFields(t *testing.T) {
	h := newFormHarness(t, promptForm(nil), themes.Mono)
	var got []int
	for _, k := range []string{"tab", "tab", "tab", "shift+tab", "shift+tab"} {
		h.key(k)
		got = append(got, h.f.Focus)
	}
	if want := []int{1, 2, 0, 2, 1}; !slices.Equal(got, want) {
		t.Errorf("focus after tab, tab, tab, shift+tab, shift+tab: %v, want %v", got, want)
	}
	h.typeText("x")
	if v := h.f.Values(); v["units"] != "metricx" || v["city"] != "" {
		t.Errorf("typing went elsewhere than the focused field: %v", v)
	}
	if len(h.tick) != 0 || len(h.sent()) != 0 {
		t.Error("a form with no completions callback asked for completions")
	}
}

func TestFormSubmitRefusesAMissingRequiredField(t *testing.T) {
	h := newFormHarness(t, promptForm(nil), themes.Mono)
	h.key("enter")
	if got := h.sent(); len(got) != 0 {
		t.Fatalf("submitted with a required field missing: %v", got)
	}
	if s := h.screen(); !strings.Contains(s, `required: "city" · alt+enter sends it anyway`) {
		t.Errorf("the refusal is not shown:\n%s", s)
	}
	h.key("alt+enter")
	want := []tea.Msg{FormSubmitMsg{Form: 7, Kind: FormPrompt, Target: "weather_report", Values: map[string]string{"units": "metric"}, Forced: true, Missing: []string{"city"}}}
	if diff := cmp.Diff(want, h.sent()); diff != "" {
		t.Errorf("forced submit (-want +got):\n%s", diff)
	}
	h.typeText("Lisbon")
	if s := h.screen(); strings.Contains(s, "required:") {
		t.Errorf("the refusal stays after the field was filled:\n%s", s)
	}
	h.key("enter")
	want = []tea.Msg{FormSubmitMsg{Form: 7, Kind: FormPrompt, Target: "weather_report", Values: map[string]string{"city": "Lisbon", "units": "metric"}}}
	if diff := cmp.Diff(want, h.sent()); diff != "" {
		t.Errorf("submit (-want +got):\n%s", diff)
	}
}

func TestFormEscCancels(t *testing.T) {
	h := newFormHarness(t, promptForm(nil), themes.Mono)
	h.typeText("Lis")
	h.key("esc")
	if diff := cmp.Diff([]tea.Msg{FormCancelMsg{Form: 7, Kind: FormPrompt}}, h.sent()); diff != "" {
		t.Errorf("esc (-want +got):\n%s", diff)
	}
}

func TestFormCompletionsAreDebouncedAndStaleAnswersDropped(t *testing.T) {
	c := &completer{Answer: cities}
	h := newFormHarness(t, promptForm(c), themes.Mono)
	h.pause() // the first field's completions, asked on opening
	if want := []string{"city="}; !slices.Equal(c.asked, want) {
		t.Fatalf("asked %v on opening, want %v", c.asked, want)
	}
	if s := h.screen(); !strings.Contains(s, "Porto") {
		t.Errorf("the first field's suggestions are not shown:\n%s", s)
	}
	h.typeText("Lo")
	h.pause()
	// Two keys, two ticks: only the last, after typing paused, asks.
	if want := []string{"city=", "city=Lo"}; !slices.Equal(c.asked, want) {
		t.Errorf("asked %v, want %v: one request per pause in typing", c.asked, want)
	}
	if diff := cmp.Diff(map[string]string{"city": "Lo", "units": "metric"}, c.all[1]); diff != "" {
		t.Errorf("the other fields' values given to the callback (-want +got):\n%s", diff)
	}
	s := h.screen()
	if !strings.Contains(s, "London") || strings.Contains(s, "Lisbon") {
		t.Errorf("the suggestions for Lo are not the ones shown:\n%s", s)
	}

	// An answer that arrives after more was typed is dropped.
	h.typeText("n")
	for _, m := range h.tick {
		h.update(m)
	}
	h.tick = nil
	h.typeText("d")
	h.pause() // delivers the answer for "Lon", now stale, then asks for "Lond"
	if got := h.f.suggest; !slices.Equal(got, []string{"London"}) {
		t.Errorf("suggestions %v, want the answer for Lond only", got)
	}
	stale := FormCompletionsMsg{Form: 7, Seq: h.f.Seq - 1, Field: "city", Values: []string{"Stale"}}
	h.update(stale)
	other := FormCompletionsMsg{Form: 6, Seq: h.f.Seq, Field: "city", Values: []string{"Other form"}}
	h.update(other)
	if got := h.f.suggest; !slices.Equal(got, []string{"London"}) {
		t.Errorf("suggestions %v after a stale answer and another form's: want them dropped", got)
	}

	// ↓ and Enter pick a suggestion; Enter again submits.
	h.key("backspace")
	h.key("backspace")
	h.key("backspace")
	h.pause()
	h.key("down")
	h.key("down")
	h.key("enter")
	if got := h.f.Values()["city"]; got != "London" {
		t.Errorf("picked %q, want the second suggestion for L, London", got)
	}
	if got := h.sent(); len(got) != 0 {
		t.Errorf("enter on a suggestion submitted: %v", got)
	}
	h.pause()
	h.key("enter")
	if got := h.sent(); len(got) != 1 || got[0].(FormSubmitMsg).Values["city"] != "London" {
		t.Errorf("enter off a suggestion did not submit: %v", got)
	}
}

func TestFormSuggestionsFollowTheFocus(t *testing.T) {
	c := &completer{Answer: func(field, value string) FormCompletionsMsg {
		return FormCompletionsMsg{Values: []string{field + "-1", field + "-2"}, Total: 40, HasMore: true}
	}}
	h := newFormHarness(t, promptForm(c), themes.Mono)
	h.key("tab") // before the first field's pause: it is not asked for
	h.pause()
	if want := []string{"units=metric"}; !slices.Equal(c.asked, want) {
		t.Errorf("asked %v, want %v: the focused field's completions only", c.asked, want)
	}
	s := h.screen()
	if !strings.Contains(s, "units-1") || strings.Contains(s, "city-1") || !strings.Contains(s, "… 38 more") {
		t.Errorf("the suggestions shown are not the focused field's, with how many more:\n%s", s)
	}
	// An answer for a field no longer focused is dropped.
	h.update(FormCompletionsMsg{Form: 7, Seq: h.f.Seq, Field: "city", Values: []string{"late"}})
	if strings.Contains(h.screen(), "late") {
		t.Error("an answer for another field was shown")
	}
	h.update(FormCompletionsMsg{Form: 7, Seq: h.f.Seq, Field: "units", Err: "completion/complete: -32601 Method not found"})
	if s := h.screen(); !strings.Contains(s, "completions: completion/complete: -32601") {
		t.Errorf("a failed completion is not said:\n%s", s)
	}
}

// sgrSeq is an SGR sequence, the only escape a view may hold.
var sgrSeq = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

func formUnsafe(view string) string {
	for n, l := range strings.Split(sgrSeq.ReplaceAllString(view, ""), "\n") {
		for _, r := range l {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || sanitize.Invisible(r) {
				return fmt.Sprintf("line %d holds %U: %q", n, r, l)
			}
		}
	}
	return ""
}

func TestFormHostileStringsComeOutSafe(t *testing.T) {
	evil := "x\x1b]0;title\x07\x1b[2J\u202edesrever\u200b\x9b31m\r\bend"
	c := &completer{Answer: func(string, string) FormCompletionsMsg {
		return FormCompletionsMsg{Values: []string{evil, "plain"}, Err: evil}
	}}
	opts := FormOptions{ID: 1, Kind: FormTemplate, Target: "demo://" + evil + "/{id}", Description: evil,
		Fields: []FormField{{Name: evil, Description: evil, Required: true}}, Complete: c.complete}
	for _, theme := range []string{themes.Mono, themes.Dark} {
		h := newFormHarness(t, opts, theme)
		h.pause()
		h.key("enter")
		if bad := formUnsafe(h.f.View()); bad != "" {
			t.Errorf("%s: %s", theme, bad)
		}
		s := h.screen()
		if !strings.Contains(s, "␛]0;title") || !strings.Contains(s, `\u202e`) {
			t.Errorf("%s: the escape and the override are not shown visibly:\n%s", theme, s)
		}
		h.key("down")
		h.key("enter")
		if v := h.f.Values(); v[evil] != "" {
			t.Errorf("%s: a suggestion holding escapes was put in a text field", theme)
		}
		if bad := formUnsafe(h.f.View()); bad != "" || !strings.Contains(h.screen(), "holds control or invisible characters") {
			t.Errorf("%s: picking the hostile suggestion: %s\n%s", theme, bad, h.screen())
		}
	}
}

func TestFormGolden(t *testing.T) {
	c := &completer{Answer: cities}
	h := newFormHarness(t, promptForm(c), themes.Mono)
	h.typeText("L")
	h.pause()
	h.key("down")
	view := h.f.View()
	if again := h.f.View(); again != view {
		t.Error("a second View differs from the first: View changed something")
	}
	checkFits(t, view, 60, 18)
	golden.RequireEqual(t, []byte(ansi.Strip(view)))
}

func TestFormScrollsToTheFocusedField(t *testing.T) {
	opts := FormOptions{ID: 1, Kind: FormTemplate, Target: "demo://{a}/{b}/{c}/{d}/{e}/{f}"}
	for _, n := range []string{"a", "b", "c", "d", "e", "f"} {
		opts.Fields = append(opts.Fields, FormField{Name: n, Description: "the " + n + " part"})
	}
	h := newFormHarness(t, opts, themes.Mono)
	h.f.SetSize(40, 10)
	for range 5 {
		h.key("tab")
	}
	s := h.screen()
	checkFits(t, h.f.View(), 40, 10)
	if !strings.Contains(s, "› f") || !strings.Contains(s, "the f part") {
		t.Errorf("the focused last field is not in view:\n%s", s)
	}
}
