package checks

import "strconv"

// MaxSchemaDepth bounds how deeply a schema may nest (objects and arrays,
// counted as JSON nesting) for the checks to compile it. A deeper schema
// gives [finding.Unchecked] or a lint finding: compiling one costs memory that grows
// far faster than its size (a schema 2,000 levels deep took 1.5 GB).
const MaxSchemaDepth = 64

// Depth returns how deeply the JSON text raw nests objects and arrays: 0 for
// a scalar, 1 for {"a":1}, 2 for {"a":[1]}. It reads raw once and allocates
// nothing; it does not check that raw is valid JSON.
func Depth(raw []byte) int {
	var sc bracketScanner
	deepest := 0
	for _, c := range raw {
		sc.step(c)
		deepest = max(deepest, sc.depth)
	}
	return deepest
}

// bracketScanner follows the nesting of JSON text a byte at a time, strings
// (and the brackets inside them) skipped.
type bracketScanner struct {
	depth             int
	inString, escaped bool
}

// step takes the next byte and reports whether it opened (+1) or closed
// (-1) an object or array, or neither (0). depth is updated after an open
// and before a close is reported, so on a close it is the closed value's
// depth less one.
func (s *bracketScanner) step(c byte) int {
	switch {
	case s.inString:
		switch {
		case s.escaped:
			s.escaped = false
		case c == '\\':
			s.escaped = true
		case c == '"':
			s.inString = false
		}
	case c == '"':
		s.inString = true
	case c == '{' || c == '[':
		s.depth++
		return 1
	case c == '}' || c == ']':
		s.depth--
		return -1
	}
	return 0
}

// Cut returns a copy of the JSON text raw in which every object or array
// nested deeper than limit levels is replaced by a string saying so, and how
// many were replaced. What is cut is not read further, so the result is
// valid JSON when the rest of raw is. ok is false when the brackets of raw
// do not balance.
func Cut(raw []byte, limit int) (out []byte, cuts int, ok bool) {
	marker := strconv.Quote("(cut by mcpwitness: nested deeper than " + strconv.Itoa(limit) + " levels)")
	out = make([]byte, 0, len(raw))
	var sc bracketScanner
	skipFrom := -1 // the depth at which the value being skipped started
	for _, c := range raw {
		if skipFrom < 0 {
			out = append(out, c)
		}
		switch sc.step(c) {
		case 1:
			if sc.depth > limit && skipFrom < 0 {
				out = append(out[:len(out)-1], marker...)
				skipFrom = sc.depth
				cuts++
			}
		case -1:
			if sc.depth+1 == skipFrom {
				skipFrom = -1
			}
			if sc.depth < 0 {
				return nil, cuts, false
			}
		}
	}
	return out, cuts, sc.depth == 0 && !sc.inString
}
