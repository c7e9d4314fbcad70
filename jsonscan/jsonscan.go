// Package jsonscan reads valid JSON text in place, with no copy: the
// members of an object and the elements of an array are found by one scan
// of the text, and each value is the slice of the text that holds it.
//
// It does not validate. Every function assumes its input is valid JSON (as
// [encoding/json.Valid] reports), which is what a frame or a page already
// read by encoding/json, or checked by it, is. On other text it never
// panics or loops, and reports failure where it reads the text: cut short,
// more after the value, a literal that is not true, false, null or made of
// a number's characters; inside a value it skips it looks only at strings
// and brackets. Functions that take an index i return the index just past
// what they skipped, or -1 when the text ends first or does not start with
// what they skip.
package jsonscan

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// SkipSpace returns the index of the first byte of b at or after i that is
// not JSON white space (space, tab, newline, carriage return).
func SkipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// SkipString returns the index just past the JSON string that starts at
// b[i], quotes included, or -1.
func SkipString(b []byte, i int) int {
	if i < 0 || i >= len(b) || b[i] != '"' {
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

// SkipValue returns the index just past the JSON value that starts at b[i]
// (a string, an object or array with all it holds, or a literal), or -1.
func SkipValue(b []byte, i int) int {
	if i < 0 || i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return SkipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				if i = SkipString(b, i); i < 0 {
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
		end := i
		for end < len(b) && !delimiter(b[end]) {
			end++
		}
		if !literal(b[i:end]) {
			return -1
		}
		return end
	}
}

func delimiter(c byte) bool {
	switch c {
	case ',', ':', '{', '}', '[', ']', '"', ' ', '\t', '\n', '\r':
		return true
	}
	return false
}

// literal reports whether lit may be a JSON literal: true, false, null or
// something made of a number's characters (not checked further).
func literal(lit []byte) bool {
	switch string(lit) {
	case "":
		return false
	case "true", "false", "null":
		return true
	}
	for _, c := range lit {
		if (c < '0' || c > '9') && c != '-' && c != '+' && c != '.' && c != 'e' && c != 'E' {
			return false
		}
	}
	return lit[0] == '-' || lit[0] >= '0' && lit[0] <= '9'
}

// Members calls fn with each member of the JSON object b (maybe with space
// around it), in the order written: its name as written, quotes and
// escapes included (see [KeyIs] and [String]), and its value, each a slice
// of b whose capacity ends where it does. It reports false, having called
// fn for none or some members, when b is not an object (or holds more after
// it) or fn returns false.
func Members(b []byte, fn func(rawKey, val []byte) bool) bool {
	i := SkipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	for i++; ; {
		i = SkipSpace(b, i)
		switch {
		case i >= len(b):
			return false
		case b[i] == '}':
			return SkipSpace(b, i+1) == len(b)
		case b[i] == ',':
			i++
			continue
		}
		kend := SkipString(b, i)
		if kend < 0 {
			return false
		}
		colon := SkipSpace(b, kend)
		if colon >= len(b) || b[colon] != ':' {
			return false
		}
		vstart := SkipSpace(b, colon+1)
		vend := SkipValue(b, vstart)
		if vend < 0 || !fn(b[i:kend:kend], b[vstart:vend:vend]) {
			return false
		}
		i = vend
	}
}

// Elements calls fn with each element of the JSON array b (maybe with
// space around it), in order, each a slice of b whose capacity ends where
// it does. It reports false, having called fn for none or some elements,
// when b is not an array (or holds more after it) or fn returns false.
func Elements(b []byte, fn func(val []byte) bool) bool {
	i := SkipSpace(b, 0)
	if i >= len(b) || b[i] != '[' {
		return false
	}
	for i++; ; {
		i = SkipSpace(b, i)
		switch {
		case i >= len(b):
			return false
		case b[i] == ']':
			return SkipSpace(b, i+1) == len(b)
		case b[i] == ',':
			i++
			continue
		}
		end := SkipValue(b, i)
		if end < 0 || !fn(b[i:end:end]) {
			return false
		}
		i = end
	}
}

// Member returns the value of the member of the JSON object b whose name
// is name, as [Members] gives it; when several have that name, the last,
// as decoding into a map keeps. ok is false when b is not an object, has
// no such member, or a member's name does not decode.
func Member(b []byte, name string) (val []byte, ok bool) {
	found := false
	whole := Members(b, func(rawKey, v []byte) bool {
		match, ok := KeyIs(rawKey, name)
		if match {
			val, found = v, true
		}
		return ok
	})
	return val, whole && found
}

// KeyIs reports whether rawKey, a member name as written (quoted, maybe
// with escapes), decodes to name; ok is false when it does not decode.
func KeyIs(rawKey []byte, name string) (match, ok bool) {
	if len(rawKey) < 2 {
		return false, false
	}
	if s, plain := Plain(rawKey); plain {
		return s == name, true
	}
	s, ok := String(rawKey)
	return ok && s == name, ok
}

// Plain returns the text of the JSON string raw (quoted) when it holds no
// escape and is valid UTF-8, so that decoding it would give its bytes as
// they are. The string shares raw's bytes, with no copy: raw must not
// change while the string is in use. ok is false for any other value.
func Plain(raw []byte) (s string, ok bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	inner := raw[1 : len(raw)-1]
	if bytes.IndexByte(inner, '\\') >= 0 || !utf8.Valid(inner) {
		return "", false
	}
	if len(inner) == 0 {
		return "", true
	}
	return unsafe.String(&inner[0], len(inner)), true
}

// String returns the text of the JSON string raw (quoted, no space around
// it) as decoding it gives: without a copy when [Plain] can read it,
// decoded otherwise. ok is false when raw is not a string.
func String(raw []byte) (string, bool) {
	if s, ok := Plain(raw); ok {
		return s, true
	}
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	return decodeString(raw)
}

// decodeString is String's slow way, apart so that the fast way allocates
// nothing.
func decodeString(raw []byte) (string, bool) {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// Field returns which of names, the JSON names of a struct's fields, the
// member named rawKey (as written) fills when decoding into that struct:
// encoding/json matches a name exactly, else without regard to case. It
// returns "" for none, or for a name that does not decode.
func Field(rawKey []byte, names ...string) string {
	key, ok := String(rawKey)
	if !ok {
		return ""
	}
	for _, n := range names {
		if key == n {
			return n
		}
	}
	for _, n := range names {
		if strings.EqualFold(key, n) {
			return n
		}
	}
	return ""
}

// StringInto sets *dst to the string val holds, as decoding val into a
// string does: null leaves *dst as it was, and anything else is refused
// (false), *dst unchanged.
func StringInto(val []byte, dst *string) bool {
	if string(val) == "null" {
		return true
	}
	s, ok := String(val)
	if ok {
		*dst = s
	}
	return ok
}
