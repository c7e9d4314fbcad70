package main

import (
	"bufio"
	"encoding/json"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"mcpwitness/internal/hostiletest"
)

// hostileServer is the command line of the hostile server in mode.
func hostileServer(t *testing.T, mode string) []string {
	return []string{"--", hostiletest.Build(t), "-mode", mode}
}

// checkJSON runs check --json with args and returns its exit code and
// document.
func checkJSON(t *testing.T, args ...string) (int, checkDoc) {
	t.Helper()
	code, out, stderr := runCLI(t, append([]string{"check", "--json"}, args...)...)
	var doc checkReportDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Servers) != 1 {
		t.Fatalf("exit %d, not one document of one server (%v): %s\n%s", code, err, out, stderr)
	}
	return code, doc.Servers[0]
}

// findingOf returns the first finding of doc by check, or fails t.
func findingOf(t *testing.T, doc checkDoc, check string) (sev, msg string) {
	t.Helper()
	for _, f := range doc.Findings {
		if f.Check == check {
			return string(f.Severity), f.Message
		}
	}
	t.Fatalf("no %s finding in %+v", check, doc.Findings)
	return "", ""
}

// Lines on a stdio server's stdout that are not JSON-RPC are an error of
// check, with the first line (sanitised) and their count: garbage writes
// two before each of its three tools/list answers.
func TestCheckFindsStdoutGarbage(t *testing.T) {
	t.Parallel()
	code, doc := checkJSON(t, hostileServer(t, hostiletest.ModeGarbage)...)
	if code != exitCheck {
		t.Errorf("exit %d, want %d", code, exitCheck)
	}
	sev, msg := findingOf(t, doc, "not-json-rpc")
	if want := `the server wrote 6 lines that are not JSON-RPC (the first: "this is not json") to stdout`; sev != "error" || !strings.Contains(msg, want) {
		t.Errorf("%s %q does not say %q as an error", sev, msg, want)
	}
	code, out, _ := runCLI(t, append([]string{"check"}, hostileServer(t, hostiletest.ModeNormal)...)...)
	if code != exitOK || strings.Contains(out, "not-json-rpc") {
		t.Errorf("a clean server: exit %d\n%s", code, out)
	}
}

// reportFinding is one finding line of a report: "- ❌ **check** (…): …".
var reportFinding = regexp.MustCompile(`(?m)^- (❌|⚠️|ℹ️) \*\*([^*]+)\*\* `)

// Check's findings are events: --record and --ndjson carry each, and the
// report of check's record says the same findings check said, no fewer and
// no more.
func TestCheckFindingsReachTheRecordAndTheReport(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{hostiletest.ModeGarbage, hostiletest.ModeListChangedWalk, hostiletest.ModeTaskRequired} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			record := filepath.Join(t.TempDir(), "check.jsonl")
			code, doc := checkJSON(t, append([]string{"--record", record}, hostileServer(t, mode)...)...)
			if code != exitCheck || len(doc.Findings) == 0 {
				t.Fatalf("exit %d with %d findings, want %d with some", code, len(doc.Findings), exitCheck)
			}
			mark := map[string]string{"error": "❌", "warning": "⚠️", "info": "ℹ️"}
			var said []string
			for _, f := range doc.Findings {
				said = append(said, mark[string(f.Severity)]+" "+f.Check)
			}
			code, out, stderr := runCLI(t, "report", record)
			if code != exitOK {
				t.Fatalf("report: exit %d: %s", code, stderr)
			}
			var reported []string
			for _, m := range reportFinding.FindAllStringSubmatch(out, -1) {
				reported = append(reported, m[1]+" "+m[2])
			}
			slices.Sort(said)
			slices.Sort(reported)
			if !slices.Equal(said, reported) {
				t.Errorf("check said %q, its report %q:\n%s", said, reported, out)
			}

			code, out, _ = runCLI(t, append([]string{"check", "--ndjson"}, hostileServer(t, mode)...)...)
			var streamed int
			for sc := bufio.NewScanner(strings.NewReader(out)); sc.Scan(); {
				var ev struct{ Kind string }
				if json.Unmarshal(sc.Bytes(), &ev) == nil && ev.Kind == "finding" {
					streamed++
				}
			}
			if code != exitCheck || streamed != len(doc.Findings) {
				t.Errorf("--ndjson: exit %d with %d finding events, want %d with %d", code, streamed, exitCheck, len(doc.Findings))
			}
		})
	}
}

// A walk during which the server says the list changed is taken again, up
// to three times, and the output says how many walks it took: check warns
// when none held still, notes it when one did; --no-settle keeps the first.
func TestCheckSettlesItsWalks(t *testing.T) {
	t.Parallel()
	tests := []struct {
		mode     string
		flags    []string
		code     int
		walks    int
		settled  bool
		sev, say string
	}{
		{hostiletest.ModeListChangedWalk, nil, exitCheck, 3, false, "warning", "during each of 3 walks"},
		{hostiletest.ModeListChangedWalk, []string{"--no-settle"}, exitCheck, 1, false, "warning", "not walked again: --no-settle"},
		{hostiletest.ModeListChangedOnce, nil, exitOK, 2, true, "info", "it held still on walk 2"},
	}
	for _, tc := range tests {
		t.Run(tc.mode+strings.Join(tc.flags, ""), func(t *testing.T) {
			t.Parallel()
			code, doc := checkJSON(t, append(tc.flags, hostileServer(t, tc.mode)...)...)
			if code != tc.code {
				t.Errorf("exit %d, want %d", code, tc.code)
			}
			if l := doc.Walks["tools/list"]; l.Method != "tools/list" || l.WalksTaken != tc.walks || l.Settled != tc.settled {
				t.Errorf("tools/list %+v, want %d walks, settled %v", l, tc.walks, tc.settled)
			}
			if sev, msg := findingOf(t, doc, "list-changed"); sev != tc.sev || !strings.Contains(msg, tc.say) {
				t.Errorf("%s %q, want a %s saying %q", sev, msg, tc.sev, tc.say)
			}
		})
	}
}

// tools, resources and prompts settle their walks as check does, and say
// how many walks it took in the text and in --json.
func TestListsSettleTheirWalks(t *testing.T) {
	t.Parallel()
	tests := []struct {
		mode    string
		flags   []string
		walks   int
		settled bool
		text    string
	}{
		{hostiletest.ModeListChangedOnce, nil, 2, true, "settled on walk 2"},
		{hostiletest.ModeListChangedWalk, nil, 3, false, "not settled after 3 walks"},
		{hostiletest.ModeListChangedWalk, []string{"--no-settle"}, 1, false, ""},
		{hostiletest.ModeNormal, nil, 1, true, ""},
	}
	for _, tc := range tests {
		t.Run(tc.mode+strings.Join(tc.flags, ""), func(t *testing.T) {
			t.Parallel()
			server := append(tc.flags, hostileServer(t, tc.mode)...)
			_, out, stderr := runCLI(t, append([]string{"tools", "--json"}, server...)...)
			var doc struct{ Walk walkDoc }
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("%v: %s\n%s", err, out, stderr)
			}
			if doc.Walk.WalksTaken != tc.walks || doc.Walk.Settled != tc.settled {
				t.Errorf("tools --json walk %+v, want %d walks, settled %v", doc.Walk, tc.walks, tc.settled)
			}
			_, out, _ = runCLI(t, append([]string{"tools"}, server...)...)
			if tc.text != "" && !strings.Contains(out, tc.text) {
				t.Errorf("tools does not say %q:\n%s", tc.text, out)
			}
			if tc.text == "" && strings.Contains(out, "settled") {
				t.Errorf("tools speaks of settling:\n%s", out)
			}
		})
	}
}

// An optional method the server does not offer (resources/templates/list
// answered -32601) is a warning of check, not an unreachable server, and
// a note of resources, which lists what resources/list listed and exits 0.
func TestOptionalListNotOffered(t *testing.T) {
	t.Parallel()
	server := hostileServer(t, hostiletest.ModeNoTemplates)
	code, doc := checkJSON(t, server...)
	if code != exitCheck {
		t.Errorf("check: exit %d, want %d (a warning)", code, exitCheck)
	}
	if sev, msg := findingOf(t, doc, "not-offered"); sev != "warning" || !strings.Contains(msg, "resources/templates/list") {
		t.Errorf("check: %s %q", sev, msg)
	}
	for _, f := range doc.Findings {
		if f.Severity == "error" {
			t.Errorf("check: an error %+v", f)
		}
	}

	code, out, stderr := runCLI(t, append([]string{"resources", "--json"}, server...)...)
	var res resourcesDoc
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != exitOK {
		t.Fatalf("resources: exit %d, %v: %s\n%s", code, err, out, stderr)
	}
	if len(res.Resources) != 1 || len(res.Walks) != 2 || !res.Walks["resources/templates/list"].NotOffered || len(res.Findings) != 1 || res.Findings[0].Severity != "info" {
		t.Errorf("resources: %+v", res)
	}
	code, out, _ = runCLI(t, append([]string{"resources"}, server...)...)
	if code != exitOK || !strings.Contains(out, "resources/templates/list – not offered by the server") || !strings.Contains(out, "hostile://only") {
		t.Errorf("resources: exit %d\n%s", code, out)
	}
}
