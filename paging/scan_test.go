package paging

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The one-scan reading of a page finds what decoding it into a map and its
// items into a slice finds: the last of duplicate members, names written
// with escapes, space anywhere, items of every kind, each item the bytes
// the server wrote.
func TestPageScanReadsAsDecoding(t *testing.T) {
	for _, raw := range []string{
		`{"tools":[{"name":"a"},{"name":"b"}],"nextCursor":"c1"}`,
		" { \"tools\" : [ {\"name\" : \"a\"} , 7 , \"s\" , null , [1,[2]] , true ] ,\n\"ttlMs\": 5 } ",
		`{"tools":[{"name":"first"}],"tools":[{"name":"last"}]}`,
		`{"t\u006fols":[{"name":"escaped key"}],"nextCursor":"a\"b"}`,
		`{"other":{"tools":[1]},"tools":[],"x":"}]\"["}`,
		`{}`,
	} {
		fields, ok := pageFields([]byte(raw), "tools")
		if !ok {
			t.Errorf("%s: not scanned", raw)
			continue
		}
		var obj map[string]json.RawMessage
		if err := json.Unmarshal([]byte(raw), &obj); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"tools", "nextCursor", "ttlMs"} {
			if got, want := string(fields[name]), string(obj[name]); got != want {
				t.Errorf("%s: %s is %s, want %s", raw, name, got, want)
			}
		}
		if obj["tools"] == nil {
			continue
		}
		items, ok := elements(fields["tools"])
		var want []json.RawMessage
		if err := json.Unmarshal(obj["tools"], &want); err != nil {
			t.Fatal(err)
		}
		if !ok || !cmp.Equal(items, want) {
			t.Errorf("%s: items %q (%v), want %q", raw, items, ok, want)
		}
	}
	if _, ok := elements([]byte(`{"not":"an array"}`)); ok {
		t.Error("an object was read as an array")
	}
}
