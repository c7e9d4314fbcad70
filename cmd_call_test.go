package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mcpwitness/internal/hostiletest"
	"mcpwitness/record"
)

// TestCallStopsWalkingAtTheToolsPage calls tools of the demo server's first
// and last page (ten tools a page) and one it does not list: the walk
// before the call reads up to the page that lists the tool, and no further
// unless --walk-all; the call's listed and generation are those of that
// page, and nothing says the shorter walk went wrong.
func TestCallStopsWalkingAtTheToolsPage(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name      string
		args      []string
		foundOn   int
		pagesRead int
	}{
		{"first page", []string{"add", "a=2", "b=3"}, 1, 1},
		{"first page, --walk-all", []string{"add", "a=2", "b=3", "--walk-all"}, 1, 6},
		{"last page", []string{"uuid_v4"}, 6, 6},
		{"not listed", []string{"no_such_tool"}, 0, 6},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "call.jsonl")
			code, out, stderr := runCLI(t, append([]string{"call", "--json", "--record", path}, tt.args...)...)
			if tt.foundOn > 0 && (code != exitOK || stderr != "") {
				t.Fatalf("exit %d, stderr %q: a walk stopped at the tool is no failure", code, stderr)
			}
			var doc struct {
				Listed      bool
				Generation  int64
				Stale       bool
				FoundOnPage *int
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("%v:\n%s", err, out)
			}
			found := 0
			if doc.FoundOnPage != nil {
				found = *doc.FoundOnPage
			}
			if found != tt.foundOn || doc.Listed != (tt.foundOn > 0) || doc.Generation != int64(tt.foundOn) || doc.Stale {
				t.Errorf("foundOnPage %d listed %v generation %d stale %v, want page %d, its generation, not stale",
					found, doc.Listed, doc.Generation, doc.Stale, tt.foundOn)
			}
			if pages, asked := pagesIn(t, path); pages != tt.pagesRead || asked != tt.pagesRead {
				t.Errorf("the record has %d pages of %d tools/list requests, want %d of %d", pages, asked, tt.pagesRead, tt.pagesRead)
			}
		})
	}
}

// TestCallFoundOnPageIsTheDefinitionChecked calls a tool that the hostile
// server lists on page 1 and again on page 2: the walk that stops takes the
// first, --walk-all the later one (the definition a client would hold), and
// foundOnPage names the page of the definition the call checked.
func TestCallFoundOnPageIsTheDefinitionChecked(t *testing.T) {
	t.Parallel()
	bin := hostiletest.Build(t)
	for _, tt := range []struct {
		flags []string
		want  int
	}{{nil, 1}, {[]string{"--walk-all"}, 2}} {
		args := append(append([]string{"call", "tool_1_1", "--json"}, tt.flags...), "--", bin, "-mode", hostiletest.ModeDuplicate)
		_, out, stderr := runCLI(t, args...)
		var doc struct {
			Generation  int64
			FoundOnPage int
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("%v: %v:\n%s%s", tt.flags, err, out, stderr)
		}
		if doc.FoundOnPage != tt.want || doc.Generation != int64(tt.want) {
			t.Errorf("%v: foundOnPage %d, generation %d; want both %d", tt.flags, doc.FoundOnPage, doc.Generation, tt.want)
		}
	}
}

// TestCallSaysTheToolListChanged calls a tool of the hostile server that
// says its tool list changed before it answers: the text output says the
// definition may be stale, --json says listChanged, and a report of the
// record has the finding; a tool that answers first has none of it.
func TestCallSaysTheToolListChanged(t *testing.T) {
	t.Parallel()
	bin := hostiletest.Build(t)
	server := []string{"--", bin, "-mode", hostiletest.ModeListChanged}
	const says = "the server said its tool list changed after the listing checked against"
	code, out, stderr := runCLI(t, append([]string{"call", "tool_1_1"}, server...)...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	assertSays(t, "the output", out, says)
	if _, out, _ := runCLI(t, append([]string{"call", "tool_1_2"}, server...)...); strings.Contains(out, says) {
		t.Errorf("a call answered before the notification says the list changed:\n%s", out)
	}
	path := filepath.Join(t.TempDir(), "call.jsonl")
	_, out, stderr = runCLI(t, append([]string{"call", "tool_1_1", "--json", "--record", path}, server...)...)
	var doc struct{ ListChanged, Stale bool }
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v:\n%s%s", err, out, stderr)
	}
	if !doc.ListChanged || doc.Stale {
		t.Errorf("listChanged %v, stale %v; want listChanged only", doc.ListChanged, doc.Stale)
	}
	_, report, stderr := runCLI(t, "report", path)
	assertSays(t, "the report", report+stderr, "list-changed")
}

// TestToolsSaysTheListChangedDuringTheWalk walks the hostile server's
// tools, which says its list changed before the last page: the text output
// says what is shown may be out of date, --json says listChanged, a report
// of the record has the finding; a walk of a server that says nothing says
// none of it.
func TestToolsSaysTheListChangedDuringTheWalk(t *testing.T) {
	t.Parallel()
	bin := hostiletest.Build(t)
	const says = "the server said tools/list changed after this walk started"
	for _, tt := range []struct {
		mode string
		want bool
	}{{hostiletest.ModeListChangedWalk, true}, {hostiletest.ModeNormal, false}} {
		code, out, stderr := runCLI(t, "tools", "--", bin, "-mode", tt.mode)
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", tt.mode, code, stderr)
		}
		if got := strings.Contains(out, says); got != tt.want {
			t.Errorf("%s: the output says the list changed: %v, want %v:\n%s", tt.mode, got, tt.want, out)
		}
		_, out, stderr = runCLI(t, "tools", "--json", "--", bin, "-mode", tt.mode)
		var doc struct{ Walk struct{ ListChanged bool } }
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("%s: %v:\n%s%s", tt.mode, err, out, stderr)
		}
		if doc.Walk.ListChanged != tt.want {
			t.Errorf("%s: walk.listChanged %v, want %v", tt.mode, doc.Walk.ListChanged, tt.want)
		}
		path := filepath.Join(t.TempDir(), "tools.jsonl")
		runCLI(t, "tools", "--record", path, "--", bin, "-mode", tt.mode)
		_, report, _ := runCLI(t, "report", path)
		// The walk settles: the third and last walk is the one still changed.
		if got := strings.Contains(report, "**list-changed** (`tools/list` walk 3)"); got != tt.want {
			t.Errorf("%s: the report has the list-changed finding: %v, want %v:\n%s", tt.mode, got, tt.want, report)
		}
	}
}

// TestCallSaysOnWhichPageTheToolWasListed reads the text output.
func TestCallSaysOnWhichPageTheToolWasListed(t *testing.T) {
	t.Parallel()
	code, out, stderr := runCLI(t, "call", "uuid_v4")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	assertSays(t, "the output", out, "uuid_v4 · sent · listed in gen 6 on page 6 · ")
}

// pagesIn counts the pages a session file's walks accepted and the
// tools/list requests that went out on the wire.
func pagesIn(t *testing.T, path string) (pages, asked int) {
	t.Helper()
	f, err := record.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for ev, err := range f.Events() {
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case ev.Kind == record.KindPage:
			pages++
		case ev.Kind == record.KindWire && ev.Dir == record.Send && ev.Method == "tools/list":
			asked++
		}
	}
	return pages, asked
}

// TestCallStoppedWalkIsNoFinding records a call whose walk stops at the
// tool's page: the record says the walk stopped (not aborted), report
// shows it stopped and counts no incomplete walk, and diff, which needs a
// whole list, says so and how to record one.
func TestCallStoppedWalkIsNoFinding(t *testing.T) {
	t.Parallel()
	path := recordCLI(t, "call", "add", "a=2", "b=3")
	f, err := record.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var done *record.WalkInfo
	for ev, err := range f.Events() {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Kind == record.KindWalk && ev.Walk != nil && ev.Walk.State == record.PhaseDone {
			done = ev.Walk
		}
	}
	f.Close()
	if done == nil || done.Incomplete != "stopped" || done.Error != "" || len(done.Findings) != 0 || done.Pages != 1 {
		t.Fatalf("the walk's done event = %+v, want stopped after 1 page, no error, no findings", done)
	}
	code, out, stderr := runFileCommand(t, "report", false, path)
	if code != exitOK || stderr != "" {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	assertSays(t, "the report", out,
		"1 walk · 1 call · recorded",
		"| 1 | `tools/list` | 1 | 10 | 1 | ⏹️ stopped at page 1: the client read no further |",
		"_No findings._")
	if strings.Contains(out, "incomplete") {
		t.Errorf("the report calls the stopped walk incomplete:\n%s", out)
	}
	code, _, stderr = runFileCommand(t, "diff", false, path, path)
	if code != exitCheck || !strings.Contains(stderr, "(walk 1) is stopped at page 1: the client read no further; record one with: mcpwitness tools --record FILE (or call --walk-all --record FILE)") {
		t.Errorf("diff: exit %d: %s", code, stderr)
	}
}

// TestCallEndsItsServer calls a tool of a server that ignores stdin's EOF
// and SIGTERM: the call is answered and printed, the session is closed as
// soon as the answer is in, and when the command returns the server has
// been killed and reaped (this process has no child left, not even a
// zombie), with the record's last event the session's close, after the
// call's.
func TestCallEndsItsServer(t *testing.T) {
	bin := hostiletest.Build(t)
	path := filepath.Join(t.TempDir(), "call.jsonl")
	code, out, stderr := runCLI(t, "call", "tool_1_1", "--record", path, "--", bin, "-mode", hostiletest.ModeIgnoreTerm)
	if code != exitOK {
		t.Fatalf("exit %d: %s%s", code, out, stderr)
	}
	assertSays(t, "the output", out, "tool_1_1 · sent · ")
	if kids := childProcesses(t); len(kids) > 0 {
		t.Fatalf("the call returned with children %v still there: the server was not reaped", kids)
	}
	f, err := record.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var kinds []string
	for ev, err := range f.Events() {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Kind == record.KindCall || ev.Kind == record.KindClosed {
			kinds = append(kinds, string(ev.Kind)+" "+ev.Text)
		}
	}
	if n := len(kinds); n < 2 || kinds[n-2] != "call " || kinds[n-1] != "closed session closed" {
		t.Fatalf("the record's calls and closes: %q; want it to end with the call, then the session closed", kinds)
	}
}

// childProcesses lists the process ids of this process's children, zombies
// included.
func childProcesses(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("/proc/self/task/*/children")
	if err != nil || len(files) == 0 {
		t.Fatalf("no /proc/self/task/*/children to list this process's children (%v)", err)
	}
	var kids []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue // the thread has gone
		}
		kids = append(kids, strings.Fields(string(b))...)
	}
	return kids
}

// A tool that no page listed, when the walk stopped before the list's end
// (the --max-pages bound, a cursor loop), is not "not listed": the call
// says how many pages were read and why the walk stopped, sends nothing and
// exits 3, with the error code "incomplete" in --json.
func TestCallOfAToolPastAnIncompleteWalk(t *testing.T) {
	t.Parallel()
	bin := hostiletest.Build(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"tool_5_1", "--max-pages", "2", "--", bin, "-mode", hostiletest.ModeNormal, "-pages", "5"},
			`tool "tool_5_1" not found in the 2 pages read (walk stopped: page-limit)`},
		{[]string{"nope", "--", bin, "-mode", hostiletest.ModeCursorLoop},
			`not found in the 3 pages read (walk stopped: cursor-repeated)`},
	} {
		code, out, stderr := runCLI(t, append([]string{"call"}, tc.args...)...)
		if code != exitCheck || !strings.Contains(stderr, tc.want) || strings.Contains(out+stderr, "not listed") {
			t.Errorf("%q: exit %d, want %d saying %q:\n%s%s", tc.args, code, exitCheck, tc.want, out, stderr)
		}
		code, out, _ = runCLI(t, append([]string{"call", "--json"}, tc.args...)...)
		var doc struct {
			Error struct {
				Code     string
				Message  string
				ExitCode int
			}
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil || code != exitCheck || doc.Error.Code != "incomplete" ||
			doc.Error.ExitCode != exitCheck || !strings.Contains(doc.Error.Message, tc.want) {
			t.Errorf("%q --json: exit %d, %+v (%v):\n%s", tc.args, code, doc.Error, err, out)
		}
	}
}
