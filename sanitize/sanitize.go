// Package sanitize makes text that came from a server safe to show on a
// terminal or in a report. Server strings — names, descriptions, results,
// stderr, log messages, errors that quote them — can hold escape sequences
// that clear the screen, set the window title, write the clipboard (OSC 52)
// or move the cursor, carriage returns and backspaces that overwrite what was
// printed, and bidirectional overrides or zero-width characters that make
// text read differently from what it is.
//
// Text can also carry what no reader sees but a model reads: Unicode tag
// characters (U+E0000–E007F, which spell ASCII invisibly), variation
// selectors that modify nothing (which can encode bytes), fillers that
// show as blank, the soft hyphen and the other format characters, and line
// and paragraph separators.
//
// [Line] and [Text] show every such character visibly instead: ESC as ␛,
// other C0 and C1 controls and DEL as \r, \b, \x9b and the like, the
// invisible characters as \u202e or \U000e0041 and the like, invalid UTF-8
// as U+FFFD. Emoji stay as they read: a zero-width joiner between emoji
// (👨‍👩‍👧), a variation selector after a character it can modify (❤️, 1️⃣,
// an ideographic selector after a Han ideograph), and the tag sequence of a
// subdivision flag (🏴 followed by 2 to 7 tag letters or digits and the
// cancel tag, as in the flag of England). The raw bytes stay in the session
// file; only display is cleaned. [Scan] reports what a string holds, for
// checks that flag it, and [HiddenText] decodes the ASCII that tag runs
// spell.
package sanitize

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Line returns s safe for one line of a terminal: every control character,
// newlines and tabs included, is shown visibly.
func Line(s string) string {
	if plain(s, false) {
		return s
	}
	return clean(s, false)
}

// Text returns s safe for a terminal where it may span lines: newlines and
// tabs stay, a carriage return that ends a line before its newline is
// dropped, and every other control character is shown visibly.
func Text(s string) string {
	if plain(s, true) {
		return s
	}
	return clean(s, true)
}

// plain reports whether s is printable ASCII (with newlines and tabs when
// multiline), which needs no work.
func plain(s string, multiline bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			continue
		}
		if multiline && (c == '\n' || c == '\t') {
			continue
		}
		return false
	}
	return true
}

func clean(s string, multiline bool) string {
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size, c := classify(s, i, multiline)
		switch c {
		case invalidByte:
			b.WriteRune(utf8.RuneError)
		case lineEnd:
			// CRLF: the line ends here either way.
		case control:
			if r == 0x1b {
				b.WriteString("␛")
			} else {
				b.WriteString(escapeControl(r))
			}
		case bidi, zeroWidth, format, tag, selector, filler, separator:
			b.WriteString(escapeUnicode(r))
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// class is what a character of server text is to [Line], [Text] and
// [Scan]: one decision, so what is shown escaped and what is reported are
// the same characters.
type class int

const (
	safe        class = iota // shown as it is
	invalidByte              // a byte that is not UTF-8
	lineEnd                  // with multiline, the carriage return of a CRLF
	control                  // a C0 or C1 control or DEL (ESC included)
	bidi                     // a bidirectional formatting character
	zeroWidth                // a zero-width character outside an emoji sequence
	format                   // another format (Cf) character, e.g. the soft hyphen
	tag                      // a tag character outside a subdivision flag
	selector                 // a variation selector that modifies nothing
	filler                   // a character that shows as blank (see [Filler])
	separator                // U+2028 line or U+2029 paragraph separator
)

// classify reads the character of s at byte i: the rune, its size in
// bytes (1 for an invalid byte) and its class. Newlines and tabs are
// controls only when multiline is false.
func classify(s string, i int, multiline bool) (rune, int, class) {
	r, size := utf8.DecodeRuneInString(s[i:])
	next := s[i+size:]
	switch {
	case r == utf8.RuneError && size <= 1:
		return r, 1, invalidByte
	case multiline && (r == '\n' || r == '\t'):
		return r, size, safe
	case multiline && r == '\r' && strings.HasPrefix(next, "\n"):
		return r, size, lineEnd
	case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
		return r, size, control
	case Bidi(r):
		return r, size, bidi
	case ZeroWidth(r) && !joinsEmoji(r, s[:i], next):
		return r, size, zeroWidth
	case r < 0x80 || r == 0x200d:
		return r, size, safe
	}
	return r, size, classifyWide(r, s[:i], next)
}

// classifyWide classes a character outside ASCII that is no control, bidi
// control or lone zero-width character, before and after being the text
// around it.
func classifyWide(r rune, before, after string) class {
	switch {
	case Tag(r):
		if inFlag(r, before, after) {
			return safe
		}
		return tag
	case Selector(r):
		if modifies(r, before) {
			return safe
		}
		return selector
	case Filler(r):
		return filler
	case r == 0x2028 || r == 0x2029:
		return separator
	case unicode.Is(unicode.Cf, r):
		return format
	}
	return safe
}

func escapeControl(r rune) string {
	switch r {
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	case '\b':
		return `\b`
	case '\a':
		return `\a`
	case '\f':
		return `\f`
	case '\v':
		return `\v`
	case 0:
		return `\0`
	}
	const hex = "0123456789abcdef"
	return `\x` + string(hex[r>>4]) + string(hex[r&0xf])
}

// escapeUnicode writes r as \u and four hex digits, or beyond the Basic
// Multilingual Plane as \U and eight, as Go writes them.
func escapeUnicode(r rune) string {
	const hex = "0123456789abcdef"
	out, shift := []byte(`\u`), 12
	if r > 0xffff {
		out, shift = []byte(`\U`), 28
	}
	for ; shift >= 0; shift -= 4 {
		out = append(out, hex[(r>>uint(shift))&0xf])
	}
	return string(out)
}

// Bidi reports whether r is a bidirectional formatting character: the
// embeddings, overrides and isolates that can make text read in an order
// other than its bytes, and the implicit marks.
func Bidi(r rune) bool {
	switch {
	case r >= 0x202a && r <= 0x202e: // LRE, RLE, PDF, LRO, RLO
		return true
	case r >= 0x2066 && r <= 0x2069: // LRI, RLI, FSI, PDI
		return true
	case r == 0x200e || r == 0x200f || r == 0x061c: // LRM, RLM, ALM
		return true
	}
	return false
}

// ZeroWidth reports whether r is a character with no width that can hide
// inside a name: zero-width space, non-joiner and joiner, word joiner,
// invisible operators, the byte order mark, the Mongolian vowel separator.
func ZeroWidth(r rune) bool {
	switch r {
	case 0x200b, 0x200c, 0x200d, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0xfeff, 0x180e:
		return true
	}
	return false
}

// Invisible reports whether r is shown escaped by [Line] and [Text] although
// it is not a control character: a bidi control or a zero-width character.
func Invisible(r rune) bool { return Bidi(r) || ZeroWidth(r) }

// joinsEmoji reports whether r is a zero-width joiner inside an emoji
// sequence (👩‍💻), where it is how the text is meant to read.
func joinsEmoji(r rune, before, after string) bool {
	if r != 0x200d {
		return false
	}
	// At either end of the string, or next to an invalid byte, the
	// decoded rune is U+FFFD, itself a symbol (So): no emoji there.
	prev, size := utf8.DecodeLastRuneInString(before)
	next, _ := utf8.DecodeRuneInString(after)
	if prev == utf8.RuneError || next == utf8.RuneError || next == 0xfe0f || !pictographic(prev) || !pictographic(next) {
		return false
	}
	// An emoji's VS16 (❤️‍🔥) joins; a stray one does not.
	return prev != 0xfe0f || modifies(prev, before[:len(before)-size])
}

// pictographic reports whether r is an emoji or a symbol an emoji sequence
// can hold, VS16 included.
func pictographic(r rune) bool {
	return (r >= 0x1f000 && r <= 0x1fbff) || (r >= 0x2600 && r <= 0x27bf) || r == 0xfe0f || unicode.Is(unicode.So, r)
}

// Findings are the kinds of unsafe characters a string holds.
type Findings struct {
	// Controls counts C0 and C1 control characters and DEL (ESC included),
	// newlines and tabs excluded.
	Controls int
	// Escapes counts ESC characters, the start of terminal sequences.
	Escapes int
	// Bidi counts bidirectional formatting characters.
	Bidi int
	// ZeroWidth counts zero-width characters outside emoji sequences.
	ZeroWidth int
	// InvalidUTF8 counts bytes that are not valid UTF-8.
	InvalidUTF8 int
	// Tags counts tag characters outside subdivision flags: invisible
	// ASCII ([HiddenText] decodes it).
	Tags int
	// Format counts the other format characters (Unicode category Cf),
	// e.g. the soft hyphen U+00AD.
	Format int
	// Selectors counts variation selectors that modify nothing.
	Selectors int
	// Fillers counts characters that show as blank ([Filler]).
	Fillers int
	// Separators counts U+2028 line and U+2029 paragraph separators.
	Separators int
}

// Any reports whether anything was found.
func (f Findings) Any() bool {
	return f.Controls+f.Bidi+f.ZeroWidth+f.InvalidUTF8+f.Hidden() > 0
}

// Hidden counts the invisible characters that are neither controls, bidi
// controls nor zero-width characters: tags, other format characters, stray
// variation selectors, fillers and separators.
func (f Findings) Hidden() int {
	return f.Tags + f.Format + f.Selectors + f.Fillers + f.Separators
}

// Plus returns the sum of f and g.
func (f Findings) Plus(g Findings) Findings {
	return Findings{
		Controls: f.Controls + g.Controls, Escapes: f.Escapes + g.Escapes,
		Bidi: f.Bidi + g.Bidi, ZeroWidth: f.ZeroWidth + g.ZeroWidth,
		InvalidUTF8: f.InvalidUTF8 + g.InvalidUTF8, Tags: f.Tags + g.Tags,
		Format: f.Format + g.Format, Selectors: f.Selectors + g.Selectors,
		Fillers: f.Fillers + g.Fillers, Separators: f.Separators + g.Separators,
	}
}

// String says what was found, e.g. "2 control characters (1 escape
// sequence), 1 bidi control".
func (f Findings) String() string {
	var parts []string
	if f.Controls > 0 {
		p := count(f.Controls, "control character", "control characters")
		if f.Escapes > 0 {
			p += " (" + count(f.Escapes, "escape", "escapes") + ")"
		}
		parts = append(parts, p)
	}
	if f.Bidi > 0 {
		parts = append(parts, count(f.Bidi, "bidi control", "bidi controls"))
	}
	if f.ZeroWidth > 0 {
		parts = append(parts, count(f.ZeroWidth, "zero-width character", "zero-width characters"))
	}
	for _, k := range []struct {
		n         int
		one, many string
	}{
		{f.Tags, "tag character", "tag characters"},
		{f.Format, "format character", "format characters"},
		{f.Selectors, "stray variation selector", "stray variation selectors"},
		{f.Fillers, "filler", "fillers"},
		{f.Separators, "line or paragraph separator", "line or paragraph separators"},
		{f.InvalidUTF8, "invalid UTF-8 byte", "invalid UTF-8 bytes"},
	} {
		if k.n > 0 {
			parts = append(parts, count(k.n, k.one, k.many))
		}
	}
	return strings.Join(parts, ", ")
}

func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// Scan reports the unsafe characters s holds. Newlines and tabs count as
// control characters only when multiline is false.
func Scan(s string, multiline bool) Findings {
	var f Findings
	if plain(s, multiline) {
		return f
	}
	for i := 0; i < len(s); {
		r, size, c := classify(s, i, multiline)
		switch c {
		case invalidByte:
			f.InvalidUTF8++
		case control:
			f.Controls++
			if r == 0x1b {
				f.Escapes++
			}
		case bidi:
			f.Bidi++
		case zeroWidth:
			f.ZeroWidth++
		case tag:
			f.Tags++
		case format:
			f.Format++
		case selector:
			f.Selectors++
		case filler:
			f.Fillers++
		case separator:
			f.Separators++
		}
		i += size
	}
	return f
}
