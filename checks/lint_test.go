package checks

import (
	"encoding/json"
	"testing"
)

func TestLintTool(t *testing.T) {
	tests := []struct {
		def  string
		want map[string]string // check → severity; nil means no findings
	}{
		{`{"name":"ok","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"n":{"type":"integer"}}}}`, nil},
		{`{"name":"bad name!","inputSchema":{"type":"object"}}`, map[string]string{"tool-name": "warning"}},
		{`{"inputSchema":{"type":"object"}}`, map[string]string{"tool-name": "error"}},
		{`{"name":"noin"}`, map[string]string{InputSchema: "error"}},
		{`{"name":"arr","inputSchema":{"type":"array"}}`, map[string]string{InputSchema: "warning"}},
		{`{"name":"ref","inputSchema":{"type":"object"},"outputSchema":{"type":"object","$ref":"#/$defs/nope"}}`, map[string]string{OutputSchema: "error"}},
		{`{"name":"broken","inputSchema":{"type":"object"},"outputSchema":{"type":12}}`, map[string]string{OutputSchema: "error"}},
		{`{"name":"task","inputSchema":{"type":"object"},"execution":{"taskSupport":"required"}}`, map[string]string{TaskSupport: "info"}},
		{`{"name":"odd","inputSchema":{"type":"object"},"execution":{"taskSupport":"sometimes"}}`, map[string]string{TaskSupport: "warning"}},
		{`[1,2]`, map[string]string{"definition": "error"}},
	}
	v := NewValidator()
	for _, tc := range tests {
		got := map[string]string{}
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
