package checks

import (
	"encoding/json"
	"mcpwitness/finding"
	"strings"
	"testing"
)

func TestElicitProperties(t *testing.T) {
	for _, tc := range []struct {
		name, schema string
		status       finding.Status
		path, says   string
		props        int
	}{
		{"flat", `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer","default":1},"c":{"type":"boolean"}}}`, finding.Pass, "", "", 3},
		{"multi-select enum", `{"type":"object","properties":{"tags":{"type":"array","items":{"type":"string","enum":["x","y"]}}}}`, finding.Pass, "", "", 1},
		{"nested object", `{"type":"object","properties":{"where":{"type":"object","properties":{"city":{"type":"string"}}}}}`, finding.Fail,
			"/properties/where/type", `property "where" has type "object", not a primitive`, 1},
		{"no type", `{"type":"object","properties":{"a":{"description":"?"}}}`, finding.Fail, "/properties/a", `property "a" has no type`, 1},
		{"not an object schema", `{"type":"array"}`, finding.Fail, "/type", `its type is "array", not "object"`, 0},
		{"not JSON object", `[1]`, finding.Fail, "", "it is not a JSON object", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			props, v := ElicitProperties(json.RawMessage(tc.schema))
			if v.Check != ElicitSchema || v.Status != tc.status || len(props) != tc.props {
				t.Fatalf("got %s %s %q with %d properties, want %s with %d", v.Check, v.Status, v.Message, len(props), tc.status, tc.props)
			}
			if tc.status == finding.Fail && (len(v.Errors) == 0 || v.Errors[0].InstancePath != tc.path || !strings.Contains(v.Errors[0].Message, tc.says)) {
				t.Errorf("errors %+v, want the first at %q saying %q", v.Errors, tc.path, tc.says)
			}
		})
	}
}

func TestSamplingRequest(t *testing.T) {
	for params, want := range map[string]finding.Status{
		`{"maxTokens":100,"messages":[]}`: finding.Pass,
		`{"messages":[]}`:                 finding.Fail,
		`{"maxTokens":0}`:                 finding.Fail,
	} {
		if v := SamplingRequest(json.RawMessage(params)); v.Check != SamplingMaxTokens || v.Status != want {
			t.Errorf("%s: got %s %q, want %s", params, v.Status, v.Message, want)
		}
	}
}
