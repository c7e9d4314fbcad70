package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"mcpwitness/internal/hostiletest"
	"mcpwitness/paging"
	"mcpwitness/record"
	"mcpwitness/session"
)

// serversHarness runs a [serversModel] as a program does, on the test
// goroutine, as [harness] runs one model.
type serversHarness struct {
	t    *testing.T
	r    *serversModel
	msgs chan tea.Msg
	done chan struct{}
}

// newServersHarness opens the root over servers, each dialled by its
// function, every server's log bridged as RunServers bridges it.
func newServersHarness(t *testing.T, names [][]string, dials []func(context.Context, *record.Log) (Backend, error)) *serversHarness {
	t.Helper()
	h := &serversHarness{t: t, msgs: make(chan tea.Msg, 4096), done: make(chan struct{})}
	t.Cleanup(func() { close(h.done) })
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	views := make([]*serverView, len(dials))
	for i, dial := range dials {
		log := record.NewLog(nil)
		sub := log.Subscribe()
		t.Cleanup(sub.Close)
		go func() {
			for ev := range sub.C() {
				select {
				case h.msgs <- serverMsg{i: i, msg: eventMsg(ev)}:
				case <-h.done:
					return
				}
			}
		}()
		m := newModel(options{Ctx: ctx, Theme: "dark", Loc: time.UTC,
			Dial: func(ctx context.Context) (Backend, error) { return dial(ctx, log) }})
		views[i] = &serverView{names: names[i], m: m, hash: "0123456789ab"}
	}
	return h.start(newServersModel(views))
}

// start runs r in h.
func (h *serversHarness) start(r *serversModel) *serversHarness {
	h.r = r
	h.update(tea.WindowSizeMsg{Width: 120, Height: 40})
	h.exec(h.r.Init())
	return h
}

func (h *serversHarness) update(msg tea.Msg) {
	_, cmd := h.r.Update(msg)
	h.exec(cmd)
}

func (h *serversHarness) exec(cmd tea.Cmd) {
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

func (h *serversHarness) until(what string, cond func() bool) {
	h.t.Helper()
	deadline := time.After(2 * time.Minute)
	for !cond() {
		select {
		case msg := <-h.msgs:
			switch msg := msg.(type) {
			case tea.BatchMsg:
				for _, c := range msg {
					h.exec(c)
				}
			case tea.QuitMsg:
			default:
				h.update(msg)
			}
		case <-deadline:
			h.t.Fatalf("timed out waiting for %s; screen:\n%s", what, h.screen())
		}
	}
}

func (h *serversHarness) key(k string) { h.update(keyMsg(k)) }

func (h *serversHarness) typeText(s string) {
	for _, r := range s {
		h.update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

func (h *serversHarness) screen() string { return ansi.Strip(h.r.View().Content) }

// demoDial dials a demo server of its own, in-process.
func demoDial(t *testing.T) func(context.Context, *record.Log) (Backend, error) {
	target := demoTarget(t)
	return func(ctx context.Context, log *record.Log) (Backend, error) {
		s, err := session.Dial(ctx, target, &session.Options{Log: log, Timeout: time.Minute})
		if err == nil {
			t.Cleanup(func() { s.Close() })
		}
		return s, err
	}
}

func TestServersSwitchKeepsEachServer(t *testing.T) {
	failing := func(context.Context, *record.Log) (Backend, error) {
		return nil, errors.New(`cannot start "/nonexistent/server": program not found`)
	}
	h := newServersHarness(t, [][]string{{"alpha", "alpha-copy"}, {"broken"}, {"beta"}},
		[]func(context.Context, *record.Log) (Backend, error){demoDial(t), failing, demoDial(t)})
	h.until("both demos listed and the broken one failed", func() bool {
		a, b, c := h.r.servers[0].m, h.r.servers[1].m, h.r.servers[2].m
		return a.toolCount() > 0 && c.toolCount() > 0 && !a.ops.walking() && !c.ops.walking() && b.link == linkFailed
	})
	scr := h.screen()
	last := scr[strings.LastIndex(scr, "\n")+1:]
	for _, want := range []string{"1 alpha = alpha-copy", "2 broken", "3 beta", "S servers", "config 0123456789ab"} {
		if !strings.Contains(last, want) {
			t.Errorf("servers line lacks %q: %s", want, last)
		}
	}

	// Filter on alpha and pick a tool there.
	h.key("/")
	h.typeText("echo")
	// S while typing is a letter of the query, not the picker.
	h.typeText("S")
	if h.r.picking || h.r.servers[0].m.tools.FilterInput.Input.Value() != "echoS" {
		t.Fatalf("S while filtering: picking %v, query %q", h.r.picking, h.r.servers[0].m.tools.FilterInput.Input.Value())
	}
	h.key("backspace")
	h.key("enter")
	if sel := h.r.servers[0].m.tools.Selected(); sel == nil || sel.Name != "echo" {
		t.Fatalf("alpha selected %v", sel)
	}

	// The picker lists every server with its state, and switches.
	h.key("S")
	if !h.r.picking {
		t.Fatal("S did not open the picker")
	}
	picker := h.screen()
	for _, want := range []string{"alpha = alpha-copy", "● ready", "✗ failed", "program not found", "gen ", "tools", "0 failing"} {
		if !strings.Contains(picker, want) {
			t.Errorf("picker lacks %q:\n%s", want, picker)
		}
	}
	h.key("down")
	h.key("down")
	h.key("enter")
	if h.r.cur != 2 || h.r.picking {
		t.Fatalf("after down, down, enter: current %d, picking %v", h.r.cur, h.r.picking)
	}
	if !strings.Contains(h.screen(), "add_duration") {
		t.Errorf("beta's screen does not list its tools unfiltered:\n%s", h.screen())
	}
	// Keys go to beta now: moving there leaves alpha's selection alone.
	h.key("down")
	if sel := h.r.servers[0].m.tools.Selected(); sel == nil || sel.Name != "echo" {
		t.Errorf("a key on beta moved alpha's selection to %v", sel)
	}
	// E: the events of every server, each with its server.
	h.key("E")
	all := h.screen()
	if !strings.Contains(all, "Events of every server") || !strings.Contains(all, "1 alpha = alpha-c") || !strings.Contains(all, "3 beta") ||
		!strings.Contains(all, "/list") {
		t.Errorf("all servers' events:\n%s", all)
	}
	h.key("esc")
	if h.r.showAll || strings.Contains(h.screen(), "Events of every server") {
		t.Error("esc did not close the events of every server")
	}
	h.key("S")
	h.key("1")
	if h.r.cur != 0 {
		t.Fatalf("S 1: current %d", h.r.cur)
	}
	if q := h.r.servers[0].m.tools.FilterInput.Query; q != "echo" {
		t.Errorf("alpha's filter is %q after switching back, want echo", q)
	}
	if sel := h.r.servers[0].m.tools.Selected(); sel == nil || sel.Name != "echo" {
		t.Errorf("alpha's selection is %v after switching back", sel)
	}
}

func TestForwardTagsAndRenumbersFrames(t *testing.T) {
	shared := record.NewLog(&record.LogOptions{History: true})
	defer shared.Close()
	var logs []*record.Log
	for _, names := range [][]string{{"a"}, {"b", "b2"}} {
		log := record.NewLog(nil)
		log.AddSink(record.Forward(shared, names))
		logs = append(logs, log)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, log := range logs {
		s, err := session.Dial(ctx, demoTarget(t), &session.Options{Log: log, Timeout: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if _, res := s.Walk(ctx, paging.Tools()); res.Err != nil {
			t.Fatal(res.Err)
		}
	}
	for _, log := range logs {
		log.Close()
	}
	wire := map[int64][]string{}
	pages := 0
	for _, ev := range shared.Events() {
		if len(ev.Source) == 0 {
			t.Fatalf("event %d (%s) has no source", ev.Seq, ev.Kind)
		}
		if ev.Kind == record.KindWire {
			wire[ev.Seq] = ev.Source
		}
	}
	for _, ev := range shared.Events() {
		if ev.Kind == record.KindPage && ev.Page != nil && ev.Page.Frame != 0 {
			pages++
			if src, ok := wire[ev.Page.Frame]; !ok || strings.Join(src, ",") != strings.Join(ev.Source, ",") {
				t.Errorf("page event %d of %v names frame %d, a frame of %v", ev.Seq, ev.Source, ev.Page.Frame, src)
			}
		}
	}
	if pages == 0 {
		t.Error("no page named its frame")
	}
}

func TestServersSlowOneBlocksNone(t *testing.T) {
	release := make(chan struct{})
	slow := func(ctx context.Context, _ *record.Log) (Backend, error) {
		select {
		case <-release:
		case <-ctx.Done():
		}
		return nil, errors.New("gave up")
	}
	h := newServersHarness(t, [][]string{{"slow"}, {"demo"}},
		[]func(context.Context, *record.Log) (Backend, error){slow, demoDial(t)})
	h.until("the demo listed while the slow server still connects", func() bool {
		return h.r.servers[1].m.toolCount() > 0 && !h.r.servers[1].m.ops.walking()
	})
	h.key("S")
	if s := h.screen(); !strings.Contains(s, "◌ connecting") || !strings.Contains(s, "● ready") {
		t.Errorf("picker while one server connects:\n%s", s)
	}
	close(release)
	h.until("the slow server failed", func() bool { return h.r.servers[0].m.link == linkFailed })
}

func TestServersPickerFollowsThePick(t *testing.T) {
	var names [][]string
	var dials []func(context.Context, *record.Log) (Backend, error)
	for i := range 30 {
		names = append(names, []string{fmt.Sprintf("server-%02d", i+1)})
		dials = append(dials, func(context.Context, *record.Log) (Backend, error) { return nil, errors.New("down") })
	}
	h := newServersHarness(t, names, dials)
	// Every server, not only the last: the dials run concurrently, and a
	// server still connecting draws another line than a failed one.
	h.until("every server failed", func() bool {
		for _, v := range h.r.servers {
			if v.m.link != linkFailed {
				return false
			}
		}
		return true
	})
	// The picker, without the servers' line under it.
	picker := func() string { s := h.screen(); return s[:strings.LastIndex(s, "\n")] }
	h.key("S")
	if s := picker(); !strings.Contains(s, "server-01") || strings.Contains(s, "server-30") {
		t.Errorf("the picker at its top:\n%s", s)
	}
	h.key("up") // from the first to the last
	if s := picker(); !strings.Contains(s, "› 30 server-30") || strings.Contains(s, "server-01") {
		t.Errorf("the picker on the last server:\n%s", s)
	}
}

// The picker says which lists a server's walks could not read whole: a
// server whose cursors loop has "incomplete tools/list: cursor-repeated"
// under its row; the demo server has nothing under its.
func TestServersPickerSaysIncompleteWalks(t *testing.T) {
	loop := hostiletest.Command(hostiletest.Build(t), hostiletest.ModeCursorLoop).Args
	loopDial := func(ctx context.Context, log *record.Log) (Backend, error) {
		s, err := session.Dial(ctx, session.Target{Command: loop}, &session.Options{Log: log, Timeout: time.Minute})
		if err == nil {
			t.Cleanup(func() { s.Close() })
		}
		return s, err
	}
	h := newServersHarness(t, [][]string{{"demo"}, {"loop"}},
		[]func(context.Context, *record.Log) (Backend, error){demoDial(t), loopDial})
	h.until("both walked", func() bool {
		for _, v := range h.r.servers {
			if w := v.m.St.Latest("tools/list"); w == nil || !w.Done || v.m.ops.walking() {
				return false
			}
		}
		return true
	})
	h.key("S")
	lines := strings.Split(h.screen(), "\n")
	under := func(name string) string {
		for i, l := range lines {
			if strings.Contains(l, name) && i+1 < len(lines) {
				return lines[i+1]
			}
		}
		t.Fatalf("no row for %s:\n%s", name, strings.Join(lines, "\n"))
		return ""
	}
	if got := under("2 loop"); !strings.Contains(got, "incomplete tools/list: cursor-repeated") {
		t.Errorf("under the looping server: %q", got)
	}
	if got := under("1 demo"); strings.Contains(got, "incomplete") {
		t.Errorf("under the demo server: %q", got)
	}
}

// Why a server failed is one line in the picker: the stderr a message
// quotes on lines of its own follows it, trimmed.
func TestJoinLines(t *testing.T) {
	got := joinLines("connecting to srv: the server exited (exit status 1); its stderr ends with:\n    cannot start: missing API key\n    \n")
	if want := "connecting to srv: the server exited (exit status 1); its stderr ends with: cannot start: missing API key"; got != want {
		t.Errorf("joinLines = %q, want %q", got, want)
	}
}
