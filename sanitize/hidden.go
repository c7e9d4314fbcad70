package sanitize

import (
	"unicode"
	"unicode/utf8"
)

// Tag reports whether r is in the Unicode tag block (U+E0000–E007F), whose
// characters U+E0020–E007E spell ASCII (U+E0041 is an invisible "A") and
// which only a subdivision flag uses legitimately.
func Tag(r rune) bool { return r >= 0xe0000 && r <= 0xe007f }

// Selector reports whether r is a variation selector: U+FE00–FE0F,
// U+E0100–E01EF and the Mongolian free variation selectors.
func Selector(r rune) bool {
	return (r >= 0xfe00 && r <= 0xfe0f) || (r >= 0xe0100 && r <= 0xe01ef) ||
		(r >= 0x180b && r <= 0x180d) || r == 0x180f
}

// Filler reports whether r is a character that shows as blank or as nothing
// although it is neither a space nor a format character: the Hangul fillers
// U+115F, U+1160, U+3164 and U+FFA0, the braille pattern blank U+2800, the
// combining grapheme joiner U+034F and the Khmer inherent vowels U+17B4
// and U+17B5.
func Filler(r rune) bool {
	switch r {
	case 0x115f, 0x1160, 0x3164, 0xffa0, 0x2800, 0x034f, 0x17b4, 0x17b5:
		return true
	}
	return false
}

// Flag tags: a subdivision flag is U+1F3F4 followed by 2 to 7 tag letters
// (U+E0061–E007A) or digits (U+E0030–E0039) and the cancel tag U+E007F.
const (
	flagBase  = 0x1f3f4
	cancelTag = 0xe007f
	maxFlag   = 7
)

// flagTag reports whether r is a tag letter or digit, as a flag spells.
func flagTag(r rune) bool {
	return (r >= 0xe0061 && r <= 0xe007a) || (r >= 0xe0030 && r <= 0xe0039)
}

// inFlag reports whether the tag character r between before and after is
// part of a subdivision flag. It looks at most maxFlag+1 characters either
// way, so a long tag run costs linear time.
func inFlag(r rune, before, after string) bool {
	if r != cancelTag && !flagTag(r) {
		return false
	}
	n := 0
	for n <= maxFlag {
		p, size := utf8.DecodeLastRuneInString(before)
		if !flagTag(p) {
			break
		}
		before, n = before[:len(before)-size], n+1
	}
	if base, _ := utf8.DecodeLastRuneInString(before); base != flagBase {
		return false
	}
	if r == cancelTag {
		return n >= 2 && n <= maxFlag
	}
	n++
	for n <= maxFlag {
		next, size := utf8.DecodeRuneInString(after)
		if next == cancelTag {
			return n >= 2
		}
		if !flagTag(next) {
			return false
		}
		after, n = after[size:], n+1
	}
	return false
}

// modifies reports whether the variation selector r follows a character
// it can modify: VS15 or VS16 (U+FE0E, U+FE0F) after an emoji, a keycap
// base (0–9, #, *) or one of the few punctuation emoji; another of
// U+FE00–FE0D after a letter, number, symbol or punctuation outside ASCII;
// an ideographic selector (U+E0100–E01EF) after a Han ideograph; a
// Mongolian one after a Mongolian letter. A selector after another
// selector, at the start, or after anything else modifies nothing.
func modifies(r rune, before string) bool {
	prev, _ := utf8.DecodeLastRuneInString(before)
	if prev == utf8.RuneError || Selector(prev) || Tag(prev) || Filler(prev) {
		return false
	}
	switch {
	case r == 0xfe0e || r == 0xfe0f:
		return pictographic(prev) || (prev >= '0' && prev <= '9') || prev == '#' || prev == '*' ||
			prev == 0x203c || prev == 0x2049 || prev == 0x3030 || prev == 0x303d
	case r >= 0xfe00 && r <= 0xfe0d:
		return prev > 0x7f && (unicode.IsLetter(prev) || unicode.IsNumber(prev) || unicode.IsSymbol(prev) || unicode.IsPunct(prev))
	case r >= 0xe0100:
		return unicode.Is(unicode.Han, prev)
	}
	return unicode.Is(unicode.Mongolian, prev) && unicode.IsLetter(prev)
}

// HiddenText returns the ASCII that the tag runs of s spell, one string a
// run: U+E0020–E007E stand for the ASCII characters 0x20–0x7E. The tags of
// a subdivision flag spell nothing hidden and are left out; a run ends at
// any character that is not such a tag.
func HiddenText(s string) []string {
	var runs []string
	var run []byte
	end := func() {
		if len(run) > 0 {
			runs = append(runs, string(run))
			run = run[:0]
		}
	}
	for i := 0; i < len(s); {
		r, size, c := classify(s, i, true)
		if c == tag && r >= 0xe0020 && r <= 0xe007e {
			run = append(run, byte(r-0xe0000))
		} else {
			end()
		}
		i += size
	}
	end()
	return runs
}

// Next reads the character of s at byte i as [Line] (multiline false) or
// [Text] (multiline true) sees it: the rune, its size in bytes (1 for an
// invalid byte, whose rune is U+FFFD) and whether it is shown escaped. It
// lets an encoder escape the same characters in its own way.
func Next(s string, i int, multiline bool) (r rune, size int, escaped bool) {
	r, size, c := classify(s, i, multiline)
	return r, size, c != safe
}
