package ui

import (
	"unicode"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
)

// filterDoneMsg carries the result of a fuzzy filter run in a command.
type filterDoneMsg struct {
	seq   int
	walk  *walkState
	n     int    // how many of the walk's tools were filtered
	query string // the query filtered for
	// hits maps each matching tool to the byte offsets of the matched
	// characters in its name.
	hits map[*toolEntry][]int
}

// filterCmd filters tools for query off the UI goroutine. tools must not
// change while it runs (tool entries never do; the slice is a snapshot).
func filterCmd(seq int, w *walkState, tools []*toolEntry, query string) tea.Cmd {
	return func() tea.Msg {
		hits := make(map[*toolEntry][]int)
		for _, t := range tools {
			if pos, ok := fuzzy(query, t.Label); ok {
				hits[t] = pos
			}
		}
		return filterDoneMsg{seq: seq, walk: w, n: len(tools), query: query, hits: hits}
	}
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
