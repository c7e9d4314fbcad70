package main

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestIndentJSONIsJSONIndent: what indentJSON writes equals json.Indent's
// output byte for byte, for compact JSON (the fast pass) and for JSON with
// space in it (handed to json.Indent).
func TestIndentJSONIsJSONIndent(t *testing.T) {
	t.Parallel()
	for _, src := range []string{
		`{}`, `[]`, `{"a":{}}`, `{"a":[]}`, `[[],{},[{}]]`, `"x"`, `5`, `null`,
		`{"name":"a,b:{c}[d]","n":-1.5e3,"t":true,"f":false,"z":null}`,
		`{"esc":"q\"uote\\\\","u":"\u2028<>&","nested":{"a":[1,2,{"b":[]}]}}`,
		`[{"name":"x","inputSchema":{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}}]`,
		`{"a": 1, "b": [1, 2]}`, " \n{\"a\":1}", "{\"a\":\t[]}",
	} {
		for _, prefix := range []string{"", "    "} {
			var want, got bytes.Buffer
			if err := json.Indent(&want, []byte(src), prefix, "  "); err != nil {
				t.Fatalf("%s: %v", src, err)
			}
			got.WriteString("head ")
			want2 := "head " + want.String()
			if err := indentJSON(&got, []byte(src), prefix, "  "); err != nil {
				t.Fatalf("%s: %v", src, err)
			}
			if got.String() != want2 {
				t.Errorf("indentJSON(%s, %q):\n%s\nwant\n%s", src, prefix, got.String(), want2)
			}
		}
	}
}
