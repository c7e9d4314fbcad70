// Command hostile is a small MCP server over stdio that misbehaves on purpose.
//
// It speaks newline-delimited JSON-RPC 2.0 by hand, without an MCP SDK, so
// that it can break the protocol in exactly the ways a test needs: cursor
// loops, endless pages, non-JSON lines on stdout, crashes, hangs, stderr
// floods. The handshake itself is correct, so a conforming client connects:
// server/discover is answered with "method not found" (this server speaks only
// the initialize handshake), initialize echoes a supported requested protocol
// version, ping answers {}, notifications are ignored.
//
// Usage:
//
//	hostile [-mode MODE] [-pages N] [-page-size N] [-stderr-lines N] [-logs N] [-delay D] [-trace] [-http ADDR]
//
// With -http ADDR it serves Streamable HTTP instead of stdio (see http.go),
// and takes the HTTP modes too (http_origin.go).
//
// Modes (tool names are tool_P_I: page P, item I, both from 1):
//
//	normal             -pages pages of -page-size tools, cursors "c1", "c2", …;
//	                   the last page has no nextCursor. Every listed tool
//	                   answers tools/call with the text "ok".
//	cursor-loop        page 1 → nextCursor "A", page A → "B", page B → "A".
//	endless            every page names a fresh cursor "p1", "p2", … forever.
//	hang-list          never answers tools/list (keeps reading stdin).
//	hang-call          normal list, never answers tools/call.
//	die-on-call        normal list; tools/call writes "fatal: crashing on
//	                   purpose" to stderr and exits with status 3.
//	exit-at-once       writes "cannot start: missing API key" to stderr and
//	                   exits with status 1 before reading anything.
//	garbage            before each tools/list answer, writes the non-JSON line
//	                   "this is not json" and a half JSON object line.
//	flood-stderr       writes -stderr-lines lines to stderr at start (before
//	                   reading stdin, blocking if nobody drains stderr), then
//	                   behaves as normal.
//	empty-page-cursor  three pages: page 2 has no tools but a nextCursor.
//	duplicate          the first tool of page 2 is named tool_1_1 again.
//	task-required      normal list where tool_1_1 has execution.taskSupport
//	                   "required" (a plain tools/call of it gets error -32601),
//	                   tool_1_2 declares an outputSchema and answers
//	                   structuredContent that does not match it; the last page
//	                   also has ref_broken (outputSchema with a $ref that does
//	                   not resolve) and schema_broken (outputSchema that cannot
//	                   compile), both answering structuredContent {}. Implies
//	                   -trace and a page size of at least 2.
//	env                one page with the tool "env", whose call answers the
//	                   value of the server's environment variable named by
//	                   arguments.name. Writes "started" to stderr at start.
//	                   The name "@session" answers "leader" when the server
//	                   leads its own session (no controlling terminal is
//	                   left to it) or "in session N"; "@tty" answers
//	                   "terminal open" when /dev/tty opens, else
//	                   "no terminal: …".
//	ttl                normal, with "ttlMs": 60000 on every page.
//	list-changed       normal, but a call of tool_1_1 sends
//	                   notifications/tools/list_changed before its answer,
//	                   and a call of tool_1_2 sends it after its answer (the
//	                   list itself stays the same).
//	list-changed-walk  normal, but notifications/tools/list_changed is sent
//	                   before the answer to the last page of tools/list.
//	log-flood          normal, but every tools/call is answered after -logs
//	                   notifications/message, written as fast as stdout
//	                   takes them.
//
// -delay D holds every tools/list and tools/call answer back by D; other
// requests (ping, initialize) are still answered at once meanwhile.
// -trace writes "recv METHOD" to stderr for every message received.
// prompts/list, resources/list and resources/templates/list answer empty
// lists, since the capabilities declare prompts and resources.
// The server exits with status 0 when stdin reaches EOF.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
)

// JSON-RPC error codes used here.
const (
	codeParseError     = -32700
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
)

// protocolVersions are the versions initialize may negotiate, newest first.
var protocolVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// baseModes are the modes this file implements; each theme file (wire.go,
// protocol.go, strings.go) adds its own in a theme value.
var baseModes = []string{
	"normal", "cursor-loop", "endless", "hang-list", "hang-call", "die-on-call",
	"exit-at-once", "garbage", "flood-stderr", "empty-page-cursor", "duplicate",
	"task-required", "env", "ttl", "list-changed", "list-changed-walk", "log-flood",
}

// theme is a group of modes implemented in a file of its own. start runs
// before stdin is read and reports whether it took over the whole process;
// handle sees each request first and reports whether it answered it.
type theme struct {
	modes  []string
	start  func(s *server) bool
	handle func(s *server, req request) bool
}

// themes lists the theme files' modes; each file returns its own value.
func themes() []theme {
	return []theme{wireTheme(), protocolTheme(), stringsTheme(), listsTheme(), tasksTheme(), hiddenTheme(), optionalTheme()}
}

// allModes is every mode: the base ones and each theme's.
func allModes() []string {
	all := slices.Clone(baseModes)
	for _, t := range themes() {
		all = append(all, t.modes...)
	}
	return append(all, slices.Sorted(maps.Keys(httpModes()))...)
}

// themeOf returns the theme implementing mode, if any.
func themeOf(mode string) (theme, bool) {
	for _, t := range themes() {
		if slices.Contains(t.modes, mode) {
			return t, true
		}
	}
	return theme{}, false
}

type config struct {
	mode        string
	pages       int
	pageSize    int
	stderrLines int
	logs        int
	delay       time.Duration
	trace       bool
	httpAddr    string // -http: serve Streamable HTTP here instead of stdio
}

func main() {
	var cfg config
	flag.StringVar(&cfg.mode, "mode", "normal", "misbehaviour: "+strings.Join(allModes(), ", "))
	flag.IntVar(&cfg.pages, "pages", 3, "number of tools/list pages")
	flag.IntVar(&cfg.pageSize, "page-size", 2, "tools per page")
	flag.IntVar(&cfg.stderrLines, "stderr-lines", 10000, "lines written to stderr in flood-stderr mode")
	flag.IntVar(&cfg.logs, "logs", 10000, "log messages sent before each call's answer in log-flood mode")
	flag.DurationVar(&cfg.delay, "delay", 0, "delay before each tools/list and tools/call answer")
	flag.BoolVar(&cfg.trace, "trace", false, `write "recv METHOD" to stderr for every message received`)
	flag.StringVar(&cfg.httpAddr, "http", "", "serve Streamable HTTP at ADDR (127.0.0.1:0 for a free port) instead of stdio")
	flag.Parse()

	if !slices.Contains(allModes(), cfg.mode) {
		fmt.Fprintf(os.Stderr, "hostile: unknown mode %q (modes: %s)\n", cfg.mode, strings.Join(allModes(), ", "))
		os.Exit(2)
	}
	cfg.pages = max(cfg.pages, 1)
	cfg.pageSize = max(cfg.pageSize, 1)
	switch cfg.mode {
	case "task-required":
		cfg.trace = true
		cfg.pageSize = max(cfg.pageSize, 2)
	case "duplicate":
		cfg.pages = max(cfg.pages, 2)
	case "empty-page-cursor":
		cfg.pages = 3
	case "cursor-loop":
		cfg.pages = 3
	case "env":
		cfg.pages = 1
	}

	s := &server{cfg: cfg, out: os.Stdout, errOut: os.Stderr}
	_, httpOnly := httpModes()[cfg.mode]
	if httpOnly && cfg.httpAddr == "" {
		fmt.Fprintf(os.Stderr, "hostile: mode %q is served over HTTP only: give -http 127.0.0.1:0\n", cfg.mode)
		os.Exit(2)
	}
	if t, ok := themeOf(cfg.mode); ok {
		s.theme = &t
	}
	if cfg.httpAddr != "" {
		serveHTTPMode(s, cfg.httpAddr)
		return
	}
	if s.theme != nil {
		t := *s.theme
		if t.start != nil && t.start(s) {
			return
		}
	}
	switch cfg.mode {
	case "exit-at-once":
		s.logf("cannot start: missing API key")
		os.Exit(1)
	case "flood-stderr":
		w := bufio.NewWriterSize(os.Stderr, 64<<10)
		for i := 1; i <= cfg.stderrLines; i++ {
			fmt.Fprintf(w, "flood line %d of %d: the quick brown fox jumps over the lazy dog\n", i, cfg.stderrLines)
		}
		w.Flush()
	case "env":
		s.logf("started")
	}
	s.serve(os.Stdin)
}

// server holds the configuration and serialises writes to stdout and stderr.
type server struct {
	cfg    config
	theme  *theme // the theme of cfg.mode, nil for a base mode
	outMu  sync.Mutex
	out    io.Writer
	errMu  sync.Mutex
	errOut io.Writer
}

type request struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

// serve reads one JSON-RPC message per line until EOF. Lines have no length
// limit.
func (s *server) serve(in io.Reader) {
	r := bufio.NewReaderSize(in, 1<<20)
	for {
		line, err := r.ReadBytes('\n')
		if line = bytes.TrimSpace(line); len(line) > 0 {
			s.handle(line)
		}
		if err != nil {
			return
		}
	}
}

func (s *server) handle(line []byte) {
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		s.send(response{ID: json.RawMessage("null"), Error: &rpcError{codeParseError, "parse error: " + err.Error()}})
		return
	}
	if req.Method == "" {
		return // a response to a request we never sent
	}
	if s.cfg.trace {
		s.logf("recv %s", req.Method)
	}
	if s.theme != nil && s.theme.handle != nil && s.theme.handle(s, req) {
		return
	}
	if len(req.ID) == 0 {
		return // notifications need no answer
	}
	switch req.Method {
	case "initialize":
		s.reply(req.ID, s.initialize(req.Params))
	case "ping":
		s.reply(req.ID, struct{}{})
	case "tools/list":
		if s.cfg.mode == "hang-list" {
			return
		}
		s.later(func() { s.listTools(req) })
	case "tools/call":
		if s.cfg.mode == "hang-call" {
			return
		}
		s.later(func() { s.callTool(req) })
	case "prompts/list":
		s.reply(req.ID, map[string]any{"prompts": []any{}})
	case "resources/list":
		s.reply(req.ID, map[string]any{"resources": []any{}})
	case "resources/templates/list":
		s.reply(req.ID, map[string]any{"resourceTemplates": []any{}})
	default:
		// Includes server/discover: this server only knows initialize.
		s.fail(req.ID, codeMethodNotFound, "method not found: "+req.Method)
	}
}

// later runs f now, or after -delay in its own goroutine so other requests
// are still answered meanwhile.
func (s *server) later(f func()) {
	if s.cfg.delay <= 0 {
		f()
		return
	}
	go func() {
		time.Sleep(s.cfg.delay)
		f()
	}()
}

func (s *server) initialize(params json.RawMessage) any {
	var p struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	_ = json.Unmarshal(params, &p)
	version := protocolVersions[0]
	if slices.Contains(protocolVersions, p.ProtocolVersion) {
		version = p.ProtocolVersion
	}
	return map[string]any{
		"protocolVersion": version,
		"capabilities": map[string]any{
			"tools":     map[string]any{"listChanged": true},
			"prompts":   map[string]any{},
			"resources": map[string]any{},
		},
		"serverInfo": map[string]any{"name": "hostile-" + s.cfg.mode, "version": "0.0.1"},
	}
}

func (s *server) reply(id json.RawMessage, result any) {
	s.send(response{ID: id, Result: result})
}

func (s *server) fail(id json.RawMessage, code int, msg string) {
	s.send(response{ID: id, Error: &rpcError{code, msg}})
}

func (s *server) send(r response) {
	r.JSONRPC = "2.0"
	b, err := json.Marshal(r)
	if err != nil {
		s.logf("hostile: encoding response: %v", err)
		return
	}
	s.write(append(b, '\n'))
}

// write writes one or more whole lines to stdout.
func (s *server) write(b []byte) {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	if _, err := s.out.Write(b); err != nil && !errors.Is(err, os.ErrClosed) {
		s.logf("hostile: writing stdout: %v", err)
	}
}

// logf writes one line to stderr.
func (s *server) logf(format string, args ...any) {
	s.errMu.Lock()
	defer s.errMu.Unlock()
	fmt.Fprintf(s.errOut, format+"\n", args...)
}
