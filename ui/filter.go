package ui

import (
	"strings"
	"unicode"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"mcpwitness/fold"
)

// matchRank says how well a tool's name matches a filter query, best
// first.
type matchRank int

const (
	rankExact     matchRank = iota // the whole name, ignoring case
	rankPrefix                     // the name starts with the query
	rankWord                       // a word inside the name starts with it
	rankSubstring                  // the query stands whole elsewhere in the name
	rankFuzzy                      // its characters stand in order, apart
)

// hit is a tool a filter kept: how well it matched, and the byte offsets
// in its label of the characters that matched.
type hit struct {
	pos  []int
	rank matchRank
}

// filterDoneMsg carries the result of a fuzzy filter run in a command.
type filterDoneMsg struct {
	seq   int
	walk  *fold.Walk
	n     int    // how many of the walk's tools were filtered
	query string // the query filtered for
	// hits maps each matching tool to how it matched its label.
	hits map[*fold.Tool]hit
}

// filterCmd filters tools for query off the UI goroutine. tools must not
// change while it runs (tool entries never do; the slice is a snapshot).
func filterCmd(seq int, w *fold.Walk, tools []*fold.Tool, query string) tea.Cmd {
	return func() tea.Msg {
		hits := make(map[*fold.Tool]hit)
		for _, t := range tools {
			if h, ok := rankMatch(query, t.Label); ok {
				hits[t] = h
			}
		}
		return filterDoneMsg{seq: seq, walk: w, n: len(tools), query: query, hits: hits}
	}
}

// rankMatch reports whether s matches query, ignoring case, how well (see
// [matchRank]) and where: the query whole at the start, at a word start
// or anywhere, else its characters in order (see [fuzzy]).
func rankMatch(query, s string) (hit, bool) {
	best, found := hit{}, false
	for i := 0; i < len(s); {
		if pos, end, ok := foldAt(s, i, query); ok {
			r := rankSubstring
			switch {
			case i == 0 && end == len(s):
				r = rankExact
			case i == 0:
				r = rankPrefix
			case boundary(s, i):
				r = rankWord
			}
			if !found || r < best.rank {
				best, found = hit{pos: pos, rank: r}, true
			}
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	if found {
		return best, true
	}
	pos, ok := fuzzy(query, s)
	return hit{pos: pos, rank: rankFuzzy}, ok
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
