package report_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mcpwitness/paging"
	"mcpwitness/record"
	"mcpwitness/session"
)

// step is one thing a recorded session does after connecting.
type step struct {
	walk  bool
	tool  string
	args  string
	force bool
	read  string // a resources/read of this uri
}

func walk() step                    { return step{walk: true} }
func call(tool, args string) step   { return step{tool: tool, args: args} }
func forced(tool, args string) step { return step{tool: tool, args: args, force: true} }
func read(uri string) step          { return step{read: uri} }

// record runs steps against srv in-process, recording to a file through
// the recorder and redactor of target (which only labels the header), and
// returns the file's path.
func recordSession(t *testing.T, srv *mcp.Server, target session.Target, do []step) string {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	path := filepath.Join(t.TempDir(), "run.jsonl")
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	log := record.NewLog(nil)
	rec, err := record.NewRecorder(out, record.NewHeader("mcpwitness test", target.Describe()), target.Secrets())
	if err != nil {
		t.Fatal(err)
	}
	log.AddSink(rec.Write)
	s, err := session.Dial(ctx, session.Target{Transport: ct, Name: "demo"}, &session.Options{Log: log, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range do {
		if st.walk {
			if _, res := s.Walk(ctx, paging.Tools()); res.Incomplete != paging.Complete {
				t.Fatalf("walk: %s %v", res.Incomplete, res.Err)
			}
			continue
		}
		if st.read != "" {
			s.ReadResource(ctx, st.read)
			continue
		}
		s.Call(ctx, st.tool, json.RawMessage(st.args), &session.CallOptions{Force: st.force})
	}
	s.Close()
	log.Close()
	if err := rec.Err(); err != nil {
		t.Fatal(err)
	}
	return path
}

var (
	dateRE  = regexp.MustCompile(`\b20\d\d-\d\d(-\d\d(T\d\d:\d\d:\d\d(\.\d+)?Z)?)?\b`)
	startRE = regexp.MustCompile(`"started":"[^"]*"`)
)

// normalize makes a recording the same on every run: each event's time is
// a fixed start plus its sequence number in milliseconds, durations are
// fixed, dates (and months) inside frames are one date, and what follows the last call
// (the closing frames, whose order is up to the scheduler) is left out but
// for the closed event.
func normalize(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	base := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	var out [][]byte
	lastCall, closed := 0, []byte(nil)
	for i, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		line = dateRE.ReplaceAllFunc(line, func(d []byte) []byte {
			if slices.Contains(session.SupportedProtocols(), string(d)) {
				return d // a protocol version, not a date
			}
			if len(d) == len("2006-01") {
				return []byte("2030-01")
			}
			return []byte("2030-01-01")
		})
		if i == 0 {
			out = append(out, startRE.ReplaceAll(line, []byte(`"started":"`+base.Format(time.RFC3339Nano)+`"`)))
			continue
		}
		var ev map[string]json.RawMessage
		if err := json.Unmarshal(line, &ev); err != nil {
			t.Fatal(err)
		}
		var seq int
		_ = json.Unmarshal(ev["seq"], &seq)
		ev["t"], _ = json.Marshal(base.Add(time.Duration(seq) * time.Millisecond))
		delete(ev, "text") // wire latency, which varies; other texts are kept below
		var orig map[string]json.RawMessage
		_ = json.Unmarshal(line, &orig)
		var kind string
		_ = json.Unmarshal(ev["kind"], &kind)
		if kind != "wire" && orig["text"] != nil {
			ev["text"] = orig["text"]
		}
		for _, k := range []string{"walk", "call", "page"} {
			if raw, ok := ev[k]; ok {
				var sub map[string]json.RawMessage
				if json.Unmarshal(raw, &sub) == nil {
					if _, ok := sub["ms"]; ok {
						sub["ms"] = json.RawMessage("1.5")
					}
					ev[k], _ = json.Marshal(sub)
				}
			}
		}
		b, _ := json.Marshal(ev)
		switch {
		case kind == "closed":
			closed = b
			continue
		case kind == "call" && bytes.Contains(ev["call"], []byte(`"state":"done"`)):
			lastCall = len(out) + 1
		}
		out = append(out, b)
	}
	if lastCall > 0 {
		out = out[:lastCall]
	}
	if closed != nil {
		// The closed event follows the last call at once.
		var ev map[string]json.RawMessage
		_ = json.Unmarshal(closed, &ev)
		seq := len(out) // the header is not an event
		ev["seq"], _ = json.Marshal(seq)
		ev["t"], _ = json.Marshal(base.Add(time.Duration(seq) * time.Millisecond))
		closed, _ = json.Marshal(ev)
		out = append(out, closed)
	}
	norm := filepath.Join(t.TempDir(), "normalized.jsonl")
	if err := os.WriteFile(norm, append(bytes.Join(out, []byte("\n")), '\n'), 0o600); err != nil {
		t.Fatal(err)
	}
	return norm
}

// openFile opens a session file, failing the test if it cannot.
func openFile(t *testing.T, path string) *record.File {
	t.Helper()
	f, err := record.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}
