package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"mcpwitness/record"
	"mcpwitness/session"
)

// recordServers records demo servers named demos and one that fails to
// start, through one shared log as RunServers does, and returns the file.
func recordServers(t *testing.T, demos ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "servers.jsonl")
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	shared := record.NewLog(nil)
	rec, err := record.NewRecorder(out, record.NewHeader("mcpwitness test", session.Target{Name: demos[0]}.Describe()), nil)
	if err != nil {
		t.Fatal(err)
	}
	shared.AddSink(rec.Write)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	announce := func(name string) *record.Log {
		log := record.NewLog(nil)
		log.AddSink(record.Forward(shared, []string{name}))
		id := session.Target{Command: []string{name}}.Identify(record.IdentityOptions{})
		info := session.Target{Name: name, Identity: &id}.Describe()
		log.Append(record.Event{Kind: record.KindServer, Target: &info})
		return log
	}
	for _, name := range demos {
		log := announce(name)
		s, err := session.Dial(ctx, demoTarget(t), &session.Options{Log: log, Timeout: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		h := newHarness(t, options{Backend: s})
		h.bridge(log)
		info := s.Info()
		h.feed(record.Event{Kind: record.KindConnect, Server: &info})
		h.firstWalks()
		s.Close()
		log.Close()
	}
	broken := announce("broken")
	broken.Append(record.Event{Kind: record.KindClosed, Text: `could not connect: cannot start "/nonexistent/server": program not found`})
	broken.Close()
	shared.Close()
	if err := out.Close(); err != nil || rec.Err() != nil {
		t.Fatal(err, rec.Err())
	}
	return path
}

func TestOpenSeveralServers(t *testing.T) {
	path := recordServers(t, "alpha", "beta")
	f, err := record.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	servers, files, err := f.Servers()
	if err != nil || len(servers) != 3 {
		t.Fatalf("servers %v, %v", servers, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h := (&serversHarness{t: t, msgs: make(chan tea.Msg, 4096), done: make(chan struct{})})
	t.Cleanup(func() { close(h.done) })
	h.start(replayServers(ctx, OpenConfig{Path: path, Theme: "dark"}, newTasks(), 0, servers, files))
	h.until("every replay loaded", func() bool {
		for _, s := range h.r.servers {
			if !s.m.replay.Loaded() || s.m.replay.Running() {
				return false
			}
		}
		return true
	})
	h.key("S")
	picker := h.screen()
	for _, want := range []string{"1 alpha", "2 beta", "3 broken", "✗ failed", "program not found", "config "} {
		if !strings.Contains(picker, want) {
			t.Errorf("picker of the replay lacks %q:\n%s", want, picker)
		}
	}
	for i := range 2 {
		if n := h.r.servers[i].m.toolCount(); n == 0 {
			t.Errorf("server %d replays no tools", i+1)
		}
	}
	h.key("2")
	if h.r.cur != 1 || !strings.Contains(h.screen(), "REPLAY") {
		t.Errorf("switching to beta's replay:\n%s", h.screen())
	}
}
