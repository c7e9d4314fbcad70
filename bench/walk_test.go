package bench

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mcpwitness/demo"
	"mcpwitness/fold"
	"mcpwitness/paging"
	"mcpwitness/record"
	"mcpwitness/session"
)

// The walk every variant makes: 10,000 tools in 100 pages of 100.
const (
	walkTools = 10_000
	pageSize  = 100
	walkPages = walkTools / pageSize
)

// protocol is asked for by every variant alike. It is the newest, on which
// the SDK may answer ListTools from its TTL cache; the demo server sends
// ttlMs 0, and the floor counts its requests to prove each page was asked.
const protocol = "2026-07-28"

// Set once by TestMain, read-only afterwards.
var (
	// serverBin is the mcpwitness binary built for this run.
	serverBin string
	// filler is the --filler that makes the demo list exactly walkTools.
	filler int
)

func TestMain(m *testing.M) {
	flag.Parse()
	if testing.Short() && flag.Lookup("test.bench").Value.String() == "" {
		// Every test here skips in short mode: nothing to build.
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "mcpwitness-bench-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
	code := 1
	if err := setup(dir); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
	} else {
		code = m.Run()
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// setup builds the binary into dir and works out the filler.
func setup(dir string) error {
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	serverBin = filepath.Join(dir, "mcpwitness")
	cmd := exec.Command("go", "build", "-o", serverBin, ".")
	cmd.Dir = root
	// Build with the installed toolchain, whatever go.mod says.
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("building mcpwitness in %s: %v\n%s", root, err, out)
	}
	own, err := demoTools(context.Background())
	if err != nil {
		return fmt.Errorf("counting the demo server's own tools: %w", err)
	}
	if own >= walkTools {
		return fmt.Errorf("the demo server has %d tools of its own, not fewer than %d", own, walkTools)
	}
	filler = walkTools - own
	return nil
}

// moduleRoot walks up from the working directory to the go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}

// demoTools counts the tools the demo server lists without filler.
func demoTools(ctx context.Context) (int, error) {
	st, ct := mcp.NewInMemoryTransports()
	ss, err := demo.New(&demo.Options{PageSize: 1000}).Connect(ctx, st, nil)
	if err != nil {
		return 0, err
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		return 0, err
	}
	defer cs.Close()
	w, err := floorWalk(ctx, cs, nil)
	return w.tools, err
}

// serverCommand is the demo server every variant walks.
func serverCommand() []string {
	return []string{serverBin, "demo-server", "--page-size", fmt.Sprint(pageSize), "--filler", fmt.Sprint(filler)}
}

// BenchmarkWalk10kStdio walks 10,000 tools in 100 pages over stdio: the
// floor (the SDK alone) and mcpwitness, side by side. Each sub-benchmark
// connects once, outside the timer, and times b.N walks.
func BenchmarkWalk10kStdio(b *testing.B) {
	b.Run("go-sdk-floor", benchFloor)
	b.Run("mcpwitness", func(b *testing.B) { benchSession(b, false) })
	b.Run("mcpwitness+record", func(b *testing.B) { benchSession(b, true) })
	b.Run("mcpwitness+fold", benchSessionFold)
}

func benchFloor(b *testing.B) {
	ctx := context.Background()
	cs, sent := dialFloor(b)
	b.ReportAllocs()
	pages := 0
	before := sent.Load()
	cpu := startCPU()
	for b.Loop() {
		w, err := floorWalk(ctx, cs, nil)
		if err == nil {
			err = w.check()
		}
		if err != nil {
			b.Fatal(err)
		}
		pages += w.pages
	}
	if got := sent.Load() - before; got != int64(pages) {
		b.Fatalf("the floor read %d pages but sent %d tools/list requests: the SDK's cache answered some", pages, got)
	}
	report(b, pages, cpu)
}

func benchSession(b *testing.B, recorded bool) {
	ctx := context.Background()
	s, rec := dialSession(b, recorded, nil)
	b.ReportAllocs()
	pages := 0
	cpu := startCPU()
	for b.Loop() {
		_, res := s.Walk(ctx, paging.Tools())
		if err := checkResult(res); err != nil {
			b.Fatal(err)
		}
		pages += len(res.Pages)
	}
	if rec != nil && rec.Err() != nil {
		b.Fatal(rec.Err())
	}
	report(b, pages, cpu)
}

// benchSessionFold is the session's walk with its events folded as they
// come, into a fresh fold per walk, as the terminal UI folds them (frames
// kept): what the tools' records cost on top of the walk.
func benchSessionFold(b *testing.B) {
	ctx := context.Background()
	var mu sync.Mutex
	var st *fold.State
	s, _ := dialSession(b, false, func(ev record.Event) {
		mu.Lock()
		defer mu.Unlock()
		if st != nil {
			st.Apply(ev)
		}
	})
	b.ReportAllocs()
	pages := 0
	cpu := startCPU()
	for b.Loop() {
		mu.Lock()
		st = fold.New(nil)
		mu.Unlock()
		_, res := s.Walk(ctx, paging.Tools())
		if err := checkResult(res); err != nil {
			b.Fatal(err)
		}
		pages += len(res.Pages)
		mu.Lock()
		w := st.LatestTools()
		mu.Unlock()
		if w == nil || len(w.Tools) != walkTools {
			b.Fatalf("the fold has %v, want a walk of %d tools", w, walkTools)
		}
	}
	report(b, pages, cpu)
}

// startCPU returns a function that tells the CPU time used since.
func startCPU() func() (time.Duration, bool) {
	start, ok := processCPU()
	return func() (time.Duration, bool) {
		end, ok2 := processCPU()
		return end - start, ok && ok2
	}
}

// report adds the per-walk metrics: wall time, pages, and the CPU time this
// process spent, which a busy machine disturbs less than wall time.
func report(b *testing.B, pages int, cpu func() (time.Duration, bool)) {
	used, ok := cpu()
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/walk")
	if ok {
		b.ReportMetric(float64(used.Microseconds())/1000/float64(b.N), "cpu-ms/walk")
	}
	b.ReportMetric(float64(pages)/float64(b.N), "pages/walk")
}

// TestWalk10kStdioSanity makes the walks the benchmark times, twice each,
// and checks that both sides read the same 10,000 tools in 100 pages, each
// page asked of the server (never answered by the SDK's cache), on the same
// protocol. It takes seconds (more under -race), so -short skips it.
func TestWalk10kStdioSanity(t *testing.T) {
	if testing.Short() {
		t.Skip("walks 10,000 tools four times over stdio; skipped with -short")
	}
	ctx := context.Background()

	cs, sent := dialFloor(t)
	if got := cs.InitializeResult().ProtocolVersion; got != protocol {
		t.Errorf("floor negotiated protocol %q, want %q", got, protocol)
	}
	var floorNames []string
	for walk := 1; walk <= 2; walk++ {
		before := sent.Load()
		floorNames = floorNames[:0]
		w, err := floorWalk(ctx, cs, &floorNames)
		if err == nil {
			err = w.check()
		}
		if err != nil {
			t.Fatalf("floor walk %d: %v", walk, err)
		}
		if got := sent.Load() - before; got != walkPages {
			t.Errorf("floor walk %d sent %d tools/list requests, want %d", walk, got, walkPages)
		}
	}

	// The sink runs on the goroutines that append, hence the atomic.
	var listRequests atomic.Int64
	s, _ := dialSession(t, false, func(ev record.Event) {
		if ev.Kind == record.KindWire && ev.Dir == record.Send && ev.Method == "tools/list" {
			listRequests.Add(1)
		}
	})
	if got := s.Info().ProtocolVersion; got != protocol {
		t.Errorf("mcpwitness negotiated protocol %q, want %q", got, protocol)
	}
	var names []string
	for walk := 1; walk <= 2; walk++ {
		before := listRequests.Load()
		_, res := s.Walk(ctx, paging.Tools())
		if err := checkResult(res); err != nil {
			t.Fatalf("mcpwitness walk %d: %v", walk, err)
		}
		ids := map[string]bool{}
		for _, p := range res.Pages {
			if p.RequestID == "" || ids[p.RequestID] {
				t.Errorf("mcpwitness walk %d: page %d has request id %q, empty or seen before", walk, p.Number, p.RequestID)
			}
			ids[p.RequestID] = true
		}
		if got := listRequests.Load() - before; got != walkPages {
			t.Errorf("mcpwitness walk %d sent %d tools/list frames, want %d", walk, got, walkPages)
		}
		names = names[:0]
		for _, item := range res.Items() {
			var tool struct{ Name string }
			if err := json.Unmarshal(item, &tool); err != nil {
				t.Fatalf("mcpwitness walk %d: item %s: %v", walk, item, err)
			}
			names = append(names, tool.Name)
		}
	}
	if diff := cmp.Diff(floorNames, names); diff != "" {
		t.Errorf("the floor and mcpwitness listed different tools (-floor +mcpwitness):\n%s", diff)
	}
}

// dialFloor connects a bare SDK client to the demo server. Its transport
// counts the tools/list requests written (one type switch and an atomic add
// per message, nothing else), so a caller can prove each page was asked.
func dialFloor(tb testing.TB) (*mcp.ClientSession, *atomic.Int64) {
	tb.Helper()
	cmd := serverCommand()
	sent := new(atomic.Int64)
	transport := &countingTransport{Transport: &mcp.CommandTransport{Command: exec.Command(cmd[0], cmd[1:]...)}, sent: sent}
	client := mcp.NewClient(&mcp.Implementation{Name: "floor", Version: "0"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := client.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: protocol})
	if err != nil {
		tb.Fatalf("floor: connecting to %v: %v", cmd, err)
	}
	tb.Cleanup(func() { cs.Close() })
	return cs, sent
}

// dialSession connects a session to the demo server the way "mcpwitness
// tools" does: a log without history, no subscribers. With recorded, a
// recorder streams the log to io.Discard, as --record does to a file. sink,
// if set, sees every event.
func dialSession(tb testing.TB, recorded bool, sink func(record.Event)) (*session.Session, *record.Recorder) {
	tb.Helper()
	target := session.Target{Command: serverCommand()}
	log := record.NewLog(nil)
	var rec *record.Recorder
	if recorded {
		var err error
		rec, err = record.NewRecorder(io.Discard, record.NewHeader("bench", target.Describe()), target.Secrets())
		if err != nil {
			tb.Fatal(err)
		}
		log.AddSink(rec.Write)
	}
	if sink != nil {
		log.AddSink(sink)
	}
	s, err := session.Dial(context.Background(), target, &session.Options{Log: log, Timeout: time.Minute, Protocol: protocol})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		s.Close()
		log.Close()
	})
	return s, rec
}

// floorResult is what one floor walk read.
type floorResult struct {
	pages, tools int
}

// floorWalk lists every page with the SDK alone, as a minimal client would.
// With names set, it also appends the tools' names there.
func floorWalk(ctx context.Context, cs *mcp.ClientSession, names *[]string) (floorResult, error) {
	var w floorResult
	params := &mcp.ListToolsParams{}
	for {
		res, err := cs.ListTools(ctx, params)
		if err != nil {
			return w, fmt.Errorf("page %d: %w", w.pages+1, err)
		}
		w.pages++
		w.tools += len(res.Tools)
		if names != nil {
			for _, t := range res.Tools {
				*names = append(*names, t.Name)
			}
		}
		if res.NextCursor == "" {
			return w, nil
		}
		if w.pages >= 10*walkPages {
			return w, fmt.Errorf("still a cursor after %d pages", w.pages)
		}
		params = &mcp.ListToolsParams{Cursor: res.NextCursor}
	}
}

func (w floorResult) check() error {
	if w.pages != walkPages || w.tools != walkTools {
		return fmt.Errorf("floor read %d tools in %d pages, want %d in %d", w.tools, w.pages, walkTools, walkPages)
	}
	return nil
}

func checkResult(res *paging.Result) error {
	if res.Incomplete != paging.Complete || res.Err != nil {
		return fmt.Errorf("walk is %s: %v", res.Incomplete, res.Err)
	}
	if got := res.Count(); len(res.Pages) != walkPages || got != walkTools {
		return fmt.Errorf("mcpwitness read %d tools in %d pages, want %d in %d", got, len(res.Pages), walkTools, walkPages)
	}
	for _, p := range res.Pages {
		if p.Count != pageSize {
			return fmt.Errorf("page %d holds %d tools, want %d", p.Number, p.Count, pageSize)
		}
	}
	return nil
}

// countingTransport counts the tools/list requests its connections write.
type countingTransport struct {
	mcp.Transport
	sent *atomic.Int64
}

func (t *countingTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &countingConn{Connection: c, sent: t.sent}, nil
}

type countingConn struct {
	mcp.Connection
	sent *atomic.Int64
}

func (c *countingConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if r, ok := msg.(*jsonrpc.Request); ok && r.Method == "tools/list" {
		c.sent.Add(1)
	}
	return c.Connection.Write(ctx, msg)
}
