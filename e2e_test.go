package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The end-to-end tests drive the mcpwitness binary in a terminal: tmux runs
// it, send-keys types, capture-pane reads the screen. The binary is this
// test binary, which runs main's run when MCPWITNESS_AS_MAIN is set (see
// TestMain), so the program on screen is built with the same flags as the
// tests, -race included.

// screenWait is how long a screen may take to reach an expected state: a
// walk, a call or a replay over stdio, under -race, on a busy machine.
const screenWait = 90 * time.Second

// tmux drives one program in a tmux server of its own, so no other tmux
// server, configuration or earlier test shares its state.
type tmux struct {
	t    *testing.T
	sock string
}

// startTmux starts a tmux server running command in a width×height pane
// whose working directory is dir. The server ends with the test.
func startTmux(t *testing.T, dir string, width, height int, command string) *tmux {
	t.Helper()
	x := &tmux{t: t, sock: filepath.Join(t.TempDir(), "tmux.sock")}
	x.run("-f", "/dev/null", "new-session", "-d", "-s", "e2e",
		"-x", strconv.Itoa(width), "-y", strconv.Itoa(height), "-c", dir, command)
	t.Cleanup(func() { exec.Command("tmux", "-S", x.sock, "kill-server").Run() })
	return x
}

func (x *tmux) run(args ...string) string {
	x.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", x.sock}, args...)...).CombinedOutput()
	if err != nil {
		x.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// keys sends tmux key names (Enter, Escape, C-s) or literal text.
func (x *tmux) keys(keys ...string) {
	x.t.Helper()
	x.run(append([]string{"send-keys", "-t", "e2e"}, keys...)...)
}

// text types s literally.
func (x *tmux) text(s string) {
	x.t.Helper()
	x.run("send-keys", "-t", "e2e", "-l", s)
}

func (x *tmux) screen() string { return x.run("capture-pane", "-p", "-t", "e2e") }

// wait polls the screen until it matches re, failing after screenWait.
func (x *tmux) wait(re string) string {
	x.t.Helper()
	rx := regexp.MustCompile(re)
	return x.until(strconv.Quote(re), rx.MatchString)
}

// until polls the screen until ok holds, failing after screenWait.
func (x *tmux) until(what string, ok func(screen string) bool) string {
	x.t.Helper()
	deadline := time.Now().Add(screenWait)
	for {
		s := x.screen()
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			x.t.Fatalf("the screen never showed %s in %v:\n%s", what, screenWait, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// shellLine is a shell command line that prints marker, runs mcpwitness
// with args in a colour terminal, prints "exit N" with its exit status, and
// then keeps the pane open, so that a test can wait for the program's end
// and read what it left on the normal screen.
func shellLine(t *testing.T, marker string, args ...string) string {
	t.Helper()
	bin := testBinary(t)
	words := []string{"env", "-u", "NO_COLOR", "MCPWITNESS_AS_MAIN=1", "TERM=xterm-256color", shellQuote(bin)}
	for _, a := range args {
		words = append(words, shellQuote(a))
	}
	return "echo " + shellQuote(marker) + "; " + strings.Join(words, " ") + `; echo "exit $?"; exec sleep 600`
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// needTmux skips a test where tmux is missing (.ci/run installs it) or
// under -short.
func needTmux(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	if testing.Short() {
		t.Skip("drives the binary in tmux; skipped with -short")
	}
}

// TestEndToEnd runs mcpwitness in tmux against its embedded demo server,
// walks, calls a passing, a failing and a refused tool, reads a resource
// and gets a prompt from their tabs, exports the session, quits, and
// checks the screen and the exported file.
func TestEndToEnd(t *testing.T) {
	t.Parallel()
	needTmux(t)
	work := t.TempDir()
	x := startTmux(t, work, 120, 40, shellLine(t, "shell before mcpwitness"))

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

	// The refused call's event opened whole, and its verdict copied: tmux,
	// with set-clipboard on, takes the OSC 52 sequence into a buffer.
	x.run("set-option", "-g", "set-clipboard", "on")
	x.keys("1", "Tab", "Tab", "G", "Enter")
	x.wait(`(?s)Event whole.*render_video.*⊘ refused\s+task-support`)
	x.keys("y")
	x.wait(`copied verdicts · \d+ B · OSC 52`)
	if buf := x.run("show-buffer"); !strings.Contains(buf, `⊘ refused task-support: Tool "render_video" requires task-based execution`) {
		t.Errorf("the clipboard (tmux's buffer) holds %q, not the refused call's verdict", buf)
	}
	x.keys("Escape")
	x.wait(`Call #3 +\[ \] call 1 of 1`)

	// T runs the refused call as a task (the tasks extension, on the
	// demo's 2026-07-28): it completes with its verdicts, and the Tasks tab
	// lists it as this session's own task, completed.
	x.keys("T")
	x.wait(`call #4 render_video: ✓ pass`)
	x.wait(`(?s)Call #4 .*call 2 of 2.*✓ pass`)
	x.keys("5")
	x.wait(`(?s)This session's tasks 1.*task-1 +completed`)
	x.keys("1")
	x.wait(`Tools \d+ +walk #`)

	// The other lists' tabs: pick an item as a tool is picked.
	pick := func(tab, title, query, row string) {
		x.keys(tab)
		x.wait(title + ` \d+ +walk #`)
		x.keys("/")
		x.text(query)
		x.keys("Enter")
		x.wait(`▌ ` + row)
		x.keys("Escape")
		x.wait(title + ` \d+ +walk #`)
	}
	x.wait(`Tools 53 · Res(ources)? 30 · T(e)?mpl(ates)? 3 · Pr(o)?m(pts)? 3`)
	pick("2", "Resources", "changelog", "changelog  demo://changelog")
	x.keys("Enter")
	x.wait(`(?s)Latest resources/read.*✓ pass\s+resource-contents.*Contents \(1\).*demo://changelog  text/plain`)
	pick("4", "Prompts", "summarize", "summarize")
	x.keys("Enter")
	x.wait(`prompts/get summarize`)
	x.text("The tide came in.")
	x.keys("Enter")
	x.wait(`(?s)Latest prompts/get.*✓ pass\s+prompt-arguments.*✓ pass\s+prompt-messages`)
	x.keys("1")
	x.wait(`Tools \d+ +walk #`)

	// A tool that elicits a form: the modal opens over the screen with the
	// call in flight behind it; the first field (age) is typed and the form
	// accepted, and the tool answers with what the person gave.
	call("ask_form", "")
	x.wait(`(?s)The server asks · elicitation/create · form.*asked by call #\d+ ask_form.*‹ green ›`)
	x.text("36")
	x.wait(`✓ the answer matches the requested schema`)
	x.keys("C-s")
	x.wait(`answered the server: accept`)
	x.wait(`(?s)Call #\d+.*the user accepted:.*\{"age":36,"colour":"green","name":"Ada","subscribe":false\}`)

	x.keys("e")
	s = x.wait(`exported \d+ lines to \S+mcpwitness-\d{8}-\d{6}\.jsonl`)
	files, _ := filepath.Glob(filepath.Join(work, "mcpwitness-*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("export files in %s: %v\n%s", work, files, s)
	}
	checkExport(t, files[0])

	// q leaves the alternate screen: the shell's screen is back as it was.
	x.keys("q")
	x.wait(`(?s)shell before mcpwitness\s*\nexit 0\s*$`)
}

// TestEndToEndOpenMissingFile opens a file that does not exist: an error on
// stderr naming the file, exit 1, and the screen left as it was (no
// alternate screen, nothing cleared).
func TestEndToEndOpenMissingFile(t *testing.T) {
	t.Parallel()
	needTmux(t)
	x := startTmux(t, t.TempDir(), 120, 24, shellLine(t, "shell before open", "open", "missing.jsonl"))
	s := x.wait(`exit \d+`)
	if !regexp.MustCompile(`(?s)^shell before open\s*\nmcpwitness: opening session file: .*missing\.jsonl.*no such file.*\nexit 1\s*$`).MatchString(s) {
		t.Errorf("open of a missing file: want the error under the shell's line and exit 1:\n%s", s)
	}
}

// TestEndToEndOpen records a session, then replays it in tmux: the replay
// badge, opened at its end, no live actions offered; the scrubber's keys
// move the position indicator; q gives the shell's screen back.
func TestEndToEndOpen(t *testing.T) {
	t.Parallel()
	needTmux(t)
	dir := t.TempDir()
	rec := filepath.Join(dir, "run.jsonl")
	if code, out, stderr := runCLI(t, "call", "forecast_broken", "city=Oslo", "--record", rec); code != exitCheck {
		t.Fatalf("call forecast_broken --record: exit %d, want %d (a failed check)\n%s%s", code, exitCheck, out, stderr)
	}

	x := startTmux(t, dir, 80, 24, shellLine(t, "shell before open", "open", "run.jsonl"))
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
	x.until("< moving the position back", func(s string) bool {
		m := pos.FindStringSubmatch(s)
		return m != nil && m[1] != end[1]
	})
	x.keys("{")
	x.wait(`event 0/` + end[2] + ` · start`)
	x.keys("}")
	x.wait(`event ` + end[1] + `/` + end[2] + ` · end`)
	x.keys("q")
	x.wait(`(?s)shell before open\s*\nexit 0\s*$`)
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
	var sentCalls, sentRequests []string
	outcomes := map[string]string{}
	for sc.Scan() {
		var ev struct {
			Kind  string `json:"kind"`
			Dir   string `json:"dir"`
			Frame struct {
				Method string `json:"method"`
				Params struct {
					Name string `json:"name"`
					URI  string `json:"uri"`
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
		if ev.Kind == "wire" && ev.Dir == "send" && (ev.Frame.Method == "resources/read" || ev.Frame.Method == "prompts/get") {
			sentRequests = append(sentRequests, ev.Frame.Method+" "+ev.Frame.Params.Name+ev.Frame.Params.URI)
		}
		if ev.Verdict != nil && ev.Call != nil && ev.Verdict.Status != "pass" && ev.Verdict.Status != "skipped" {
			outcomes[ev.Call.Tool] += ev.Verdict.Check + ":" + ev.Verdict.Status + " "
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	if got := strings.Join(sentRequests, ","); got != "resources/read demo://changelog,prompts/get summarize" {
		t.Errorf("reads and gets sent: %q", got)
	}
	for _, k := range []string{"connect", "wire", "page", "walk", "call", "verdict", "request"} {
		if kinds[k] == 0 {
			t.Errorf("export has no %s events (kinds: %v)", k, kinds)
		}
	}
	// render_video goes out once, as a task (its plain call was refused);
	// ask_form's call twice: the call, and its retry with the form's
	// answer (multi round-trip).
	if got := strings.Join(sentCalls, ","); got != "weather,forecast_broken,render_video,ask_form,ask_form" {
		t.Errorf("tools/call frames sent for %q, want weather, forecast_broken, render_video (the task) and ask_form (twice) only", got)
	}
	if kinds["task"] == 0 {
		t.Errorf("export has no task events (kinds: %v)", kinds)
	}
	if kinds["server-request"] == 0 {
		t.Errorf("export has no server-request events (kinds: %v)", kinds)
	}
	if !strings.Contains(outcomes["forecast_broken"], "output-schema:fail") || !strings.Contains(outcomes["render_video"], "task-support:refused") {
		t.Errorf("verdicts in the export: %v", outcomes)
	}
}
