package main

// Serving over Streamable HTTP: with -http ADDR the server answers POST /mcp
// with the same handler stdio uses (one application/json answer per
// request, 202 for a notification), after printing
// "listening on http://ADDR/mcp" as the first line on stdout and
// "inside http://127.0.0.1:PORT" (see below) as the second; it exits when
// stdin closes. An HTTP mode (httpModes) adds routes of its own around
// /mcp; a stdio mode served over HTTP behaves as on stdio.
//
// Each HTTP mode also gets a second listener on 127.0.0.1, "inside": a
// stand-in for a service of the user's own network, or another origin. It
// answers as the mode says and records every request it gets; GET /seen on
// the main server lists them as JSON ([{"method","path","headers","form"}]).

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
)

// httpEnv is what an HTTP mode sets up its routes with.
type httpEnv struct {
	s *server
	// mux serves the main server at base; insideMux the second listener at
	// inside (both "http://127.0.0.1:PORT").
	mux, insideMux *http.ServeMux
	base, inside   string
	// mcp answers MCP requests as stdio does.
	mcp http.Handler
}

// httpModes lists the HTTP modes and how each sets up its routes; a theme
// file adds its own with a function returning its part.
func httpModes() map[string]func(e *httpEnv) {
	modes := map[string]func(e *httpEnv){}
	for _, part := range []map[string]func(e *httpEnv){originModes()} {
		for name, setup := range part {
			modes[name] = setup
		}
	}
	return modes
}

// seenRequest is one request the inside listener got.
type seenRequest struct {
	Method  string      `json:"method"`
	Path    string      `json:"path"`
	Headers http.Header `json:"headers"`
	Form    url.Values  `json:"form,omitempty"`
}

// recorder keeps the requests of the inside listener.
type recorder struct {
	mu   sync.Mutex
	seen []seenRequest
}

// wrap records each request before h answers it.
func (r *recorder) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(req.Body, 1<<20))
		req.Body = io.NopCloser(strings.NewReader(string(body)))
		form, _ := url.ParseQuery(string(body))
		if id, secret, ok := req.BasicAuth(); ok {
			form.Set("client_id", id)
			form.Set("client_secret", secret)
		}
		r.mu.Lock()
		r.seen = append(r.seen, seenRequest{Method: req.Method, Path: req.URL.Path, Headers: req.Header.Clone(), Form: form})
		r.mu.Unlock()
		h.ServeHTTP(w, req)
	})
}

func (r *recorder) list(w http.ResponseWriter, _ *http.Request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(append([]seenRequest{}, r.seen...))
}

// listen listens on addr or exits.
func listen(s *server, addr string) net.Listener {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		s.logf("hostile: %v", err)
		os.Exit(1)
	}
	return ln
}

// serveHTTPMode serves s over HTTP at addr until stdin closes.
func serveHTTPMode(s *server, addr string) {
	ln, insideLn := listen(s, addr), listen(s, "127.0.0.1:0")
	e := &httpEnv{s: s, mux: http.NewServeMux(), insideMux: http.NewServeMux(),
		base: "http://" + ln.Addr().String(), inside: "http://" + insideLn.Addr().String(), mcp: mcpHandler(s)}
	rec := &recorder{}
	e.mux.HandleFunc("GET /seen", rec.list)
	if setup, ok := httpModes()[s.cfg.mode]; ok {
		setup(e)
	} else {
		e.mux.Handle("/mcp", e.mcp)
	}
	go func() { _ = http.Serve(insideLn, rec.wrap(e.insideMux)) }()
	fmt.Printf("listening on %s/mcp\ninside %s\n", e.base, e.inside)
	go func() {
		_, _ = bufio.NewReader(os.Stdin).ReadBytes(0)
		os.Exit(0)
	}()
	_ = http.Serve(ln, e.mux)
}

// mcpHandler answers a POSTed JSON-RPC message with what s answers on
// stdio, as application/json; a notification gets 202.
func mcpHandler(s *server) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		var req request
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var out strings.Builder
		one := &server{cfg: s.cfg, theme: s.theme, out: &out, errOut: os.Stderr}
		line, _ := json.Marshal(req)
		one.handle(line)
		if out.Len() == 0 {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, strings.TrimSpace(out.String()))
	})
}
