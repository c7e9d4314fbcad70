package ui

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"mcpwitness/finding"
	"mcpwitness/paging"
	"mcpwitness/record"
	"mcpwitness/session"
)

// t0 is the fixed start of the synthetic sessions.
var t0 = time.Date(2026, 11, 29, 14, 5, 0, 0, time.UTC)

// harness runs a model the way a program does, on the test goroutine:
// commands run on goroutines and their messages come back through msgs,
// and the test pumps them into Update until what it waits for holds.
type harness struct {
	t    *testing.T
	m    *model
	msgs chan tea.Msg
	done chan struct{}
}

func newHarness(t *testing.T, o options) *harness {
	t.Helper()
	h := &harness{t: t, msgs: make(chan tea.Msg, 1024), done: make(chan struct{})}
	if o.Now == nil {
		o.Now = func() time.Time { return t0.Add(time.Minute) }
	}
	if o.Loc == nil {
		o.Loc = time.UTC
	}
	if o.Theme == "" {
		o.Theme = "dark"
	}
	h.m = newModel(o)
	t.Cleanup(func() { close(h.done) })
	h.update(tea.WindowSizeMsg{Width: 120, Height: 40})
	h.exec(h.m.Init())
	return h
}

// update feeds msg to the model and starts the commands it returns.
func (h *harness) update(msg tea.Msg) {
	h.t.Helper()
	_, cmd := h.m.Update(msg)
	h.exec(cmd)
}

func (h *harness) exec(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		msg := cmd()
		if msg == nil {
			return
		}
		select {
		case h.msgs <- msg:
		case <-h.done:
		}
	}()
}

// handle routes one message from a command.
func (h *harness) handle(msg tea.Msg) {
	switch msg := msg.(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			h.exec(c)
		}
	case tea.QuitMsg:
	default:
		h.update(msg)
	}
}

// until pumps messages until cond holds, failing after a deadline.
func (h *harness) until(what string, cond func() bool) {
	h.t.Helper()
	h.within(2*time.Minute, what, cond) // a hang guard: a loaded machine may be many times slower
}

// within is [harness.until] with a deadline of wait.
func (h *harness) within(wait time.Duration, what string, cond func() bool) {
	h.t.Helper()
	deadline := time.After(wait)
	for !cond() {
		select {
		case msg := <-h.msgs:
			h.handle(msg)
		case <-deadline:
			h.t.Fatalf("timed out waiting for %s; screen:\n%s", what, h.screen())
		}
	}
}

// drain handles the messages already waiting.
func (h *harness) drain() {
	for {
		select {
		case msg := <-h.msgs:
			h.handle(msg)
		default:
			return
		}
	}
}

// key presses one key: "enter", "ctrl+s", "esc", "tab", "up", or a
// character.
func (h *harness) key(k string) {
	h.t.Helper()
	h.update(keyMsg(k))
}

// typeText presses each character of s.
func (h *harness) typeText(s string) {
	for _, r := range s {
		h.update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

func keyMsg(k string) tea.KeyPressMsg {
	codes := map[string]rune{"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab, "up": tea.KeyUp,
		"down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight, "backspace": tea.KeyBackspace,
		"pgdown": tea.KeyPgDown, "pgup": tea.KeyPgUp, "space": tea.KeySpace, "home": tea.KeyHome, "end": tea.KeyEnd}
	mod := tea.KeyMod(0)
	if rest, ok := strings.CutPrefix(k, "ctrl+"); ok {
		mod, k = tea.ModCtrl, rest
	}
	if rest, ok := strings.CutPrefix(k, "shift+"); ok {
		mod, k = mod|tea.ModShift, rest
	}
	if rest, ok := strings.CutPrefix(k, "alt+"); ok {
		mod, k = mod|tea.ModAlt, rest
	}
	if c, ok := codes[k]; ok {
		return tea.KeyPressMsg{Code: c, Mod: mod}
	}
	r := []rune(k)[0]
	if mod != 0 {
		return tea.KeyPressMsg{Code: r, Mod: mod}
	}
	return tea.KeyPressMsg{Code: r, Text: k}
}

// screen is the stripped view.
func (h *harness) screen() string { return ansi.Strip(h.m.View().Content) }

// feed applies events as the bridge delivers them.
func (h *harness) feed(evs ...record.Event) {
	for _, ev := range evs {
		h.update(eventMsg(ev))
	}
}

// bridge forwards a log's events into the harness, as Run's bridge does.
func (h *harness) bridge(log *record.Log) {
	sub := log.Subscribe()
	h.t.Cleanup(sub.Close)
	go func() {
		for ev := range sub.C() {
			select {
			case h.msgs <- eventMsg(ev):
			case <-h.done:
				return
			}
		}
	}()
}

// evs builds synthetic session events with fixed, increasing times.
type evs struct {
	t   time.Time
	seq int64
}

func (b *evs) ev(e record.Event) record.Event {
	b.seq++
	if b.t.IsZero() {
		b.t = t0
	}
	b.t = b.t.Add(time.Millisecond)
	e.Seq, e.T = b.seq, b.t
	return e
}

func (b *evs) connect() record.Event {
	return b.ev(record.Event{Kind: record.KindConnect, Server: &record.ServerInfo{Name: "fake", Version: "0.1",
		ProtocolVersion: "2025-11-25", Transport: "in-memory", Target: "fake"}})
}

func (b *evs) walkStart(id int64) record.Event {
	return b.ev(record.Event{Kind: record.KindWalk, Method: "tools/list", Walk: &record.WalkInfo{ID: id, Method: "tools/list", State: "start"}})
}

func (b *evs) page(walk int64, n int, gen int64, next string, tools ...json.RawMessage) record.Event {
	p := paging.Page{Number: n, Count: len(tools), Ms: 4, Generation: gen, NextCursor: next, TTLMs: 30000, HasTTL: true}
	return b.ev(record.Event{Kind: record.KindPage, Method: "tools/list", Page: &p, Items: tools, Gen: gen,
		Walk: &record.WalkInfo{ID: walk, Method: "tools/list", State: "page"}})
}

func (b *evs) walkDone(id int64, pages, items int, gen int64, incomplete string) record.Event {
	return b.ev(record.Event{Kind: record.KindWalk, Method: "tools/list", Gen: gen, Walk: &record.WalkInfo{ID: id,
		Method: "tools/list", State: "done", Pages: pages, Items: items, Incomplete: incomplete, Generation: gen, Ms: 23}})
}

// tool returns a raw tool definition; extra holds more members, raw JSON.
func tool(name string, extra ...string) json.RawMessage {
	members := append([]string{fmt.Sprintf(`"name":%q`, name), `"inputSchema":{"type":"object"}`}, extra...)
	return json.RawMessage("{" + strings.Join(members, ",") + "}")
}

// tools returns n tools named prefix0001 ….
func tools(prefix string, from, n int) []json.RawMessage {
	out := make([]json.RawMessage, n)
	for i := range out {
		out[i] = tool(fmt.Sprintf("%s%04d", prefix, from+i))
	}
	return out
}

// walkEvents returns a complete walk of pages pages of size tools each.
func walkEvents(b *evs, id int64, pages, size int) []record.Event {
	out := []record.Event{b.walkStart(id)}
	for n := 1; n <= pages; n++ {
		next := ""
		if n < pages {
			next = fmt.Sprint(n)
		}
		out = append(out, b.page(id, n, int64(n), next, tools("tool_", (n-1)*size+1, size)...))
	}
	return append(out, b.walkDone(id, pages, pages*size, int64(pages), ""))
}

// fakeBackend is a Backend whose calls and walks are scripted by the test.
// It records what was asked and never runs anything in the caller's
// goroutine before its command runs.
type fakeBackend struct {
	walks, calls atomic.Int32
	walk         func(ctx context.Context) (int64, *paging.Result)
	call         func(ctx context.Context, name string, args json.RawMessage, opts *session.CallOptions) *session.CallResult

	mu   sync.Mutex
	args []json.RawMessage
	// info is what Info says; asked lists the other requests, as
	// "method about".
	info  record.ServerInfo
	asked []string
	lists []string // the methods walked, in order
}

func (f *fakeBackend) Info() record.ServerInfo { return f.info }

// ask notes a request other than a walk or a call and answers it empty.
func (f *fakeBackend) ask(method, about string) *session.RequestResult {
	f.mu.Lock()
	f.asked = append(f.asked, method+" "+about)
	f.mu.Unlock()
	return &session.RequestResult{Method: method, About: about, Sent: true}
}

func (f *fakeBackend) ReadResource(_ context.Context, uri string) *session.RequestResult {
	return f.ask(record.MethodRead, uri)
}

func (f *fakeBackend) GetPrompt(_ context.Context, name string, _ map[string]string, _ *session.PromptOptions) *session.RequestResult {
	return f.ask(record.MethodGetPrompt, name)
}

func (f *fakeBackend) Complete(_ context.Context, ref session.CompleteRef, arg, _ string, _ map[string]string) *session.RequestResult {
	return f.ask(record.MethodComplete, ref.String()+" "+arg)
}

func (f *fakeBackend) Ping(context.Context) *session.RequestResult {
	return f.ask(record.MethodPing, "")
}

func (f *fakeBackend) SetLogLevel(_ context.Context, level string) *session.RequestResult {
	return f.ask(record.MethodSetLevel, level)
}

func (f *fakeBackend) Subscribe(_ context.Context, uri string) *session.RequestResult {
	return f.ask(record.MethodSubscribe, uri)
}

func (f *fakeBackend) Unsubscribe(_ context.Context, uri string) *session.RequestResult {
	return f.ask(record.MethodUnsubscribe, uri)
}

func (f *fakeBackend) Walk(ctx context.Context, m paging.Method) (int64, *paging.Result) {
	f.mu.Lock()
	f.lists = append(f.lists, m.Name)
	f.mu.Unlock()
	f.walks.Add(1)
	if f.walk != nil {
		return f.walk(ctx)
	}
	return 0, &paging.Result{}
}

func (f *fakeBackend) Call(ctx context.Context, name string, args json.RawMessage, opts *session.CallOptions) *session.CallResult {
	f.calls.Add(1)
	f.mu.Lock()
	f.args = append(f.args, args)
	f.mu.Unlock()
	if f.call != nil {
		return f.call(ctx, name, args, opts)
	}
	r := &session.CallResult{}
	r.Tool = name
	return r
}

// callEvents returns the events of one finished call with verdicts.
func callEvents(b *evs, id int64, tool string, sent bool, result string, vs ...finding.Verdict) []record.Event {
	out := []record.Event{b.ev(record.Event{Kind: record.KindCall, Call: &record.CallInfo{ID: id, Tool: tool, State: "start", Args: json.RawMessage(`{}`), Listed: true, Generation: 1}})}
	for i := range vs {
		out = append(out, b.ev(record.Event{Kind: record.KindVerdict, Verdict: &vs[i], Call: &record.CallInfo{ID: id, Tool: tool, State: "verdict"}}))
	}
	info := &record.CallInfo{ID: id, Tool: tool, State: "done", Listed: true, Sent: sent, Generation: 1, Ms: 12}
	if result != "" {
		info.Result = json.RawMessage(result)
	}
	return append(out, b.ev(record.Event{Kind: record.KindCall, Call: info}))
}

// readSession reads a session file's events (the header is skipped).
func readSession(t *testing.T, path string) []record.Event {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []record.Event
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	first := true
	for sc.Scan() {
		if first {
			first = false
			continue
		}
		var ev record.Event
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, ev)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// checkFits fails when a view line is wider than w or the view is not h
// lines.
func checkFits(t *testing.T, view string, w, h int) {
	t.Helper()
	lines := strings.Split(view, "\n")
	if len(lines) != h {
		t.Errorf("view has %d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if lw := ansi.StringWidth(l); lw > w {
			t.Errorf("line %d is %d cells wide, more than %d: %q", i+1, lw, w, ansi.Strip(l))
		}
	}
}
