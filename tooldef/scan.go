package tooldef

import (
	"bytes"

	"mcpwitness/jsonscan"
)

// A definition is read with no copy: its members are found by one scan of
// the valid JSON text (see [jsonscan]), and each raw member is the slice of
// the definition that holds it. (paging reads list pages the same way.)

// members calls fn with the name and value of each member of the JSON
// object b (valid JSON, maybe with space around it), the value as the
// slice of b that holds it. It reports false, having called fn for none or
// some of them, when b is not an object or a name holds an escape (the
// caller then decodes b instead).
func members(b []byte, fn func(name, val []byte)) bool {
	return jsonscan.Members(b, func(rawKey, val []byte) bool {
		name := rawKey[1 : len(rawKey)-1]
		if bytes.IndexByte(name, '\\') >= 0 {
			return false
		}
		fn(name, val)
		return true
	})
}
