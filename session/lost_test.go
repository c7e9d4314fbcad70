package session

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"mcpwitness/demo"
	"mcpwitness/paging"
	"mcpwitness/record"
)

// forgetful serves the demo over Streamable HTTP and can forget the
// sessions it gave: a forgotten session id is answered 404 Not Found, as
// a server that restarted or expired it answers.
type forgetful struct {
	inner http.Handler
	mu    sync.Mutex
	// given are the session ids handed out; forgotten those dropped.
	given, forgotten map[string]bool
}

func newForgetful(t *testing.T) (*forgetful, string) {
	f := &forgetful{inner: demo.Handler(nil), given: map[string]bool{}, forgotten: map[string]bool{}}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, srv.URL
}

func (f *forgetful) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	id := r.Header.Get("Mcp-Session-Id")
	f.mu.Lock()
	lost := f.forgotten[id]
	f.mu.Unlock()
	if lost {
		http.Error(w, "session not found", http.StatusNotFound)
		return
	}
	f.inner.ServeHTTP(&noteID{ResponseWriter: w, f: f}, r)
}

// forgetAll drops every session given so far.
func (f *forgetful) forgetAll() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for id := range f.given {
		f.forgotten[id] = true
	}
}

type noteID struct {
	http.ResponseWriter
	f *forgetful
}

func (n *noteID) WriteHeader(code int) {
	n.note()
	n.ResponseWriter.WriteHeader(code)
}

func (n *noteID) Write(b []byte) (int, error) {
	n.note()
	return n.ResponseWriter.Write(b)
}

func (n *noteID) note() {
	if id := n.Header().Get("Mcp-Session-Id"); id != "" {
		n.f.mu.Lock()
		n.f.given[id] = true
		n.f.mu.Unlock()
	}
}

func (n *noteID) Flush() {
	if fl, ok := n.ResponseWriter.(http.Flusher); ok {
		fl.Flush()
	}
}

// sessionIDs returns the Mcp-Session-Ids the log's exchanges carried, in
// order, each once.
func sessionIDs(l *record.Log) []string {
	var ids []string
	seen := map[string]bool{}
	for _, ev := range l.Events() {
		if ev.Kind == record.KindHTTP && ev.HTTP.Step == record.HTTPExchange && ev.HTTP.SessionID != "" && !seen[ev.HTTP.SessionID] {
			seen[ev.HTTP.SessionID] = true
			ids = append(ids, ev.HTTP.SessionID)
		}
	}
	return ids
}

// A server that forgets the HTTP session: the failing request names the
// lost session, an http event says so, and a restart starts a new session
// (a new initialize) in the same record, generations continuing and the
// tools listed before still known.
func TestLostHTTPSessionAndRestart(t *testing.T) {
	t.Parallel()
	f, url := newForgetful(t)
	s := dial(t, Target{URL: url}, nil)
	ctx := context.Background()
	if _, res := s.Walk(ctx, paging.Tools()); res.Err != nil {
		t.Fatalf("first walk: %v", res.Err)
	}
	ids := sessionIDs(s.Log())
	if len(ids) != 1 {
		t.Fatalf("session ids before forgetting: %q", ids)
	}
	old := ids[0]
	genBefore, _ := s.Generation()

	f.forgetAll()
	_, res := s.Walk(ctx, paging.Tools())
	var lost *LostSessionError
	if !errors.As(res.Err, &lost) || lost.SessionID != old {
		t.Fatalf("walk on a lost session: %v, want a LostSessionError naming %s", res.Err, old)
	}
	if want := "the server lost HTTP session " + ShortSessionID(old); !strings.Contains(res.Err.Error(), want) {
		t.Errorf("error %q does not say %q", res.Err, want)
	}
	if s.Lost() != old {
		t.Errorf("Lost() = %q, want %q", s.Lost(), old)
	}
	var lostEvents int
	for _, ev := range s.Log().Events() {
		if ev.Kind == record.KindHTTP && ev.HTTP.Step == record.HTTPLost {
			lostEvents++
			if ev.HTTP.SessionID != old || ev.HTTP.Status != http.StatusNotFound {
				t.Errorf("lost event %+v", ev.HTTP)
			}
		}
	}
	if lostEvents != 1 {
		t.Errorf("%d lost-session events, want 1", lostEvents)
	}

	n, err := s.Restart(ctx)
	if err != nil {
		t.Fatalf("Restart: %v", err)
	}
	if _, _, ok := n.Tool("add"); !ok {
		t.Error("the tools listed by the old session are forgotten")
	}
	if _, res := n.Walk(ctx, paging.Tools()); res.Err != nil {
		t.Fatalf("walk after the restart: %v", res.Err)
	}
	if gen, _ := n.Generation(); gen <= genBefore+1 {
		t.Errorf("generation after the restart %d, want it to continue past %d", gen, genBefore+1)
	}
	ids = sessionIDs(n.Log())
	if len(ids) != 2 || ids[1] == old {
		t.Errorf("session ids after the restart: %q, want a new one", ids)
	}
	var kinds []record.Kind
	var restart *record.RestartInfo
	for _, ev := range n.Log().Events() {
		switch ev.Kind {
		case record.KindRestart:
			restart = ev.Restart
			kinds = append(kinds, ev.Kind)
		case record.KindConnect, record.KindClosed:
			kinds = append(kinds, ev.Kind)
		}
	}
	if got := strings.Join(toStrings(kinds), " "); got != "connect restart connect" {
		t.Errorf("connect, restart and closed events: %s, want connect restart connect", got)
	}
	if restart == nil || restart.LostSession != old || restart.Transport != "http" || restart.Generation != genBefore+1 {
		t.Errorf("restart event %+v, want the lost session %s and generation %d", restart, old, genBefore+1)
	}
	// Closing the old session closes the one that continues it.
	s.Close()
	if !hasEvent(n.Log(), record.KindClosed, "session closed") {
		t.Error("closing the restarted session left the new one open")
	}
}

func toStrings(kinds []record.Kind) []string {
	out := make([]string, len(kinds))
	for i, k := range kinds {
		out[i] = string(k)
	}
	return out
}

// A stdio server that died is restarted as a new process, in the same
// record; the generation continues.
func TestRestartDeadStdioServer(t *testing.T) {
	t.Parallel()
	s := dial(t, demoStdio(t), nil)
	ctx := context.Background()
	if _, res := s.Walk(ctx, paging.Tools()); res.Err != nil {
		t.Fatalf("first walk: %v", res.Err)
	}
	gen, _ := s.Generation()
	pid := s.child.cmd.Process.Pid
	if err := s.child.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the closed event", func() bool { return hasEvent(s.Log(), record.KindClosed, "server exited") })

	n, err := s.Restart(ctx)
	if err != nil {
		t.Fatalf("Restart: %v", err)
	}
	if n.child.cmd.Process.Pid == pid {
		t.Error("the restart kept the dead process")
	}
	if _, res := n.Walk(ctx, paging.Tools()); res.Err != nil {
		t.Fatalf("walk after the restart: %v", res.Err)
	}
	if g, _ := n.Generation(); g <= gen {
		t.Errorf("generation %d after the restart, want more than %d", g, gen)
	}
	if !hasEvent(n.Log(), record.KindRestart, "as a new process") {
		t.Error("no restart event says a new process")
	}
}

// An in-process server cannot be restarted, and says so.
func TestRestartInMemoryRefused(t *testing.T) {
	t.Parallel()
	s := demoInMemory(t, nil)
	if _, err := s.Restart(context.Background()); err == nil || !strings.Contains(err.Error(), "cannot be restarted") {
		t.Errorf("Restart of an in-memory session: %v", err)
	}
}

// Restarting a live HTTP session ends it (a DELETE, as a close does) and
// starts a new one with a new initialize.
func TestRestartLiveHTTPSession(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var deleted []string
	inner := demo.Handler(nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodDelete {
			mu.Lock()
			deleted = append(deleted, r.Header.Get("Mcp-Session-Id"))
			mu.Unlock()
		}
		inner.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	s := dial(t, Target{URL: srv.URL}, nil)
	ctx := context.Background()
	old := sessionIDs(s.Log())
	n, err := s.Restart(ctx)
	if err != nil {
		t.Fatalf("Restart: %v", err)
	}
	if _, res := n.Walk(ctx, paging.Tools()); res.Err != nil {
		t.Fatalf("walk after the restart: %v", res.Err)
	}
	ids := sessionIDs(n.Log())
	if len(old) != 1 || len(ids) != 2 || ids[1] == old[0] {
		t.Errorf("session ids before %q and after %q the restart", old, ids)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(deleted) != 1 || deleted[0] != old[0] {
		t.Errorf("DELETEs %q, want one for the old session %s", deleted, old[0])
	}
	if !hasEvent(n.Log(), record.KindRestart, "in a new HTTP session") {
		t.Error("no restart event says a new HTTP session")
	}
}
