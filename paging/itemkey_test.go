package paging

import (
	"encoding/json"
	"testing"
)

// The one-pass itemKey must agree with decoding the item whole.
func FuzzItemKey(f *testing.F) {
	for _, s := range []string{
		`{"name":"add","inputSchema":{"type":"object","properties":{"name":{"type":"string"}}}}`,
		`{"description":"a \"quoted\" name","name":"q\u00e9"}`,
		`{"name":1}`, `{"na\u006de":"escaped key"}`, `{"name":"first","name":"second"}`,
		`[1,2]`, `"name"`, `{}`, `{"x":[{"name":"nested"}],"name":"top"}`, `{ "name" : "spaced" }`,
	} {
		f.Add(s, "name")
	}
	f.Fuzz(func(t *testing.T, item, field string) {
		if !json.Valid([]byte(item)) {
			return
		}
		fast, okFast := itemKey(json.RawMessage(item), field)
		slow, okSlow := itemKeySlow(json.RawMessage(item), field)
		if fast != slow || okFast != okSlow {
			t.Fatalf("itemKey(%s, %q) = %q %v, decoding whole gives %q %v", item, field, fast, okFast, slow, okSlow)
		}
	})
}

// itemKeySlow is what itemKey must agree with: the item decoded whole.
func itemKeySlow(item json.RawMessage, field string) (string, bool) {
	var obj map[string]json.RawMessage
	if json.Unmarshal(item, &obj) != nil {
		return "", false
	}
	raw, ok := obj[field]
	if !ok || jsonKind(raw) != kindString {
		return "", false
	}
	var key string
	if json.Unmarshal(raw, &key) != nil {
		return "", false
	}
	return key, true
}
