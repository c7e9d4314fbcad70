package main

// The wire theme: misbehaviour at the level of bytes and processes.
//
//	huge-frame         answers tools/list with a log notification ("a big
//	                   frame follows"), then a frame that never ends: no
//	                   newline, padding written until stdout is closed.
//	huge-stderr-line   writes one stderr line of 3 MiB ("long line: yyy…")
//	                   and "after the long line", then serves as
//	                   normal with -trace, so every request writes to stderr
//	                   (a closed stderr pipe kills it with SIGPIPE).
//	bad-version        answers initialize with protocolVersion "1999-01-01".
//	hang-init          never answers initialize; exits 0 on stdin EOF.
//	bad-init-frame     answers initialize with a frame that is JSON but not
//	                   JSON-RPC: {"jsonrpc":"2.0","id":ID} (no result, no
//	                   error).
//	panic-deep         panics at start thirty calls deep: Go prints
//	                   "panic: crashing on purpose" and a long stack trace,
//	                   exit status 2.
//	node-missing-module writes what node -e "require('./missing')" writes to
//	                   stderr (the "Error: Cannot find module" line amid a
//	                   stack) and exits with status 1.
//	detach             starts a detached grandchild (a new session, running
//	                   "sleep 20") that holds stdout and stderr, then serves as
//	                   normal.
//	ignore-term        ignores SIGTERM and, after stdin EOF, keeps running
//	                   (only SIGKILL ends it); otherwise normal.
//	http-huge-json     serves Streamable HTTP on 127.0.0.1 (port chosen by the
//	                   system) and prints its URL on stdout; tools/list
//	                   answers an application/json body that never ends.
//	http-huge-sse      as http-huge-json, but tools/list answers a
//	                   text/event-stream whose data: line never ends.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

// wireTheme holds the modes of this file.
func wireTheme() theme {
	return theme{
		modes: []string{
			"huge-frame", "huge-stderr-line", "bad-version", "hang-init", "bad-init-frame",
			"panic-deep", "node-missing-module", "detach", "ignore-term",
			"http-huge-json", "http-huge-sse",
		},
		start:  wireStart,
		handle: wireHandle,
	}
}

// stderrBytes is the length of huge-stderr-line's long line.
const stderrBytes = 3 << 20

func wireStart(s *server) bool {
	switch s.cfg.mode {
	case "huge-stderr-line":
		s.cfg.trace = true
		w := bufio.NewWriterSize(os.Stderr, 64<<10)
		w.WriteString("long line: ")
		w.Write(bytes.Repeat([]byte("y"), stderrBytes))
		w.WriteString("\nafter the long line\n")
		w.Flush()
	case "panic-deep":
		deep(30)
	case "node-missing-module":
		fmt.Fprint(os.Stderr, nodeMissingModule)
		os.Exit(1)
	case "detach":
		cmd := exec.Command("sleep", "20")
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := cmd.Start(); err != nil {
			s.logf("hostile: starting the grandchild: %v", err)
			os.Exit(1)
		}
		s.logf("grandchild %d started", cmd.Process.Pid)
	case "ignore-term":
		signal.Ignore(syscall.SIGTERM)
		s.serve(os.Stdin)
		s.logf("stdin closed; staying alive")
		time.Sleep(time.Hour)
		return true
	case "http-huge-json", "http-huge-sse":
		serveHTTP(s)
		return true
	}
	return false
}

func wireHandle(s *server, req request) bool {
	switch {
	case s.cfg.mode == "huge-frame" && req.Method == "tools/list":
		s.write([]byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"a big frame follows"}}` + "\n"))
		s.outMu.Lock()
		defer s.outMu.Unlock()
		endless(s.out, `{"jsonrpc":"2.0","id":`+string(req.ID)+`,"result":{"tools":[],"pad":"`)
		os.Exit(0)
	case req.Method != "initialize" || len(req.ID) == 0:
		return false
	case s.cfg.mode == "bad-version":
		res := s.initialize(req.Params).(map[string]any)
		res["protocolVersion"] = "1999-01-01"
		s.reply(req.ID, res)
		return true
	case s.cfg.mode == "hang-init":
		return true
	case s.cfg.mode == "bad-init-frame":
		s.write([]byte(`{"jsonrpc":"2.0","id":` + string(req.ID) + "}\n"))
		return true
	}
	return false
}

// endless writes prefix and then padding without a newline until w fails.
func endless(w interface{ Write([]byte) (int, error) }, prefix string) {
	if _, err := w.Write([]byte(prefix)); err != nil {
		return
	}
	pad := bytes.Repeat([]byte("x"), 64<<10)
	for {
		if _, err := w.Write(pad); err != nil {
			return
		}
	}
}

// deep panics n calls down, so the trace is long.
func deep(n int) {
	if n == 0 {
		panic("crashing on purpose")
	}
	deep(n - 1)
}

// serveHTTP serves Streamable HTTP on a port of 127.0.0.1 the system picks,
// printing the URL on stdout, until the process is killed or stdin closes.
func serveHTTP(s *server) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		s.logf("hostile: %v", err)
		os.Exit(1)
	}
	fmt.Printf("http://%s/mcp\n", ln.Addr())
	go func() {
		// The test closes stdin (or dies) when it is done with us.
		_, _ = bufio.NewReader(os.Stdin).ReadBytes(0)
		os.Exit(0)
	}()
	_ = http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		var req request
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if len(req.ID) == 0 {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		if req.Method == "tools/list" {
			prefix := `{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{"tools":[],"pad":"`
			if s.cfg.mode == "http-huge-sse" {
				w.Header().Set("Content-Type", "text/event-stream")
				prefix = "event: message\ndata: " + prefix
			} else {
				w.Header().Set("Content-Type", "application/json")
			}
			w.WriteHeader(http.StatusOK)
			endless(w, prefix)
			return
		}
		// Everything else is answered as on stdio.
		var out strings.Builder
		one := &server{cfg: s.cfg, out: &out, errOut: os.Stderr}
		line, _ := json.Marshal(req)
		one.handle(line)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, out.String())
	}))
}

// nodeMissingModule is what node v20 writes for require('./missing').
const nodeMissingModule = `node:internal/modules/cjs/loader:1147
  throw err;
  ^

Error: Cannot find module './missing'
Require stack:
- /tmp/[eval]
    at Module._resolveFilename (node:internal/modules/cjs/loader:1144:15)
    at Module._load (node:internal/modules/cjs/loader:985:27)
    at Module.require (node:internal/modules/cjs/loader:1235:19)
    at require (node:internal/modules/helpers:176:18)
    at [eval]:1:1
    at runScriptInThisContext (node:internal/vm:209:10)
    at node:internal/process/execution:118:14
    at [eval]-wrapper:6:24
    at runScript (node:internal/process/execution:101:62)
    at evalScript (node:internal/process/execution:133:3) {
  code: 'MODULE_NOT_FOUND',
  requireStack: [ '/tmp/[eval]' ]
}

Node.js v20.11.1
`
