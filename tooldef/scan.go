package tooldef

import (
	"bytes"
	"unicode/utf8"
	"unsafe"
)

// A definition is read with no copy: its members are found by one scan of
// the valid JSON text, and each raw member is the slice of the definition
// that holds it. (paging reads list pages the same way.)

// members calls fn with the name and value of each member of the JSON
// object b (valid JSON, maybe with space around it), the value as the
// slice of b that holds it. It reports false, having called fn for none or
// some of them, when b is not an object or a name holds an escape (the
// caller then decodes b instead).
func members(b []byte, fn func(name, val []byte)) bool {
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
		name := b[i+1 : kend-1]
		if bytes.IndexByte(name, '\\') >= 0 {
			return false
		}
		colon := skipSpace(b, kend)
		if colon >= len(b) || b[colon] != ':' {
			return false
		}
		vstart := skipSpace(b, colon+1)
		vend := skipValue(b, vstart)
		if vend < 0 {
			return false
		}
		fn(name, b[vstart:vend:vend])
		i = vend
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index just past the string starting at b[i], or -1.
func skipString(b []byte, i int) int {
	if i >= len(b) || b[i] != '"' {
		return -1
	}
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

// skipValue returns the index just past the value starting at b[i], or -1.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				if i = skipString(b, i); i < 0 {
					return -1
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return -1
	default:
		for ; i < len(b); i++ {
			switch b[i] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return i
			}
		}
		return i
	}
}

// plainString returns the text of the JSON string raw when it holds no
// escape and is valid UTF-8, so that decoding would give it as it is. The
// string shares raw's bytes (see [Parse]): a listed tool's name and
// description cost no copy.
func plainString(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' || bytes.IndexByte(raw, '\\') >= 0 || !utf8.Valid(raw) {
		return "", false
	}
	if len(raw) == 2 {
		return "", true
	}
	return unsafe.String(&raw[1], len(raw)-2), true
}
