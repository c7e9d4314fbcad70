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
		{`{"name":"noin"}`, map[string]finding.Severity{InputSchema: "error"}},
		{`{"name":"arr","inputSchema":{"type":"array"}}`, map[string]finding.Severity{InputSchema: "warning"}},
		{`{"name":"ref","inputSchema":{"type":"object"},"outputSchema":{"type":"object","$ref":"#/$defs/nope"}}`, map[string]finding.Severity{OutputSchema: "error"}},
		{`{"name":"broken","inputSchema":{"type":"object"},"outputSchema":{"type":12}}`, map[string]finding.Severity{OutputSchema: "error"}},
		{`{"name":"task","inputSchema":{"type":"object"},"execution":{"taskSupport":"required"}}`, map[string]finding.Severity{TaskSupport: "info"}},
		{`{"name":"odd","inputSchema":{"type":"object"},"execution":{"taskSupport":"sometimes"}}`, map[string]finding.Severity{TaskSupport: "warning"}},
		{`[1,2]`, map[string]finding.Severity{"definition": "error"}},
		{`{"name":5,"inputSchema":{"type":"object"}}`, map[string]finding.Severity{"definition": "error"}},
		// A client reading the list into typed structs fails on the whole page.
		{`{"name":"desc","description":["a"],"inputSchema":{"type":"object"}}`, map[string]finding.Severity{"definition": "error"}},
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
