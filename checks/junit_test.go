package checks_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"strings"
	"testing"

	"mcpwitness/checks"
	"mcpwitness/finding"
)

// parsedJUnit is what a CI system reads of a JUnit report.
type parsedJUnit struct {
	Tests    int `xml:"tests,attr"`
	Failures int `xml:"failures,attr"`
	Errors   int `xml:"errors,attr"`
	Suites   []struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Errors   int    `xml:"errors,attr"`
		Props    []struct {
			Name  string `xml:"name,attr"`
			Value string `xml:"value,attr"`
		} `xml:"properties>property"`
		Cases []struct {
			Name    string `xml:"name,attr"`
			Failure *struct {
				Message string `xml:"message,attr"`
				Text    string `xml:",chardata"`
			} `xml:"failure"`
			Error *struct {
				Message string `xml:"message,attr"`
				Text    string `xml:",chardata"`
			} `xml:"error"`
			SystemOut string `xml:"system-out"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func TestWriteJUnit(t *testing.T) {
	var b bytes.Buffer
	err := checks.WriteJUnit(&b, []checks.JUnitSuite{
		{Name: "demo", Properties: [][2]string{{"configHash", "abc"}}, Findings: []finding.Finding{
			{Check: "cursor-repeated", Severity: finding.SeverityError, Message: "tools/list: page 3 repeats a cursor"},
			{Check: "tool-name", Severity: finding.SeverityWarning, Message: "Tool name \"a b\x1b[31m\" should be …"},
			{Check: finding.TaskSupport, Severity: finding.SeverityInfo, Message: "Tool render requires task-based execution"},
		}},
		{Name: "broken", Err: errors.New("connecting to /no/such: no such file")},
	})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b.Bytes(), []byte("\x1b")) {
		t.Error("an escape sequence reached the XML")
	}
	var got parsedJUnit
	if err := xml.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatalf("not XML: %v\n%s", err, b.String())
	}
	if got.Tests != 6 || got.Failures != 2 || got.Errors != 1 || len(got.Suites) != 2 {
		t.Fatalf("totals %+v\n%s", got, b.String())
	}
	demo := got.Suites[0]
	if demo.Name != "demo" || demo.Tests != 5 || demo.Failures != 2 || len(demo.Props) != 1 || demo.Props[0].Value != "abc" {
		t.Errorf("demo suite %+v", demo)
	}
	byName := map[string]int{}
	for i, c := range demo.Cases {
		byName[c.Name] = i
	}
	walks, names, tasks, schemas := demo.Cases[byName[checks.CaseWalks]], demo.Cases[byName[checks.CaseNames]],
		demo.Cases[byName[checks.CaseTasks]], demo.Cases[byName[checks.CaseSchemas]]
	if walks.Failure == nil || !strings.Contains(walks.Failure.Message, "repeats a cursor") {
		t.Errorf("walks case %+v", walks)
	}
	if names.Failure == nil || !strings.Contains(names.Failure.Text, "tool-name") {
		t.Errorf("tool names case %+v", names)
	}
	if tasks.Failure != nil || !strings.Contains(tasks.SystemOut, "task-based") {
		t.Errorf("a note failed the task case: %+v", tasks)
	}
	if schemas.Failure != nil {
		t.Errorf("schemas failed with no finding: %+v", schemas)
	}
	broken := got.Suites[1]
	if broken.Errors != 1 || len(broken.Cases) != 1 || broken.Cases[0].Error == nil || !strings.Contains(broken.Cases[0].Error.Message, "no such file") {
		t.Errorf("broken suite %+v", broken)
	}
}

// A schema that contradicts itself is a schema finding in JUnit, with the
// other schema findings.
func TestJUnitCaseOfRequiredDefault(t *testing.T) {
	var b bytes.Buffer
	err := checks.WriteJUnit(&b, []checks.JUnitSuite{{Name: "pw", Findings: []finding.Finding{
		{Check: checks.RequiredDefault, Severity: finding.SeverityWarning, Message: "Tool t: /inputSchema/properties/n is required and has a default"},
	}}})
	var got parsedJUnit
	if err == nil {
		err = xml.Unmarshal(b.Bytes(), &got)
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range got.Suites[0].Cases {
		if failed := c.Failure != nil; failed != (c.Name == checks.CaseSchemas) {
			t.Errorf("case %q failed: %v\n%s", c.Name, failed, b.String())
		}
	}
}

// An error of several lines (a cause, then the server's stderr and a
// stack) is one line in the message attribute, the cause, and whole in
// the element's text; a broken config entry's case is named by ErrCase.
func TestWriteJUnitErrorMessageIsOneLine(t *testing.T) {
	var b bytes.Buffer
	err := checks.WriteJUnit(&b, []checks.JUnitSuite{
		{Name: "dead", Err: errors.New("the server exited (exit status 1)\nstderr:\n  Error: boom\x1b[2J\n    at main (/srv/x.js:1:1)")},
		{Name: "bad", ErrCase: "config", Err: errors.New(`server "bad" uses environment variables that are not set: TOKEN`)},
	})
	if err != nil {
		t.Fatal(err)
	}
	var got parsedJUnit
	if err := xml.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatalf("not XML: %v\n%s", err, b.String())
	}
	dead := got.Suites[0].Cases[0].Error
	if dead == nil || dead.Message != "the server exited (exit status 1)" || !strings.Contains(dead.Text, "\n    at main (/srv/x.js:1:1)") ||
		strings.Contains(dead.Text, "\x1b") {
		t.Errorf("dead server's error %+v\n%s", dead, b.String())
	}
	bad := got.Suites[1].Cases[0]
	if bad.Name != "config" || bad.Error == nil || !strings.Contains(bad.Error.Message, "TOKEN") {
		t.Errorf("broken entry's case %+v", bad)
	}
}
