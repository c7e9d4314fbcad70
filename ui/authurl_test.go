package ui

import (
	"context"
	"github.com/charmbracelet/x/ansi"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"mcpwitness/demo"
	"mcpwitness/record"
	"mcpwitness/session"
)

// While OAuth waits on the browser, the screen shows the authorization
// URL whole (wrapped, not cut); a person who opens it gets the session
// connected, and the URL goes away.
func TestAuthorizationURLShownWhole(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	srv := httptest.NewUnstartedServer(demo.AuthHandler(nil, base))
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	t.Setenv("BROWSER", "true") // opens nothing: the person opens the URL shown

	log := record.NewLog(nil)
	sub := log.Subscribe()
	t.Cleanup(sub.Close)
	target := session.Target{URL: base + demo.Endpoint}
	var sess *session.Session
	t.Cleanup(func() {
		if sess != nil {
			sess.Close()
		}
	})
	dial := func(ctx context.Context) (Backend, error) {
		s, err := session.Dial(ctx, target, &session.Options{Log: log, Timeout: time.Minute})
		if err != nil {
			return nil, err
		}
		sess = s
		return s, nil
	}
	h := newHarness(t, options{Dial: dial, Theme: "mono", Target: target.Describe().String()})
	h.update(tea.WindowSizeMsg{Width: 100, Height: 40})
	go func() {
		for ev := range sub.C() {
			select {
			case h.msgs <- eventMsg(ev):
			case <-h.done:
				return
			}
		}
	}()
	h.until("the authorization URL", func() bool { return h.m.restarts.authURL != "" })
	want := h.m.restarts.authURL
	if len(want) < 100 {
		t.Fatalf("the authorization URL %q is too short to need wrapping", want)
	}
	screen := h.screen()
	// The URL is the paragraph after the one that asks for authorization
	// (which wraps as the width asks).
	var shown strings.Builder
	para := -1 // paragraphs since the heading's; -1 before it
	for _, line := range strings.Split(screen, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "The server asks for authorization"):
			para = 0
		case para >= 0 && line == "":
			para++
		case para == 1:
			shown.WriteString(line)
		}
	}
	if shown.String() != want {
		t.Fatalf("the screen shows the URL as\n%s\nwant\n%s\nscreen:\n%s", shown.String(), want, screen)
	}

	// The person opens it: the authorization server redirects to the
	// loopback listener, and the session connects.
	resp, err := http.Get(shown.String())
	if err != nil {
		t.Fatalf("opening the URL shown: %v", err)
	}
	resp.Body.Close()
	h.until("the connection", func() bool { return h.m.backend != nil && h.m.St.Server() != nil })
	if h.m.restarts.authURL != "" || strings.Contains(h.screen(), "asks for authorization") {
		t.Errorf("the URL is still shown once connected:\n%s", h.screen())
	}
}

// In the UI the authorization URL is not opened by itself: the screen
// sets its host apart, y copies it and o opens it with $BROWSER.
func TestAuthorizationURLOpensOnlyOnO(t *testing.T) {
	srv := httptest.NewUnstartedServer(nil)
	base := "http://" + srv.Listener.Addr().String()
	srv.Config.Handler = demo.AuthHandler(nil, base)
	srv.Start()
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	argv, script := filepath.Join(dir, "argv"), filepath.Join(dir, "browser")
	// Records its arguments, then follows the URL as a browser would.
	body := "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\" >> '" + argv + "'; done\nexec curl -sSfL -o /dev/null \"$1\"\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("BROWSER", script)

	log := record.NewLog(nil)
	sub := log.Subscribe()
	t.Cleanup(sub.Close)
	target := session.Target{URL: base + demo.Endpoint, NoAuthBrowser: true}
	var sess *session.Session
	t.Cleanup(func() {
		if sess != nil {
			sess.Close()
		}
	})
	dial := func(ctx context.Context) (Backend, error) {
		s, err := session.Dial(ctx, target, &session.Options{Log: log, Timeout: time.Minute})
		if err == nil {
			sess = s
		}
		return s, err
	}
	h := newHarness(t, options{Dial: dial, Theme: "mono", Target: target.Describe().String(), Loopback: target.Loopback()})
	h.update(tea.WindowSizeMsg{Width: 100, Height: 40})
	go func() {
		for ev := range sub.C() {
			select {
			case h.msgs <- eventMsg(ev):
			case <-h.done:
				return
			}
		}
	}()
	h.until("the authorization URL", func() bool { return h.m.restarts.authURL != "" })
	url := h.m.restarts.authURL
	if s := h.screen(); !strings.Contains(s, "host: "+srv.Listener.Addr().String()) || !strings.Contains(s, "Press o to open") {
		t.Errorf("the screen does not set the host apart or say o opens it:\n%s", s)
	}
	if line := ansi.Strip(h.m.helpLine()); !strings.Contains(line, "o open URL") || !strings.Contains(line, "y copy URL") {
		t.Errorf("the key line does not offer o and y: %q", line)
	}
	if _, err := os.Stat(argv); err == nil {
		t.Fatal("the authorization URL was opened before o")
	}
	_, cmd := h.m.Update(keyMsg("y"))
	if text, ok := clipboard(t, cmd); !ok || text != url {
		t.Errorf("y copied %q (%v), want the authorization URL; status %q", text, ok, h.m.status.text)
	}
	h.key("o")
	h.until("the connection", func() bool { return h.m.backend != nil && h.m.St.Server() != nil })
	if b, err := os.ReadFile(argv); err != nil || string(b) != url+"\n" {
		t.Errorf("the browser got %q (%v), want the URL alone", b, err)
	}
}
