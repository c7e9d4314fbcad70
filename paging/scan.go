package paging

import (
	"encoding/json"
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
	ok = members(raw, func(rawKey, val []byte) bool {
		for _, name := range [...]string{items, "nextCursor", "ttlMs"} {
			match, ok := keyIs(rawKey, name)
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

// members calls fn with each member of the JSON object b (valid JSON, maybe
// with space around it): its name as written, quotes included, and its
// value. It stops, reporting false, when fn does or b is not an object.
func members(b []byte, fn func(rawKey, val []byte) bool) bool {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	for i++; ; {
		i = skipSpace(b, i)
		switch {
		case i >= len(b):
			return false
		case b[i] == '}':
			return true
		case b[i] == ',':
			i++
			continue
		}
		kend := skipString(b, i)
		if kend < 0 {
			return false
		}
		colon := skipSpace(b, kend)
		if colon >= len(b) || b[colon] != ':' {
			return false
		}
		vstart := skipSpace(b, colon+1)
		vend := skipValue(b, vstart)
		if vend < 0 || !fn(b[i:kend], b[vstart:vend]) {
			return false
		}
		i = vend
	}
}

// elements returns the elements of the JSON array b (valid JSON), each as
// the slice of b that holds it; ok is false when b is not an array.
func elements(b []byte) (items []json.RawMessage, ok bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '[' {
		return nil, false
	}
	items = []json.RawMessage{}
	for i++; ; {
		i = skipSpace(b, i)
		switch {
		case i >= len(b):
			return nil, false
		case b[i] == ']':
			return items, true
		case b[i] == ',':
			i++
			continue
		}
		end := skipValue(b, i)
		if end < 0 {
			return nil, false
		}
		items = append(items, json.RawMessage(b[i:end:end]))
		i = end
	}
}
