package checks_test

import (
	"encoding/json"
	"strings"
	"testing"

	"mcpwitness/checks"
	"mcpwitness/finding"
)

// nested returns an object schema nesting "properties" n levels deep.
func nested(n int) json.RawMessage {
	return json.RawMessage(strings.Repeat(`{"type":"object","properties":{"a":`, n) + `{"type":"object"}` + strings.Repeat(`}}`, n))
}

func TestDepth(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int
	}{
		{`1`, 0},
		{`"{[{["`, 0},
		{`{"a":1}`, 1},
		{`{"a":[1,{"b":"]}"}]}`, 3},
		{`[[],[[]]]`, 3},
		{`{"a\"{":[]}`, 2},
	} {
		if got := checks.Depth([]byte(tt.in)); got != tt.want {
			t.Errorf("Depth(%s) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestCut(t *testing.T) {
	deep := `{"keep":"[{","a":` + strings.Repeat(`[`, 20000) + strings.Repeat(`]`, 20000) + `,"b":{"c":[1]}}`
	out, cuts, ok := checks.Cut([]byte(deep), 3)
	if !ok || cuts != 1 {
		t.Fatalf("Cut: ok %v, %d cuts", ok, cuts)
	}
	want := `{"keep":"[{","a":[["(cut by mcpwitness: nested deeper than 3 levels)"]],"b":{"c":[1]}}`
	if string(out) != want {
		t.Errorf("Cut = %s\nwant %s", out, want)
	}
	if _, _, ok := checks.Cut([]byte(`{"a":[}`), 3); ok {
		t.Error("Cut of unbalanced brackets reported ok")
	}
	if out, cuts, ok := checks.Cut([]byte(`{"a":[1]}`), 3); !ok || cuts != 0 || string(out) != `{"a":[1]}` {
		t.Errorf("Cut of a shallow value changed it: %s %d %v", out, cuts, ok)
	}
}

// A schema nested too deep is never compiled: the verdict is unchecked and
// lint says why, whatever the depth (2,000 levels took 1.5 GB to compile).
func TestDeepSchemaIsUnchecked(t *testing.T) {
	v := checks.NewValidator()
	for _, n := range []int{checks.MaxSchemaDepth, 300} {
		schema := nested(n)
		_, err := v.Validate(schema, json.RawMessage(`{}`))
		u, ok := err.(*checks.UncheckedError)
		if !ok || !strings.Contains(u.Reason, "nested deeper than 64 levels") {
			t.Errorf("depth %d: Validate error %v, want unchecked for depth", n, err)
		}
		def, _ := json.Marshal(map[string]any{"name": "deep", "inputSchema": map[string]any{"type": "object"}, "outputSchema": schema})
		vs := v.After("deep", def, json.RawMessage(`{"content":[],"structuredContent":{}}`))
		if vs[1].Check != finding.OutputSchema || vs[1].Status != finding.Unchecked {
			t.Errorf("depth %d: output-schema verdict %+v", n, vs[1])
		}
		fs := v.LintTool(def)
		if len(fs) != 1 || fs[0].Check != finding.OutputSchema || !strings.Contains(fs[0].Message, "nested deeper than 64 levels") {
			t.Errorf("depth %d: lint %+v", n, fs)
		}
	}
	// Just under the bound still compiles and validates.
	if errs, err := v.Validate(nested(checks.MaxSchemaDepth/2-1), json.RawMessage(`{"a":{"a":1}}`)); err != nil || len(errs) != 1 {
		t.Errorf("a schema within the bound: %v %v", errs, err)
	}
}
