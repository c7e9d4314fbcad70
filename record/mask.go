package record

import (
	"bytes"
	"slices"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"mcpwitness/jsonscan"
)

// needle is one text a [Redactor] hunts for: a secret, or a form of it
// (URL-escaped), or a placeholder, which stands for itself so that a scan
// meeting one takes it whole and a secret never bites into it.
type needle struct {
	text        []byte
	placeholder string
}

// span is one match of a needle in decoded text: bytes [start, end).
type span struct {
	start, end  int
	placeholder string
}

// masker is an immutable set of needles, longest first.
type masker struct {
	needles []needle
}

// matches returns the needles found in s, earliest first, a longer match
// winning at the same start, none overlapping another.
func (m *masker) matches(s []byte) []span {
	var found []span
	for _, n := range m.needles {
		for off := 0; off < len(s); {
			i := bytes.Index(s[off:], n.text)
			if i < 0 {
				break
			}
			found = append(found, span{off + i, off + i + len(n.text), n.placeholder})
			off += i + 1
		}
	}
	if len(found) == 0 {
		return nil
	}
	slices.SortFunc(found, func(a, b span) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return b.end - a.end
	})
	kept := found[:1]
	for _, f := range found[1:] {
		if f.start >= kept[len(kept)-1].end {
			kept = append(kept, f)
		}
	}
	return kept
}

// present reports whether any needle occurs in b as written.
func (m *masker) present(b []byte) bool {
	for _, n := range m.needles {
		if bytes.Contains(b, n.text) {
			return true
		}
	}
	return false
}

// json returns the JSON text b with every secret inside a string literal
// (keys included) replaced by its placeholder. Escapes are decoded before
// comparing, so "\u0067hp_…" or "a\/b" is found as the secret it spells;
// the whole escaped span of a match is replaced. Nothing outside string
// literals changes, so valid JSON stays valid. b is returned as is when
// nothing matched.
func (m *masker) json(b []byte) []byte {
	if bytes.IndexByte(b, '\\') < 0 && !m.present(b) {
		return b
	}
	// A string without escapes can hold a secret only if the text holds
	// it as written.
	plain := m.present(b)
	var out, scratch []byte
	last := 0
	for i := 0; i < len(b); i++ {
		if b[i] != '"' {
			continue
		}
		end := jsonscan.SkipString(b, i)
		if end < 0 {
			break
		}
		content := b[i+1 : end-1]
		if !plain && bytes.IndexByte(content, '\\') < 0 {
			i = end - 1
			continue
		}
		if masked, ok := m.content(content, true, &scratch); ok {
			out = append(out, b[last:i+1]...)
			out = append(out, masked...)
			out = append(out, '"')
			last = end
		}
		i = end - 1
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}

// text returns s with every secret replaced, plainly written or escaped as
// JSON writes it (an error quoting a server's JSON).
func (m *masker) text(s string) string {
	b, changed := []byte(s), false
	// As written first: a secret holding a backslash (a Windows path) is
	// found before its backslashes are read as escapes.
	if found := m.matches(b); found != nil {
		b, changed = splice(b, found, nil, nil, false), true
	}
	if masked, ok := m.content(b, false, nil); ok {
		b, changed = masked, true
	}
	if !changed {
		return s
	}
	return string(b)
}

// content masks the contents of one JSON string literal (quoted: the
// placeholders are escaped for it) or free text, whose escapes are decoded
// where they are well formed. ok is false when nothing matched. scratch,
// if not nil, is a buffer reused from one call to the next.
func (m *masker) content(raw []byte, quoted bool, scratch *[]byte) ([]byte, bool) {
	if bytes.IndexByte(raw, '\\') < 0 {
		found := m.matches(raw)
		if found == nil {
			return nil, false
		}
		return splice(raw, found, nil, nil, quoted), true
	}
	// Most strings hold no secret: decode without offsets to find out.
	var dst []byte
	if scratch != nil {
		dst = (*scratch)[:0]
	}
	dst = decodeInto(dst, raw)
	if scratch != nil {
		*scratch = dst
	}
	if m.matches(dst) == nil {
		return nil, false
	}
	dec, starts, ends := decodeEscapes(raw)
	return splice(raw, m.matches(dec), starts, ends, quoted), true
}

// decodeInto appends raw to dst with its JSON escapes decoded (malformed
// ones kept as written), as [decodeEscapes] decodes it.
func decodeInto(dst, raw []byte) []byte {
	for i := 0; i < len(raw); {
		if r, n := unescape(raw, i); r >= 0 {
			dst = utf8.AppendRune(dst, r)
			i += n
			continue
		}
		dst = append(dst, raw[i])
		i++
	}
	return dst
}

// splice replaces the spans found in the decoded text in raw, mapping
// decoded offsets to raw ones through starts and ends (nil: the same).
func splice(raw []byte, found []span, starts, ends []int, quoted bool) []byte {
	out := make([]byte, 0, len(raw))
	last := 0
	for _, f := range found {
		from, to := f.start, f.end
		if starts != nil {
			from, to = starts[f.start], ends[f.end-1]
		}
		out = append(out, raw[last:from]...)
		if quoted {
			out = appendEscaped(out, f.placeholder)
		} else {
			out = append(out, f.placeholder...)
		}
		last = to
	}
	return append(out, raw[last:]...)
}

// appendEscaped appends s as the contents of a JSON string.
func appendEscaped(dst []byte, s string) []byte {
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			dst = append(dst, '\\', byte(r))
		case r < 0x20:
			dst = append(dst, `\u00`...)
			dst = append(dst, "0123456789abcdef"[r>>4], "0123456789abcdef"[r&15])
		default:
			dst = utf8.AppendRune(dst, r)
		}
	}
	return dst
}

// decodeEscapes decodes the JSON escapes of raw (malformed ones are kept
// as written) and says, for each decoded byte, where in raw the text that
// made it starts and ends.
func decodeEscapes(raw []byte) (dec []byte, starts, ends []int) {
	dec = make([]byte, 0, len(raw))
	starts, ends = make([]int, 0, len(raw)), make([]int, 0, len(raw))
	for i := 0; i < len(raw); {
		r, n := unescape(raw, i)
		if r < 0 {
			dec = append(dec, raw[i])
			starts, ends = append(starts, i), append(ends, i+1)
			i++
			continue
		}
		before := len(dec)
		dec = utf8.AppendRune(dec, r)
		for range len(dec) - before {
			starts, ends = append(starts, i), append(ends, i+n)
		}
		i += n
	}
	return dec, starts, ends
}

// unescape decodes the JSON escape at raw[i] (a surrogate pair whole),
// returning the rune and the bytes it took, or -1 when raw[i] starts none.
func unescape(raw []byte, i int) (rune, int) {
	if raw[i] != '\\' || i+1 >= len(raw) {
		return -1, 0
	}
	switch c := raw[i+1]; c {
	case '"', '\\', '/':
		return rune(c), 2
	case 'b':
		return '\b', 2
	case 'f':
		return '\f', 2
	case 'n':
		return '\n', 2
	case 'r':
		return '\r', 2
	case 't':
		return '\t', 2
	case 'u':
		r := hex4(raw, i+2)
		if r < 0 {
			return -1, 0
		}
		if utf16.IsSurrogate(r) {
			if i+7 < len(raw) && raw[i+6] == '\\' && raw[i+7] == 'u' {
				if lo := hex4(raw, i+8); lo >= 0 {
					if pair := utf16.DecodeRune(r, lo); pair != utf8.RuneError {
						return pair, 12
					}
				}
			}
			return utf8.RuneError, 6
		}
		return r, 6
	}
	return -1, 0
}

// hex4 is the value of the four hex digits at raw[i:], or -1.
func hex4(raw []byte, i int) rune {
	if i+4 > len(raw) {
		return -1
	}
	v, err := strconv.ParseUint(string(raw[i:i+4]), 16, 32)
	if err != nil {
		return -1
	}
	return rune(v)
}
