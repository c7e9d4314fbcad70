package checks

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"time"

	"mcpwitness/finding"
	"mcpwitness/sanitize"
)

// A JUnit report groups a server's lint findings into one test case per
// kind of check, so that a CI system shows each as passed or failed.
const (
	CaseWalks   = "walks"            // every list walked whole, cursor health
	CaseNames   = "tool names"       // tool names and definitions
	CaseSchemas = "schemas"          // input and output schemas
	CaseTasks   = "task eligibility" // execution.taskSupport
	CaseText    = "text safety"      // control characters, bidi, zero-width
)

// JUnitCases are the test cases of every JUnit suite, in order.
func JUnitCases() []string { return []string{CaseWalks, CaseNames, CaseSchemas, CaseTasks, CaseText} }

// caseOf is the test case a finding of check belongs to: findings of
// the walks (the walk itself and its cursor findings) are all the checks
// not named here.
func caseOf(check string) string {
	switch check {
	case "tool-name", "definition":
		return CaseNames
	case finding.InputSchema, finding.OutputSchema, RequiredDefault:
		return CaseSchemas
	case finding.TaskSupport:
		return CaseTasks
	case UnsafeText:
		return CaseText
	}
	return CaseWalks
}

// JUnitSuite is one server of a JUnit report: its name, its findings, or
// the error that kept it from being checked.
type JUnitSuite struct {
	Name string
	// Properties are shown with the suite, such as the config hash.
	Properties [][2]string
	Findings   []finding.Finding
	// Err, when set, is why the server could not be checked: the suite has
	// one test case, ErrCase ("connect" when empty), in error, whose
	// message is Err's first line (the cause) and whose text is all of it
	// (the server's stderr, a stack).
	Err      error
	ErrCase  string
	Duration time.Duration
}

// WriteJUnit writes suites as JUnit XML: one testsuite per server, one
// testcase per kind of check (see [JUnitCases]). A case with errors or
// warnings fails, its message counting them and its text listing them;
// notes (info findings) go to the case's system-out.
func WriteJUnit(w io.Writer, suites []JUnitSuite) error {
	doc := junitSuites{Name: "mcpwitness check"}
	for _, s := range suites {
		js := s.xml()
		doc.Tests += js.Tests
		doc.Failures += js.Failures
		doc.Errors += js.Errors
		doc.Suites = append(doc.Suites, js)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("writing JUnit XML: %w", err)
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func (s JUnitSuite) xml() junitSuite {
	js := junitSuite{Name: sanitize.Line(s.Name), Time: seconds(s.Duration)}
	for _, p := range s.Properties {
		js.Properties = append(js.Properties, junitProperty{Name: p[0], Value: p[1]})
	}
	if s.Err != nil {
		name := s.ErrCase
		if name == "" {
			name = "connect"
		}
		text := sanitize.Text(s.Err.Error())
		first, _, _ := strings.Cut(text, "\n")
		js.Tests, js.Errors = 1, 1
		js.Cases = []junitCase{{Name: name, Classname: js.Name,
			Error: &junitFailure{Message: first, Type: name, Text: text}}}
		return js
	}
	for _, name := range JUnitCases() {
		c := junitCase{Name: name, Classname: js.Name}
		var failed, notes []string
		for _, f := range s.Findings {
			if caseOf(f.Check) != name {
				continue
			}
			line := fmt.Sprintf("%s %s: %s", f.Severity, f.Check, sanitize.Line(f.Message))
			if f.Severity == finding.SeverityInfo {
				notes = append(notes, line)
			} else {
				failed = append(failed, line)
			}
		}
		if len(failed) > 0 {
			js.Failures++
			c.Failure = &junitFailure{Message: failureMessage(failed), Type: "lint", Text: strings.Join(failed, "\n")}
		}
		if len(notes) > 0 {
			c.SystemOut = strings.Join(notes, "\n")
		}
		js.Tests++
		js.Cases = append(js.Cases, c)
	}
	return js
}

// failureMessage is a case's one-line failure: the count, and the first
// finding.
func failureMessage(lines []string) string {
	n := "1 finding"
	if len(lines) > 1 {
		n = fmt.Sprintf("%d findings", len(lines))
	}
	return n + ": " + lines[0]
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Time       string          `xml:"time,attr"`
	Properties []junitProperty `xml:"properties>property,omitempty"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	Error     *junitFailure `xml:"error,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}
