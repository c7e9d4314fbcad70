// Package match finds a filter query in a name, the way the tools pane
// filters its list: the query whole (the name itself, its start, a word
// inside it, anywhere), else its characters in order, and says how well
// it matched and which characters did, so a list can rank and mark them.
package match

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Rank says how well a name matches a query, best first.
type Rank int

// The ranks, best first.
const (
	Exact     Rank = iota // the whole name, ignoring case
	Prefix                // the name starts with the query
	Word                  // a word inside the name starts with it
	Substring             // the query stands whole elsewhere in the name
	Fuzzy                 // its characters stand in order, apart
)

// Hit is how a name matched: how well, and the byte offsets in it of the
// characters that matched.
type Hit struct {
	Pos  []int
	Rank Rank
}

// Find reports whether s matches query, ignoring case, how well (see
// [Rank]) and where: the query whole at the start, at a word start
// or anywhere, else its characters in order (see [fuzzy]).
func Find(query, s string) (Hit, bool) {
	best, found := Hit{}, false
	for i := 0; i < len(s); {
		if pos, end, ok := foldAt(s, i, query); ok {
			r := Substring
			switch {
			case i == 0 && end == len(s):
				r = Exact
			case i == 0:
				r = Prefix
			case boundary(s, i):
				r = Word
			}
			if !found || r < best.Rank {
				best, found = Hit{Pos: pos, Rank: r}, true
			}
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	if found {
		return best, true
	}
	pos, ok := fuzzy(query, s)
	return Hit{Pos: pos, Rank: Fuzzy}, ok
}

// foldAt reports whether query stands in s at byte i, ignoring case, with
// the offsets of its characters and where it ends.
func foldAt(s string, i int, query string) (pos []int, end int, ok bool) {
	if query == "" {
		return nil, i, false
	}
	pos = make([]int, 0, len(query))
	j := i
	for _, q := range query {
		if j >= len(s) {
			return nil, 0, false
		}
		r, size := utf8.DecodeRuneInString(s[j:])
		if !strings.EqualFold(string(r), string(q)) {
			return nil, 0, false
		}
		pos = append(pos, j)
		j += size
	}
	return pos, j, true
}

// fuzzy reports whether every character of query appears in s in order,
// ignoring case, and where. It prefers matches at word starts, so "gw"
// marks get_weather's g and w; when that leads nowhere it takes the
// earliest matches, which find a match whenever there is one.
func fuzzy(query, s string) ([]int, bool) {
	if query == "" {
		return nil, true
	}
	if pos, ok := match(query, s, true); ok {
		return pos, true
	}
	return match(query, s, false)
}

func match(query, s string, words bool) ([]int, bool) {
	pos := make([]int, 0, len(query))
	i := 0
	for _, q := range query {
		q = unicode.ToLower(q)
		found := -1
		if words {
			found = find(s, i, q, true)
		}
		if found < 0 {
			found = find(s, i, q, false)
		}
		if found < 0 {
			return nil, false
		}
		pos = append(pos, found)
		_, size := utf8.DecodeRuneInString(s[found:])
		i = found + size
	}
	return pos, true
}

// find returns the offset of the first q in s at or after i (at a word
// start only, with words), or -1.
func find(s string, i int, q rune, words bool) int {
	for j := i; j < len(s); {
		r, size := utf8.DecodeRuneInString(s[j:])
		if unicode.ToLower(r) == q && (!words || j == 0 || boundary(s, j)) {
			return j
		}
		j += size
	}
	return -1
}

// boundary says whether s[j] starts a word: after _ - . / or a space, or a
// capital after a small letter.
func boundary(s string, j int) bool {
	prev, _ := utf8.DecodeLastRuneInString(s[:j])
	cur, _ := utf8.DecodeRuneInString(s[j:])
	switch prev {
	case '_', '-', '.', '/', ' ', ':':
		return true
	}
	return unicode.IsUpper(cur) && unicode.IsLower(prev)
}
