package ui

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"mcpwitness/demo"
	"mcpwitness/fold"
	"mcpwitness/internal/hostiletest"
	"mcpwitness/paging"
	"mcpwitness/record"
	"mcpwitness/session"
)

// statusText is the status line of the screen.
func (h *harness) statusText() string {
	lines := strings.Split(h.screen(), "\n")
	return lines[len(lines)-2]
}

// toolsWalks counts the walks of tools/list the state holds.
func toolsWalks(st *fold.State) int {
	n := 0
	for _, w := range st.Walks() {
		if w.Method == paging.Tools().Name {
			n++
		}
	}
	return n
}

// A server that exited is offered R, and R starts it again as a new
// process in the same session: the state is live again, the lists are
// walked again and the generation goes on.
func TestRestartAfterTheServerExits(t *testing.T) {
	h, s, _ := hostileHarness(t, hostiletest.ModeDieOnCall, 120, 40)
	h.key("enter")
	h.key("ctrl+s")
	h.until("the server to exit", func() bool { return h.m.St.Closed() && h.m.ops.call == nil })
	h.drain()
	if st := h.statusText(); !strings.Contains(st, "R restarts the server") {
		t.Errorf("after the server exited the status line does not offer R: %q", st)
	}
	h.key("r")
	if st := h.statusText(); !strings.Contains(st, "press R to restart") {
		t.Errorf("r on a closed session does not offer R: %q", st)
	}
	gen, walks := h.m.St.Gen(), toolsWalks(h.m.St)

	h.key("R")
	h.until("the restart and a new walk of the tools", func() bool {
		return !h.m.restarts.running && !h.m.St.Closed() && toolsWalks(h.m.St) > walks && !h.m.ops.walking()
	})
	if h.m.backend == Backend(s) {
		t.Error("the UI still talks to the session that ended")
	}
	if h.m.St.Gen() <= gen {
		t.Errorf("generation %d after the restart, want more than %d", h.m.St.Gen(), gen)
	}
	if len(h.m.St.Shown().Tools) == 0 {
		t.Error("no tools shown after the restart")
	}
}

// forgettingDemo serves the demo over Streamable HTTP on 127.0.0.1 and
// answers 404 to every session id it gave once forget is called.
func forgettingDemo(t *testing.T) (url string, forget func()) {
	var mu sync.Mutex
	given, forgotten := map[string]bool{}, map[string]bool{}
	inner := demo.Handler(nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("Mcp-Session-Id")
		mu.Lock()
		lost := forgotten[id]
		if id != "" {
			given[id] = true
		}
		mu.Unlock()
		if lost {
			http.Error(w, "session not found", http.StatusNotFound)
			return
		}
		inner.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, func() {
		mu.Lock()
		defer mu.Unlock()
		for id := range given {
			forgotten[id] = true
		}
	}
}

// httpHarness dials the Streamable HTTP server at url and opens the UI on
// it, after its first walks.
func httpHarness(t *testing.T, url string) *harness {
	t.Helper()
	log := record.NewLog(nil)
	sub := log.Subscribe()
	t.Cleanup(sub.Close)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := session.Dial(ctx, session.Target{URL: url}, &session.Options{Log: log, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	h := newHarness(t, options{Backend: s, Theme: "mono"})
	h.update(tea.WindowSizeMsg{Width: 140, Height: 40})
	go func() {
		for ev := range sub.C() {
			select {
			case h.msgs <- eventMsg(ev):
			case <-h.done:
				return
			}
		}
	}()
	h.firstWalks()
	return h
}

// A server that loses the HTTP session: the status line names it and
// offers R; R starts a new session (a new initialize) whose walks replace
// the lists, and the status line says so.
func TestLostHTTPSessionOffersRestart(t *testing.T) {
	url, forget := forgettingDemo(t)
	h := httpHarness(t, url)
	walks := toolsWalks(h.m.St)

	forget()
	h.key("r")
	h.until("the lost session", func() bool { return h.m.restarts.lost != "" && !h.m.ops.walking() })
	h.drain()
	want := "the server lost HTTP session " + session.ShortSessionID(h.m.restarts.lost) + "; press R to start a new one"
	if st := h.statusText(); !strings.Contains(st, want) {
		t.Errorf("status line %q, want %q", st, want)
	}
	// The status line keeps saying it once its time is up.
	h.update(statusExpiredMsg{id: h.m.status.id})
	if st := h.statusText(); !strings.Contains(st, want) {
		t.Errorf("after the message expired the status line is %q, want %q", st, want)
	}

	h.key("R")
	h.until("a new session and its walks", func() bool {
		return !h.m.restarts.running && toolsWalks(h.m.St) > walks+1 && !h.m.ops.walking()
	})
	if h.m.restarts.lost != "" {
		t.Errorf("the lost session %q is still shown after the restart", h.m.restarts.lost)
	}
	if st := h.statusText(); strings.Contains(st, "lost HTTP session") {
		t.Errorf("status line after the restart: %q", st)
	}
	if w := h.m.St.Latest(paging.Tools().Name); w == nil || !w.Done || w.Err != "" || len(h.m.St.Shown().Tools) == 0 {
		t.Errorf("the walk after the restart: %+v", w)
	}
}

// The help line offers R first once the server is gone, and the full
// help lists it.
func TestHelpOffersRestartWhenClosed(t *testing.T) {
	h, _, _ := hostileHarness(t, hostiletest.ModeDieOnCall, 120, 40)
	if strings.Contains(h.screen(), "R restart server") {
		t.Error("the help line offers R while the server runs")
	}
	h.key("enter")
	h.key("ctrl+s")
	h.until("the server to exit", func() bool { return h.m.St.Closed() && h.m.ops.call == nil })
	h.drain()
	lines := strings.Split(h.screen(), "\n")
	if help := lines[len(lines)-1]; !strings.HasPrefix(strings.TrimSpace(help), "R restart server") {
		t.Errorf("the help line of a closed session does not start with R: %q", help)
	}
	h.key("?")
	if !strings.Contains(h.screen(), "restart server") {
		t.Errorf("the full help does not list R:\n%s", h.screen())
	}
}

// When the first connection fails, R makes it again: the screen said how
// it failed and offered R, and the second attempt connects and walks.
func TestRedialAfterAFailedStart(t *testing.T) {
	log := record.NewLog(nil)
	sub := log.Subscribe()
	t.Cleanup(sub.Close)
	var mu sync.Mutex
	attempts := 0
	var opened []*session.Session
	t.Cleanup(func() {
		for _, s := range opened {
			s.Close()
		}
	})
	good := demoTarget(t)
	dial := func(ctx context.Context) (Backend, error) {
		mu.Lock()
		attempts++
		first := attempts == 1
		mu.Unlock()
		target := good
		if first {
			target = session.Target{Command: []string{"/nonexistent/mcp-server"}}
		}
		s, err := session.Dial(ctx, target, &session.Options{Log: log, Timeout: time.Minute})
		if err != nil {
			return nil, err
		}
		opened = append(opened, s)
		return s, nil
	}
	h := newHarness(t, options{Dial: dial, Theme: "mono"})
	go func() {
		for ev := range sub.C() {
			select {
			case h.msgs <- eventMsg(ev):
			case <-h.done:
				return
			}
		}
	}()
	h.until("the failed dial", func() bool { return h.m.link == linkFailed })
	screen := h.screen()
	if !strings.Contains(screen, "press R to try again") {
		t.Errorf("the failed start does not offer R:\n%s", screen)
	}
	h.key("R")
	h.until("the second attempt's walks", func() bool {
		return h.m.link == linkUp && h.m.St.Server() != nil && toolsWalks(h.m.St) > 0 && !h.m.ops.walking()
	})
	if len(h.m.St.Shown().Tools) == 0 {
		t.Error("no tools after connecting again")
	}
}

// Until a walk replaces them, the tools listed before a restart are said
// to be from the old connection once the status line is free.
func TestListsFromBeforeTheRestartAreMarked(t *testing.T) {
	h, s, _ := hostileHarness(t, hostiletest.ModeDieOnCall, 120, 40)
	h.key("enter")
	h.key("ctrl+s")
	h.until("the server to exit", func() bool { return h.m.St.Closed() && h.m.ops.call == nil })
	// A restart whose connection fails leaves the old lists shown.
	h.m.o.Ctx = canceledCtx()
	h.key("R")
	h.until("the restart to fail", func() bool { return !h.m.restarts.running })
	if h.m.backend != Backend(s) {
		t.Fatal("a failed restart replaced the backend")
	}
	h.update(statusExpiredMsg{id: h.m.status.id})
	if st := h.statusText(); !strings.Contains(st, "before the restart") && !strings.Contains(st, "R restarts the server") {
		t.Errorf("status line after a failed restart: %q", st)
	}
	if !h.m.oldList() {
		t.Error("the tools listed before the restart are not marked as from the old connection")
	}
}

// canceledCtx is a context already cancelled: a restart made with it
// fails at once.
func canceledCtx() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}

// However long the reason the connection ended (a server's stderr, a
// failed restart's cause), the status line keeps what can be done: the
// reason is cut, the offer is whole.
func TestClosedOfferKeepsRestartOnTheLine(t *testing.T) {
	why := "the server exited (exit status 1): " + strings.Repeat("panic: something went wrong in a deep place ", 6) + "\x1b[2J"
	for _, w := range []int{80, 120, 200} {
		m := &model{w: w}
		got := m.closedOffer(why)
		if !strings.HasSuffix(got, "R restarts the server; q quit, e export, w wire") && (w > 100 || !strings.HasSuffix(got, "R restarts the server")) {
			t.Errorf("at %d columns the offer is cut: %q", w, got)
		}
		if n := ansi.StringWidth(got) + 3; n > w {
			t.Errorf("at %d columns the status line needs %d: %q", w, n, got)
		}
		if strings.Contains(got, "\x1b") {
			t.Errorf("the reason reached the status line unsanitised: %q", got)
		}
	}
}
