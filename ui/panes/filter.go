package panes

import (
	tea "charm.land/bubbletea/v2"

	"mcpwitness/fold"
	"mcpwitness/match"
)

// FilterDoneMsg carries the result of a fuzzy filter run in a command.
type FilterDoneMsg struct {
	seq   int
	walk  *fold.Walk
	n     int    // how many of the walk's tools were filtered
	query string // the query filtered for
	// Hits maps each matching tool to how it matched its label.
	Hits map[*fold.Tool]match.Hit
}

// FilterCmd filters tools for query off the UI goroutine. tools must not
// change while it runs (tool entries never do; the slice is a snapshot).
func FilterCmd(seq int, w *fold.Walk, tools []*fold.Tool, query string) tea.Cmd {
	return func() tea.Msg {
		hits := make(map[*fold.Tool]match.Hit)
		for _, t := range tools {
			if h, ok := match.Find(query, t.Label); ok {
				hits[t] = h
			}
		}
		return FilterDoneMsg{seq: seq, walk: w, n: len(tools), query: query, Hits: hits}
	}
}
