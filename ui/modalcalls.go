package ui

import (
	"sort"
	"strings"
	"time"

	"mcpwitness/fold"
	"mcpwitness/render"
	"mcpwitness/session"
	"mcpwitness/themes"
)

// The requests a call caused, as its timeline in the detail pane shows
// them: the server's own requests (sampling, elicitation, roots) and the
// answers given, from the events between the call's start and its end.

// maxAskRows bounds the rows a call's timeline shows of its requests;
// maxAskScan the rows searched for them, so a flood of other rows during a
// long call costs each frame a bounded scan.
const (
	maxAskRows = 60
	maxAskScan = 4096
)

// askRows returns the server-request rows recorded while c was in flight,
// oldest first: at most maxAskRows of them, among the first maxAskScan
// rows from its start.
func askRows(st *fold.State, c *fold.Call) []*fold.Row {
	if c == nil || c.Start.IsZero() {
		return nil
	}
	rows := st.Rows()
	n := rows.Len()
	first := sort.Search(n, func(i int) bool { return !rows.At(i).T.Before(c.Start) })
	var out []*fold.Row
	for i := first; i < n && i < first+maxAskScan && len(out) < maxAskRows; i++ {
		r := rows.At(i)
		if c.Done && !c.End.IsZero() && r.T.After(c.End) {
			break
		}
		if r.Kind == fold.RowServerCall && r.Method != session.MethodRootsChange {
			out = append(out, r)
		}
	}
	return out
}

// askLines draws a call's requests: when, which, and what was answered.
func askLines(rows []*fold.Row, start time.Time, w int, st *themes.Styles, loc *time.Location) []string {
	if len(rows) == 0 {
		return nil
	}
	d := render.NewDoc(w, st)
	d.Heading("Requests from the server during the call")
	for _, r := range rows {
		style := st.Text
		switch {
		case strings.HasPrefix(r.Text, "finding: "), strings.HasPrefix(r.Text, "declined: "), strings.HasPrefix(r.Text, "unanswered: "):
			style = st.Warn
		case strings.HasPrefix(r.Text, "asked"):
			style = st.Info
		}
		at := "+" + render.Ms(float64(r.T.Sub(start).Microseconds())/1000)
		d.Segs([]render.Seg{{Text: render.Clock(r.T, loc) + " ", Style: st.Muted}, {Text: at + " ", Style: st.Muted},
			{Text: r.Method + "  ", Style: st.Bold}, {Text: r.Text, Style: style}}, 4)
	}
	return d.Lines()
}
