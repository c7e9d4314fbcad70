package jsonscan

import (
	"encoding/json"
	"strings"
	"testing"
)

var validSeeds = []string{
	`{"a":[1,-0.5e+3,true,false,null,"s\"\\\/\b\f\n\r\t\u00e3"],"b":{}}`, ` [ ] `, `"x"`, `0`, `-0`, `1E9`,
	"\"\xff\xfe\"", `{"a":1,}`, `[1,]`, `01`, `1.`, `.5`, `1e`, `-`, `+1`, `"\x"`, `"\u12g4"`, "\"a\tb\"",
	`tru`, `nul`, `{"a"}`, `{"a":}`, `{1:2}`, `[1 2]`, `{} {}`, `"`, ``, ` `, `[`, `{`, `}`, `]`,
	strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
	strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
	strings.Repeat(`{"a":`, 10000) + "1" + strings.Repeat("}", 10000),
	strings.Repeat(`{"a":`, 10001) + "1" + strings.Repeat("}", 10001),
}

// Valid says what encoding/json.Valid says, for every kind of mistake and
// at the nesting bound.
func TestValidAgreesWithEncodingJSON(t *testing.T) {
	for _, s := range append(validSeeds, texts...) {
		if got, want := Valid([]byte(s)), json.Valid([]byte(s)); got != want {
			t.Errorf("Valid(%.60q) = %v, encoding/json says %v", s, got, want)
		}
	}
}

func FuzzValid(f *testing.F) {
	for _, s := range append(validSeeds, texts...) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := Valid(b), json.Valid(b); got != want {
			t.Errorf("Valid(%q) = %v, encoding/json says %v", b, got, want)
		}
	})
}

// page is a list page of n tools as a server sends it.
func page(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"jsonrpc":"2.0","id":7,"result":{"tools":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"name":"tool","description":"Adds two numbers, a and b.","inputSchema":{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}}`)
	}
	b.WriteString(`],"nextCursor":"page-2"}}`)
	return []byte(b.String())
}

func BenchmarkValid(b *testing.B) {
	p := page(100)
	b.SetBytes(int64(len(p)))
	b.ReportAllocs()
	for b.Loop() {
		if !Valid(p) {
			b.Fatal("not valid")
		}
	}
}

func BenchmarkValidEncodingJSON(b *testing.B) {
	p := page(100)
	b.SetBytes(int64(len(p)))
	b.ReportAllocs()
	for b.Loop() {
		if !json.Valid(p) {
			b.Fatal("not valid")
		}
	}
}
