package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mcpwitness/internal/hostiletest"
	"mcpwitness/sanitize"
)

// check flags what model-facing text hides: a tool description whose tag
// characters spell an instruction (quoted decoded), a tool name holding a
// zero-width space, a prompt argument with a soft hyphen and instructions
// with a filler; emoji sequences pass. It exits 3, and the finding reaches
// the text, --json and --junit alike.
func TestCheckFindsHiddenText(t *testing.T) {
	t.Parallel()
	server := []string{"--", hostiletest.Build(t), "-mode", hostiletest.ModeHidden}
	junit := filepath.Join(t.TempDir(), "check.xml")
	code, out, stderr := runCLI(t, append([]string{"check", "--junit", junit}, server...)...)
	if code != exitCheck {
		t.Fatalf("exit %d, want %d: %s\n%s", code, exitCheck, stderr, out)
	}
	quoted := `hidden text: "` + hostiletest.HiddenInstruction + `"`
	for _, want := range []string{
		`tool "read_file" description holds 75 tag characters; ` + quoted,
		`tool "get\u200buser" name holds 1 zero-width character`,
		`prompt "summarize" argument "text" description holds 1 format character`,
		`server "hostile-hidden" instructions hold 1 filler`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the output does not say %s:\n%s", want, out)
		}
	}
	if strings.Contains(out, `"family"`) {
		t.Errorf("emoji sequences flagged:\n%s", out)
	}
	if f := sanitize.Scan(out, true); f.Any() {
		t.Errorf("the output holds %s:\n%q", f, out)
	}
	xml, err := os.ReadFile(junit)
	if err != nil || !strings.Contains(string(xml), `hidden text: &#34;`+hostiletest.HiddenInstruction+`&#34;`) {
		t.Errorf("the JUnit report (%v) does not quote the hidden text:\n%s", err, xml)
	}

	code, out, _ = runCLI(t, append([]string{"check", "--json"}, server...)...)
	var report struct {
		Servers []struct {
			Findings []struct{ Check, Severity, Message string }
		}
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil || code != exitCheck || len(report.Servers) != 1 {
		t.Fatalf("exit %d, %v: %s", code, err, out)
	}
	doc := report.Servers[0]
	errs := 0
	for _, f := range doc.Findings {
		if f.Check == "unsafe-text" && f.Severity == "error" {
			errs++
		}
	}
	if errs != 2 {
		t.Errorf("--json has %d unsafe-text errors, want 2 (the tags, the name): %+v", errs, doc.Findings)
	}
}

// tools --json writes every character the sanitiser would show escaped as
// a \u escape (tag characters as surrogate pairs), so that the document
// holds no raw hidden character, and decodes to exactly what was sent.
func TestJSONEscapesHiddenCharacters(t *testing.T) {
	t.Parallel()
	server := []string{"--", hostiletest.Build(t), "-mode", hostiletest.ModeHidden}
	code, out, stderr := runCLI(t, append([]string{"tools", "--json"}, server...)...)
	if code != exitOK {
		t.Fatalf("exit %d: %s\n%s", code, stderr, out)
	}
	if f := sanitize.Scan(out, true); f.Any() {
		t.Errorf("the document holds %s raw", f)
	}
	if !strings.Contains(out, `\udb40\udc49`) {
		t.Errorf("the tag characters are not written as surrogate pairs")
	}
	var doc struct {
		Tools []struct {
			Name       string
			Definition struct{ Description string }
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, tool := range doc.Tools {
		if tool.Name == "read_file" {
			found = strings.Contains(strings.Join(sanitize.HiddenText(tool.Definition.Description), ""), hostiletest.HiddenInstruction)
		}
	}
	if !found {
		t.Errorf("read_file's description does not decode to its hidden text")
	}
}
