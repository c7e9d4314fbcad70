package ui

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// tmux drives one tmux session running the built binary.
type tmux struct {
	t    *testing.T
	name string
}

func (x *tmux) run(args ...string) string {
	x.t.Helper()
	out, err := exec.Command("tmux", args...).CombinedOutput()
	if err != nil {
		x.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// keys sends tmux key names (Enter, Escape, C-s) or literal text.
func (x *tmux) keys(keys ...string) {
	x.t.Helper()
	x.run(append([]string{"send-keys", "-t", x.name}, keys...)...)
}

// text types s literally.
func (x *tmux) text(s string) {
	x.t.Helper()
	x.run("send-keys", "-t", x.name, "-l", s)
}

func (x *tmux) screen() string { return x.run("capture-pane", "-p", "-t", x.name) }

// wait polls the screen until it matches re, failing after a deadline.
func (x *tmux) wait(re string) string {
	x.t.Helper()
	rx := regexp.MustCompile(re)
	deadline := time.Now().Add(20 * time.Second)
	for {
		s := x.screen()
		if rx.MatchString(s) {
			return s
		}
		if time.Now().After(deadline) {
			x.t.Fatalf("screen never matched %q:\n%s", re, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// until polls the screen until ok holds, failing after a deadline.
func (x *tmux) until(what string, ok func(screen string) bool) string {
	x.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		s := x.screen()
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			x.t.Fatalf("timed out waiting for %s:\n%s", what, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestEndToEnd builds mcpwitness, runs it in tmux against its embedded demo
// server, walks, calls a passing, a failing and a refused tool, exports the
// session, and checks the screen and the exported file.
func TestEndToEnd(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	dir := t.TempDir()
	bin := buildBinary(t, dir)
	work := filepath.Join(dir, "work")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}

	x := &tmux{t: t, name: fmt.Sprintf("mcpwitness-e2e-%d", os.Getpid())}
	x.run("new-session", "-d", "-s", x.name, "-x", "120", "-y", "40", "-c", work,
		"env -u NO_COLOR TERM=xterm-256color "+bin+"; sleep 30")
	t.Cleanup(func() { exec.Command("tmux", "kill-session", "-t", x.name).Run() })

	s := x.wait(`✓ \d+ pages · \d+ tools`)
	for _, want := range []string{"mcpwitness-demo", "stdio", "page 1 · 10 tools", "gen "} {
		if !strings.Contains(s, want) {
			t.Errorf("first screen lacks %q:\n%s", want, s)
		}
	}

	call := func(tool, arg string) {
		x.keys("/")
		x.text(tool)
		x.keys("Enter")
		x.wait(`▌ ` + tool)
		// A lone Escape followed fast by Enter reads as alt+enter: wait
		// until the filter is gone before the next key.
		x.keys("Escape")
		x.wait(`Tools \d+ +walk #`)
		x.keys("Enter")
		x.wait("Call " + tool)
		x.text(arg)
		x.keys("C-s")
	}
	call("weather", "Lisbon")
	x.wait(`(?s)Call #\d.*weather.*✓ pass · `)
	call("forecast_broken", "Paris")
	s = x.wait(`(?s)✗ fail\s+output-schema.*/temperature`)
	if !strings.Contains(s, "/humidity") {
		t.Errorf("failing call screen lacks /humidity:\n%s", s)
	}
	call("render_video", "a storyboard")
	x.wait(`(?s)⊘ Refused before sending: nothing was sent`)

	x.keys("e")
	s = x.wait(`exported \d+ lines to \S+mcpwitness-\d{8}-\d{6}\.jsonl`)
	files, _ := filepath.Glob(filepath.Join(work, "mcpwitness-*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("export files in %s: %v\n%s", work, files, s)
	}
	checkExport(t, files[0])

	x.keys("q")
	x.wait(`^\s*$`)
}

// buildBinary builds mcpwitness into dir, skipping the test until package
// main opens the UI.
func buildBinary(t *testing.T, dir string) string {
	t.Helper()
	deps, err := exec.Command("go", "list", "-deps", "..").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	if !strings.Contains("\n"+string(deps), "\nmcpwitness/ui\n") {
		t.Skip("package main does not import mcpwitness/ui yet")
	}
	bin := filepath.Join(dir, "mcpwitness")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestEndToEndOpen records a session with the built binary, then replays
// it in tmux: a file that cannot be opened is an error on stderr, exit 1,
// with the screen as it was; a good file shows the replay badge, opens at
// its end, and the scrubber's keys move the position indicator.
func TestEndToEndOpen(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	dir := t.TempDir()
	bin := buildBinary(t, dir)
	if out, _ := exec.Command(bin, "open").CombinedOutput(); strings.Contains(string(out), "unknown command") {
		t.Skip("the command line does not offer open yet")
	}
	rec := filepath.Join(dir, "run.jsonl")
	if out, err := exec.Command(bin, "call", "forecast_broken", "city=Oslo", "--record", rec).CombinedOutput(); err == nil {
		t.Fatalf("call forecast_broken passed its checks:\n%s", out)
	}

	x := &tmux{t: t, name: fmt.Sprintf("mcpwitness-e2e-open-%d", os.Getpid())}
	x.run("new-session", "-d", "-s", x.name, "-x", "80", "-y", "24", "-c", dir,
		"env -u NO_COLOR TERM=xterm-256color "+bin+" open missing.jsonl; echo \"exit $?\"; "+
			"env -u NO_COLOR TERM=xterm-256color "+bin+" open run.jsonl; sleep 30")
	t.Cleanup(func() { exec.Command("tmux", "kill-session", "-t", x.name).Run() })
	x.wait(`(?s)mcpwitness: opening session file: .*missing\.jsonl.*exit 1`)

	s := x.wait(`event (\d+)/(\d+) · end`)
	for _, want := range []string{"REPLAY", "run.jsonl", "recorded", "forecast_broken: ✗ output-schema"} {
		if !strings.Contains(s, want) {
			t.Errorf("replay screen lacks %q:\n%s", want, s)
		}
	}
	end := regexp.MustCompile(`event (\d+)/(\d+)`).FindStringSubmatch(s)
	if end[1] != end[2] {
		t.Fatalf("opened at event %s of %s, not at the end", end[1], end[2])
	}
	for _, word := range []string{"enter call", "walk again", "export"} {
		if strings.Contains(s, word) {
			t.Errorf("a replay offers %q:\n%s", word, s)
		}
	}
	x.keys("<")
	pos := regexp.MustCompile(`event (\d+)/` + end[2] + `\b`)
	x.until("< to move the position", func(s string) bool {
		m := pos.FindStringSubmatch(s)
		return m != nil && m[1] != end[1]
	})
	x.keys("{")
	x.wait(`event 0/` + end[2] + ` · start`)
	x.keys("}")
	x.wait(`event ` + end[1] + `/` + end[2] + ` · end`)
	x.keys("q")
	// Back on the normal screen, where the first command's error is.
	x.wait(`exit 1`)
}

// checkExport reads a session file and checks it holds the story.
func checkExport(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	if !sc.Scan() {
		t.Fatal("empty export")
	}
	var h struct {
		Format  string `json:"format"`
		Version int    `json:"version"`
	}
	if err := json.Unmarshal(sc.Bytes(), &h); err != nil || h.Format != "mcpwitness-session" || h.Version != 1 {
		t.Fatalf("header %s: %v", sc.Bytes(), err)
	}
	kinds := map[string]int{}
	var sentCalls []string
	outcomes := map[string]string{}
	for sc.Scan() {
		var ev struct {
			Kind  string `json:"kind"`
			Dir   string `json:"dir"`
			Frame struct {
				Method string `json:"method"`
				Params struct {
					Name string `json:"name"`
				} `json:"params"`
			} `json:"frame"`
			Call *struct {
				Tool  string `json:"tool"`
				State string `json:"state"`
			} `json:"call"`
			Verdict *struct {
				Check  string `json:"check"`
				Status string `json:"status"`
			} `json:"verdict"`
		}
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("line %q: %v", sc.Bytes(), err)
		}
		kinds[ev.Kind]++
		if ev.Kind == "wire" && ev.Dir == "send" && ev.Frame.Method == "tools/call" {
			sentCalls = append(sentCalls, ev.Frame.Params.Name)
		}
		if ev.Verdict != nil && ev.Call != nil && ev.Verdict.Status != "pass" && ev.Verdict.Status != "skipped" {
			outcomes[ev.Call.Tool] += ev.Verdict.Check + ":" + ev.Verdict.Status + " "
		}
	}
	for _, k := range []string{"connect", "wire", "page", "walk", "call", "verdict"} {
		if kinds[k] == 0 {
			t.Errorf("export has no %s events (kinds: %v)", k, kinds)
		}
	}
	if got := strings.Join(sentCalls, ","); got != "weather,forecast_broken" {
		t.Errorf("tools/call frames sent for %q, want weather and forecast_broken only", got)
	}
	if !strings.Contains(outcomes["forecast_broken"], "output-schema:fail") || !strings.Contains(outcomes["render_video"], "task-support:refused") {
		t.Errorf("verdicts in the export: %v", outcomes)
	}
}
