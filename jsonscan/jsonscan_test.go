package jsonscan

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// texts are valid JSON of every shape the scanner meets: space anywhere,
// escapes in names and strings, brackets inside strings, duplicate names,
// nesting, every literal, text outside ASCII and invalid UTF-8.
var texts = []string{
	`{"tools":[{"name":"a"},{"name":"b"}],"nextCursor":"c1"}`,
	" { \"tools\" : [ {\"name\" : \"a\"} , 7 , \"s\" , null , [1,[2]] , true ] ,\n\"ttlMs\": 5 } ",
	`{"tools":[{"name":"first"}],"tools":[{"name":"last"}]}`,
	`{"t\u006fols":[{"name":"escaped key"}],"nextCursor":"a\"b"}`,
	`{"other":{"tools":[1]},"tools":[],"x":"}]\"[","y":"\\"}`,
	`{"a":-1.5e+3,"b":false,"c":null,"d":"ã\u00e3","e":"\ud83d\ude00"}`,
	"{\"bad\xffutf8\":\"x\xfey\"}",
	`{}`, `[]`, `[ ]`, `{ }`, `"s"`, `12`, `null`,
	`[{"a":[{"b":{}}]},"]",["[",{}],-0,1e9]`,
	`{"jsonrpc":"2.0","id":7,"result":{"tools":[],"nextCursor":"n"}}`,
}

// Members and Member find what decoding into a map finds, and Elements
// what decoding into a slice of raw values finds, byte for byte.
func TestScanReadsAsDecoding(t *testing.T) {
	for _, text := range texts {
		checkAgainstDecoding(t, []byte(text))
	}
}

func FuzzScanReadsAsDecoding(f *testing.F) {
	for _, text := range texts {
		f.Add([]byte(text))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !json.Valid(b) {
			// Not valid JSON: no promise but no panic and no loop.
			Members(b, func(rawKey, val []byte) bool { KeyIs(rawKey, "x"); String(val); return true })
			Elements(b, func([]byte) bool { return true })
			return
		}
		checkAgainstDecoding(t, b)
	})
}

func checkAgainstDecoding(t *testing.T, b []byte) {
	t.Helper()
	var obj map[string]json.RawMessage
	isObject := json.Unmarshal(b, &obj) == nil && obj != nil
	got := map[string]json.RawMessage{}
	ok := Members(b, func(rawKey, val []byte) bool {
		name, ok := String(rawKey)
		if !ok {
			t.Errorf("%q: name %s does not read", b, rawKey)
			return false
		}
		if match, ok := KeyIs(rawKey, name); !match || !ok {
			t.Errorf("%q: KeyIs(%s, %q) = %v, %v", b, rawKey, name, match, ok)
		}
		got[name] = val
		return true
	})
	if ok != isObject {
		t.Errorf("%q: Members reports %v, decoding an object %v", b, ok, isObject)
	}
	if isObject {
		if diff := cmp.Diff(obj, got); diff != "" {
			t.Errorf("%q: members (-decoded +scanned):\n%s", b, diff)
		}
		for name, want := range obj {
			if val, ok := Member(b, name); !ok || !bytes.Equal(val, want) {
				t.Errorf("%q: Member(%q) = %s, %v; want %s", b, name, val, ok, want)
			}
			var s string
			if want[0] == '"' && json.Unmarshal(want, &s) == nil {
				if got, ok := String(want); !ok || got != s {
					t.Errorf("%q: String(%s) = %q, %v; want %q", b, want, got, ok, s)
				}
			} else if _, ok := String(want); ok {
				t.Errorf("%q: String(%s) read a value that is not a string", b, want)
			}
		}
		if _, ok := Member(b, "\x00absent"); ok {
			t.Errorf("%q: found a member it does not have", b)
		}
	}
	var arr []json.RawMessage
	isArray := json.Unmarshal(b, &arr) == nil && arr != nil
	var elems []json.RawMessage
	ok = Elements(b, func(val []byte) bool {
		if cap(val) != len(val) {
			t.Errorf("%q: element %s may be appended to over the text", b, val)
		}
		elems = append(elems, val)
		return true
	})
	if ok != isArray {
		t.Errorf("%q: Elements reports %v, decoding an array %v", b, ok, isArray)
	}
	if isArray && !cmp.Equal(append([]json.RawMessage{}, elems...), arr) {
		t.Errorf("%q: elements %q, want %q", b, elems, arr)
	}
}

// A callback that returns false stops the scan, which reports it.
func TestScanStops(t *testing.T) {
	n := 0
	if Members([]byte(`{"a":1,"b":2}`), func(_, _ []byte) bool { n++; return false }) || n != 1 {
		t.Errorf("Members went on after a false (%d calls)", n)
	}
	n = 0
	if Elements([]byte(`[1,2,3]`), func([]byte) bool { n++; return n < 2 }) || n != 2 {
		t.Errorf("Elements went on after a false (%d calls)", n)
	}
}

// Plain shares the text's bytes and takes only what decoding would give
// unchanged; String decodes the rest.
func TestPlainAndString(t *testing.T) {
	for _, c := range []struct {
		raw         string
		plain, str  string
		isPlain, ok bool
	}{
		{raw: `"abc"`, plain: "abc", str: "abc", isPlain: true, ok: true},
		{raw: `""`, isPlain: true, ok: true},
		{raw: `"a\"b"`, str: `a"b`, ok: true},
		{raw: `"\u00e3"`, str: "ã", ok: true},
		{raw: "\"\xff\"", str: "\ufffd", ok: true},
		{raw: `12`},
		{raw: `null`},
		{raw: `{"a":"b"}`},
		{raw: `"`},
		{raw: ``},
	} {
		p, isPlain := Plain([]byte(c.raw))
		s, ok := String([]byte(c.raw))
		if p != c.plain || isPlain != c.isPlain || s != c.str || ok != c.ok {
			t.Errorf("%s: Plain %q, %v; String %q, %v; want %q, %v; %q, %v",
				c.raw, p, isPlain, s, ok, c.plain, c.isPlain, c.str, c.ok)
		}
	}
	raw := []byte(`"shared"`)
	s, _ := Plain(raw)
	raw[1] = 'S'
	if s != "Shared" {
		t.Errorf("Plain copied the text: %q", s)
	}
}

// The skips find a value's end, and -1 where the text ends first.
func TestSkips(t *testing.T) {
	for _, c := range []struct {
		text string
		i    int
		want int
	}{
		{`"ab\"c" ,`, 0, 7},
		{`{"a":[1,"]"]} x`, 0, 13},
		{`true,`, 0, 4},
		{`-1.5e3}`, 0, 6},
		{`"open`, 0, -1},
		{`{"a":[`, 0, -1},
		{`,`, 0, -1},
		{`x`, 5, -1},
	} {
		if got := SkipValue([]byte(c.text), c.i); got != c.want {
			t.Errorf("SkipValue(%q, %d) = %d, want %d", c.text, c.i, got, c.want)
		}
	}
	if got := SkipSpace([]byte(" \t\r\n x"), 0); got != 5 {
		t.Errorf("SkipSpace stopped at %d, want 5", got)
	}
}

// Reading a page's members, its items and their plain strings allocates
// nothing: a 100,000-item list costs no copy of it.
func TestScanAllocatesNothing(t *testing.T) {
	page := []byte(`{"tools":[{"name":"a","description":"d"},{"name":"b"}],"nextCursor":"c"}`)
	allocs := testing.AllocsPerRun(100, func() {
		tools, _ := Member(page, "tools")
		Elements(tools, func(item []byte) bool {
			name, _ := Member(item, "name")
			String(name)
			return true
		})
	})
	if allocs != 0 {
		t.Errorf("scanning a page allocates %v times, want none", allocs)
	}
}

// Text that is not JSON is refused where the scan reads it: cut short,
// more after the value, a broken literal, a missing colon.
func TestScanRefusesWhatItReads(t *testing.T) {
	for _, text := range []string{
		`{"a":1} x`, `{"a":1}}`, `{"a":tru}`, `{"a":nul}`, `{"a":1x}`, `{"a":}`, `{"a" 1}`,
		`{"a":1`, `{"a":"open}`, `{"a":[1,2}`, `{a:1}`, `not json`, ``,
	} {
		if Members([]byte(text), func(_, _ []byte) bool { return true }) {
			t.Errorf("Members read %q as an object", text)
		}
	}
	for _, text := range []string{`[1] ]`, `[1,tru]`, `[1,`, `[`, `["a" "b"`} {
		if Elements([]byte(text), func([]byte) bool { return true }) {
			t.Errorf("Elements read %q as an array", text)
		}
	}
}

// Field matches a member's name to a struct field's as encoding/json does,
// and StringInto reads a string field as it does.
func TestFieldAndStringInto(t *testing.T) {
	var target struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	for _, c := range []struct{ raw, want string }{
		{`"id"`, "id"}, {`"ID"`, "id"}, {`"Method"`, "method"}, {`"m\u0065thod"`, "method"},
		{`"methods"`, ""}, {`"other"`, ""},
	} {
		if got := Field([]byte(c.raw), "id", "method"); got != c.want {
			t.Errorf("Field(%s) = %q, want %q", c.raw, got, c.want)
		}
		target.ID, target.Method = nil, ""
		obj := `{` + c.raw + `:"v"}`
		if err := json.Unmarshal([]byte(obj), &target); err != nil {
			t.Fatal(err)
		}
		if filled := target.ID != nil || target.Method != ""; filled != (c.want != "") {
			t.Errorf("%s: encoding/json fills a field: %v; Field says %q", obj, filled, c.want)
		}
	}
	s := "kept"
	if !StringInto([]byte(`null`), &s) || s != "kept" {
		t.Errorf("null: %q", s)
	}
	if !StringInto([]byte(`"a\nb"`), &s) || s != "a\nb" {
		t.Errorf("a string: %q", s)
	}
	if StringInto([]byte(`7`), &s) || s != "a\nb" {
		t.Errorf("a number was taken: %q", s)
	}
}
