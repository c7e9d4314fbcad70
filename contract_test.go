package main

import (
	"encoding/json"
	"strings"
	"testing"

	"mcpwitness/internal/hostiletest"
)

// An unknown tool is told apart from a connection failure: a complete
// listing does not have it, nothing is sent, exit 2 with code not-found.
func TestCallUnknownToolIsNotFound(t *testing.T) {
	t.Parallel()
	code, out, stderr := runCLI(t, "call", "--json", "nosuchtool")
	if code != exitUsage {
		t.Fatalf("exit %d, want %d: %s", code, exitUsage, stderr)
	}
	doc := decodeStrict(t, out)
	e := documentError(doc)
	if doc["kind"] != "error" || doc["command"] != "call" || e["code"] != "not-found" || e["exitCode"] != float64(exitUsage) ||
		!strings.Contains(e["message"].(string), `tool "nosuchtool" is not listed`) {
		t.Errorf("document %s", out)
	}
	// Nothing went to the server.
	_, out, _ = runCLI(t, "call", "--ndjson", "nosuchtool")
	if strings.Contains(out, `"method":"tools/call"`) {
		t.Errorf("tools/call was sent for a tool no page listed")
	}
}

// A bad value gives the same exit whether it came as k=v or in --args:
// the input check refuses it before sending (exit 3), and says why.
func TestBadArgumentValueIsOneCondition(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"call", "--json", "add", "a=x", "b=1"},
		{"call", "--json", "add", "--args", `{"a":"x","b":1}`},
	} {
		code, out, stderr := runCLI(t, args...)
		if code != exitCheck {
			t.Errorf("%v: exit %d, want %d: %s", args, code, exitCheck, stderr)
			continue
		}
		var doc callDoc
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
		if doc.Sent || verdictOf(doc, "input-schema") != "fail" {
			t.Errorf("%v: sent %v, verdicts %+v; want the input check to refuse it", args, doc.Sent, doc.Verdicts)
		}
	}
}

func verdictOf(doc callDoc, check string) string {
	for _, v := range doc.Verdicts {
		if v.Check == check {
			return string(v.Status)
		}
	}
	return ""
}

// tasks against a server that does not declare tasks asks nothing and says
// so, exit 0, as prompts does.
func TestTasksUndeclaredIsNotAsked(t *testing.T) {
	t.Parallel()
	server := []string{"--", hostiletest.Build(t), "-mode", hostiletest.ModeNormal}
	code, out, stderr := runCLI(t, append([]string{"tasks", "--json"}, server...)...)
	if code != exitOK {
		t.Fatalf("exit %d, want 0: %s", code, stderr)
	}
	var doc tasksDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Walk != nil || len(doc.Findings) != 1 || !strings.Contains(doc.Findings[0].Message, "does not declare tasks") {
		t.Errorf("walk %+v, findings %+v; want no walk and a finding saying tasks are not declared", doc.Walk, doc.Findings)
	}
	_, out, _ = runCLI(t, append([]string{"tasks", "--ndjson"}, server...)...)
	if strings.Contains(out, `"tasks/list"`) {
		t.Error("tasks/list was sent to a server that does not declare tasks")
	}
	code, out, _ = runCLI(t, append([]string{"tasks"}, server...)...)
	if code != exitOK || strings.Contains(out, "TASK") || !strings.Contains(out, "the server does not declare tasks; nothing was listed") {
		t.Errorf("exit %d, human output:\n%s", code, out)
	}
}

// A request that ran out of time was cancelled, as its message says: the
// document's cancelled flag agrees.
func TestCancelledAgreesWithTheMessage(t *testing.T) {
	t.Parallel()
	server := []string{"--", hostiletest.Build(t), "-mode", hostiletest.ModeHangCall}
	code, out, stderr := runCLI(t, append([]string{"call", "--json", "tool_1_1", "--timeout", "3s"}, server...)...)
	if code != exitConnect {
		t.Fatalf("exit %d, want %d: %s", code, exitConnect, stderr)
	}
	var doc callDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Error == nil || !strings.Contains(doc.Error.Message, "cancelled") {
		t.Fatalf("error %+v, want it to say the request was cancelled", doc.Error)
	}
	if !doc.Error.Cancelled || doc.Error.Code != codeTimeout {
		t.Errorf("error %+v: cancelled %v, code %s; want true and timeout", doc.Error, doc.Error.Cancelled, doc.Error.Code)
	}
}

// diff --json that fails prints the error document, not nothing.
func TestDiffJSONErrorDocument(t *testing.T) {
	t.Parallel()
	code, out, _ := runCLI(t, "diff", "--json", "/nonexistent/a.jsonl", "/nonexistent/b.jsonl")
	doc := decodeStrict(t, out)
	e := documentError(doc)
	if code != exitConnect || doc["kind"] != "error" || e["code"] != "io" || e["exitCode"] != float64(code) {
		t.Errorf("exit %d, document %s", code, out)
	}
}
