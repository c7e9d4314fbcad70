package paging

import (
	"encoding/json"

	"mcpwitness/jsonscan"
)

// A page is read once, from the raw result, with no copy: the fields a
// walk needs and the items are found by one scan of the valid JSON text,
// and each item is the slice of the result that holds it.

// pageFields returns the members of the JSON object raw (valid JSON) that a
// page is read from: items (the method's items field), "nextCursor" and
// "ttlMs", each as the slice of raw that holds its value; the last of
// duplicate members wins, as in a map. ok is false when raw cannot be
// scanned so (the caller then decodes it).
func pageFields(raw []byte, items string) (fields map[string]json.RawMessage, ok bool) {
	fields = make(map[string]json.RawMessage, 3)
	ok = jsonscan.Members(raw, func(rawKey, val []byte) bool {
		for _, name := range [...]string{items, "nextCursor", "ttlMs"} {
			match, ok := jsonscan.KeyIs(rawKey, name)
			if !ok {
				return false
			}
			if match {
				fields[name] = val
				break
			}
		}
		return true
	})
	return fields, ok
}

// elements returns the elements of the JSON array b (valid JSON), each as
// the slice of b that holds it; ok is false when b is not an array.
func elements(b []byte) (items []json.RawMessage, ok bool) {
	items = []json.RawMessage{}
	if !jsonscan.Elements(b, func(val []byte) bool {
		items = append(items, val)
		return true
	}) {
		return nil, false
	}
	return items, true
}
