package checks

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"mcpwitness/finding"
)

func TestLintTool(t *testing.T) {
	tests := []struct {
		def  string
		want map[string]finding.Severity // check → severity; nil means no findings
	}{
		{`{"name":"ok","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"n":{"type":"integer"}}}}`, nil},
		{`{"name":"bad name!","inputSchema":{"type":"object"}}`, map[string]finding.Severity{"tool-name": "warning"}},
		{`{"inputSchema":{"type":"object"}}`, map[string]finding.Severity{"tool-name": "error"}},
		{`{"name":"noin"}`, map[string]finding.Severity{finding.InputSchema: "error"}},
		{`{"name":"arr","inputSchema":{"type":"array"}}`, map[string]finding.Severity{finding.InputSchema: "warning"}},
		{`{"name":"ref","inputSchema":{"type":"object"},"outputSchema":{"type":"object","$ref":"#/$defs/nope"}}`, map[string]finding.Severity{finding.OutputSchema: "error"}},
		{`{"name":"broken","inputSchema":{"type":"object"},"outputSchema":{"type":12}}`, map[string]finding.Severity{finding.OutputSchema: "error"}},
		{`{"name":"task","inputSchema":{"type":"object"},"execution":{"taskSupport":"required"}}`, map[string]finding.Severity{finding.TaskSupport: "info"}},
		{`{"name":"odd","inputSchema":{"type":"object"},"execution":{"taskSupport":"sometimes"}}`, map[string]finding.Severity{finding.TaskSupport: "warning"}},
		{`[1,2]`, map[string]finding.Severity{"definition": "error"}},
		{`{"name":5,"inputSchema":{"type":"object"}}`, map[string]finding.Severity{"definition": "error"}},
		// A client reading the list into typed structs fails on the whole page.
		{`{"name":"desc","description":["a"],"inputSchema":{"type":"object"}}`, map[string]finding.Severity{"definition": "error"}},
		// Required with a default: refused before sending, accepted by the server.
		{`{"name":"dflt","inputSchema":{"type":"object","properties":{"n":{"type":"integer","default":3}},"required":["n"]}}`, map[string]finding.Severity{RequiredDefault: "warning"}},
		{`{"name":"optdflt","inputSchema":{"type":"object","properties":{"n":{"type":"integer","default":3}}}}`, nil},
		{`{"name":"outarr","inputSchema":{"type":"object"},"outputSchema":{"type":"array"}}`, map[string]finding.Severity{finding.OutputSchema: "warning"}},
	}
	v := NewValidator()
	for _, tc := range tests {
		got := map[string]finding.Severity{}
		for _, f := range v.LintTool(json.RawMessage(tc.def)) {
			got[f.Check] = f.Severity
			if f.Message == "" {
				t.Errorf("%s: finding %s without a message", tc.def, f.Check)
			}
		}
		if len(got) != len(tc.want) {
			t.Errorf("%s: findings %v, want %v", tc.def, got, tc.want)
			continue
		}
		for check, sev := range tc.want {
			if got[check] != sev {
				t.Errorf("%s: %s = %q, want %q", tc.def, check, got[check], sev)
			}
		}
	}
}

func TestWellFormedToolNameIsTheSpecificationsShape(t *testing.T) {
	shape := regexp.MustCompile(`^[A-Za-z0-9_.-]{1,128}$`)
	for _, name := range []string{"", "a", "get_weather", "a.b-c_D9", "bad name!", "é", "a/b", "x\x00", strings.Repeat("a", 128), strings.Repeat("a", 129), "tab\t"} {
		if got, want := wellFormedToolName(name), shape.MatchString(name); got != want {
			t.Errorf("%q: %v, the specification's shape says %v", name, got, want)
		}
	}
}

// Each revision's own rule: before 2026-07-28 an outputSchema must describe
// an object; from it any JSON Schema 2020-12 will do. An inputSchema must
// describe an object in every revision.
func TestLintToolFollowsTheRevision(t *testing.T) {
	v := NewValidator()
	tests := []struct {
		def, protocol string
		want          []string // the checks found
	}{
		{`{"name":"a","inputSchema":{"type":"object"},"outputSchema":{"type":"array","items":{"type":"string"}}}`, "2025-11-25", []string{finding.OutputSchema}},
		{`{"name":"a","inputSchema":{"type":"object"},"outputSchema":{"type":"array","items":{"type":"string"}}}`, "", []string{finding.OutputSchema}},
		{`{"name":"a","inputSchema":{"type":"object"},"outputSchema":{"type":"array","items":{"type":"string"}}}`, "2026-07-28", nil},
		{`{"name":"a","inputSchema":{"type":"object"},"outputSchema":{"type":"string"}}`, "2026-07-28", nil},
		{`{"name":"a","inputSchema":{"type":"array"}}`, "2026-07-28", []string{finding.InputSchema}},
		// A schema that does not compile is an error in every revision.
		{`{"name":"a","inputSchema":{"type":"object"},"outputSchema":{"type":12}}`, "2026-07-28", []string{finding.OutputSchema}},
	}
	for _, tc := range tests {
		var got []string
		for _, f := range v.LintToolAt(json.RawMessage(tc.def), tc.protocol) {
			got = append(got, f.Check)
		}
		if strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("%s on %q: %v, want %v", tc.def, tc.protocol, got, tc.want)
		}
	}
}

// A required property with a default is named by its JSON pointer, nested
// ones too, escaped as RFC 6901 asks.
func TestLintToolNamesRequiredDefaultsByPointer(t *testing.T) {
	def := `{"name":"pw","inputSchema":{"type":"object","required":["a/b","opts"],"properties":{
		"a/b":{"type":"string","default":"x"},
		"opts":{"type":"object","required":["depth"],"properties":{"depth":{"type":"integer","default":1}}}}}}`
	var got []string
	for _, f := range NewValidator().LintTool(json.RawMessage(def)) {
		if f.Check != RequiredDefault || f.Severity != finding.SeverityWarning {
			t.Errorf("unexpected finding %+v", f)
			continue
		}
		got = append(got, f.Message)
	}
	want := []string{"/inputSchema/properties/a~1b", "/inputSchema/properties/opts/properties/depth"}
	if len(got) != len(want) {
		t.Fatalf("findings %q, want %d naming %v", got, len(want), want)
	}
	for i, ptr := range want {
		if !strings.Contains(got[i], ptr+" is required and has a default") {
			t.Errorf("finding %q does not name %s", got[i], ptr)
		}
	}
}
