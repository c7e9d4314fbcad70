package tooldef_test

import (
	"testing"

	"mcpwitness/tooldef"
)

// Coerce reads text for each schema type by one set of rules, for the
// command line's k=v and the call editor's fields alike.
func TestCoerce(t *testing.T) {
	for _, c := range []struct {
		typ, text, want string
		bad             bool
	}{
		{"string", "7", `"7"`, false},
		{"string", " a b ", `" a b "`, false},
		{"integer", "3", `3`, false},
		{"integer", " 42 ", `42`, false},
		{"integer", "+5", `5`, false},
		{"integer", "007", `7`, false},
		{"integer", "1e3", `1e3`, false},
		{"integer", "20000000000000000000", `20000000000000000000`, false},
		{"integer", "3.5", `"3.5"`, true},
		{"integer", "many", `"many"`, true},
		{"number", "2.5", `2.5`, false},
		{"number", "1.5e3", `1.5e3`, false},
		{"number", "0.1000000000000000055511151231257827", `0.1000000000000000055511151231257827`, false},
		{"number", "007", `7`, false},
		{"number", ".5", `0.5`, false},
		{"number", "NaN", `"NaN"`, true},
		{"number", "-Infinity", `"-Infinity"`, true},
		{"number", "1e400", `"1e400"`, true},
		{"number", "many", `"many"`, true},
		{"boolean", "true", `true`, false},
		{"boolean", " F ", `false`, false},
		{"boolean", "maybe", `"maybe"`, true},
		{"object", `{"k":1}`, `{"k":1}`, false},
		{"array", `[1`, `"[1"`, true},
		{"", `[1]`, `[1]`, false},
		{"", `12`, `12`, false},
		{"", `hello`, `"hello"`, false},
	} {
		got, err := tooldef.Coerce(c.typ, c.text)
		if string(got) != c.want || (err != nil) != c.bad {
			t.Errorf("Coerce(%q, %q) = %s, %v; want %s, error %v", c.typ, c.text, got, err, c.want, c.bad)
		}
	}
}
