package ui

import (
	"fmt"
	"strings"

	"mcpwitness/record"
	"mcpwitness/render"
	"mcpwitness/replay"
	"mcpwitness/sanitize"
)

// allEventsKept is how many of the newest events of all servers the root
// keeps for the all-servers view.
const allEventsKept = 2000

// taggedEvent is an event of one of the servers, as the all-servers view
// lists it.
type taggedEvent struct {
	server int
	ev     record.Event
}

// keep remembers the events of server i for the all-servers view, the
// newest [allEventsKept] of them. Only what a row shows is kept: no frame.
func (r *serversModel) keep(i int, evs ...record.Event) {
	for _, ev := range evs {
		ev.Frame, ev.Items, ev.Data = nil, nil, nil
		r.all = append(r.all, taggedEvent{server: i, ev: ev})
	}
	if over := len(r.all) - allEventsKept; over > allEventsKept/4 {
		r.all = append(r.all[:0:0], r.all[over:]...)
	}
}

// allEventsView lists the newest events of every server, each with the
// server's number and name, oldest first, filling the screen above the
// servers' line.
func (r *serversModel) allEventsView() string {
	sty := r.current().m.Sty
	h := max(r.h-1, 1)
	lines := []string{sty.Title.Render("Events of every server") + sty.Muted.Render(fmt.Sprintf("  %d kept · E or esc closes", len(r.all)))}
	room := h - len(lines)
	from := max(len(r.all)-room, 0)
	for _, te := range r.all[from:] {
		s := r.servers[te.server]
		name := render.Fit(fmt.Sprintf("%d %s", te.server+1, s.name()), 18)
		row := sty.Muted.Render(te.ev.T.In(s.m.o.Loc).Format("15:04:05.000")) + " " +
			sty.Bold.Render(name) + " " +
			sty.Text.Render(sanitize.Line(replay.Describe(te.ev)))
		lines = append(lines, render.Fit(row, r.w))
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines[:h], "\n")
}
