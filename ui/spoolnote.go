package ui

import (
	tea "charm.land/bubbletea/v2"

	"mcpwitness/record"
)

// spoolNotes shows on every server's status line what the shared log of a
// UI over several servers says of its export spool (see
// [record.SpoolStopped]): the spool is the shared log's sink, so no
// server's own log, which its screen folds, has it. It returns when c
// closes.
func spoolNotes(c <-chan record.Event, servers int, send func(tea.Msg)) {
	for ev := range c {
		if !record.SpoolStopped(ev) {
			continue
		}
		for i := range servers {
			send(serverMsg{i: i, msg: statusMsg{text: record.SpoolStoppedBrief(ev), level: levelWarn}})
		}
	}
}
