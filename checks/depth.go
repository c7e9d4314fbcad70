package checks

import "strconv"

// MaxSchemaDepth bounds how deeply a schema may nest (objects and arrays,
// counted as JSON nesting) for the checks to compile it. A deeper schema
// gives [Unchecked] or a lint finding: compiling one costs memory that grows
// far faster than its size (a schema 2,000 levels deep took 1.5 GB).
const MaxSchemaDepth = 64

// Depth returns how deeply the JSON text raw nests objects and arrays: 0 for
// a scalar, 1 for {"a":1}, 2 for {"a":[1]}. It reads raw once and allocates
// nothing; it does not check that raw is valid JSON.
func Depth(raw []byte) int {
	depth, deepest := 0, 0
	inString, escaped := false, false
	for _, c := range raw {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest
}

// Cut returns a copy of the JSON text raw in which every object or array
// nested deeper than limit levels is replaced by a string saying so, and how
// many were replaced. What is cut is not read further, so the result is
// valid JSON when the rest of raw is. ok is false when the brackets of raw
// do not balance.
func Cut(raw []byte, limit int) (out []byte, cuts int, ok bool) {
	marker := strconv.Quote("(cut by mcpwitness: nested deeper than " + strconv.Itoa(limit) + " levels)")
	out = make([]byte, 0, len(raw))
	depth := 0
	inString, escaped := false, false
	skipFrom := -1 // the depth at which the value being skipped started
	for _, c := range raw {
		if skipFrom < 0 {
			out = append(out, c)
		}
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			if depth > limit && skipFrom < 0 {
				out = append(out[:len(out)-1], marker...)
				skipFrom = depth
				cuts++
			}
		case c == '}' || c == ']':
			if depth == skipFrom {
				skipFrom = -1
			}
			depth--
			if depth < 0 {
				return nil, cuts, false
			}
		}
	}
	return out, cuts, depth == 0 && !inString
}
