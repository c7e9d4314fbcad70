package panes

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"mcpwitness/fold"
	"mcpwitness/render"
)

// DrawList renders a list pane: its title, then the rows from the offset
// in h lines w wide, each a separator (sep) or an entry (line, told
// whether the cursor is on it), blank below the last row. With no rows
// the first line says why (empty).
func (l *PagedList[R]) DrawList(title string, h, w int, empty func() string, sep func(R) string, line func(R, bool) string) string {
	var b strings.Builder
	b.WriteString(title)
	if len(l.Rows) == 0 && h > 0 {
		b.WriteString("\n" + render.Fit(empty(), w))
		h--
	}
	for i := 0; i < h; i++ {
		b.WriteByte('\n')
		n := l.Offset + i
		switch {
		case n >= len(l.Rows):
			b.WriteString(strings.Repeat(" ", w))
		case !l.IsEntry(n):
			b.WriteString(sep(l.Rows[n]))
		default:
			b.WriteString(line(l.Rows[n], n == l.Cursor))
		}
	}
	return b.String()
}

// PageLine draws the separator of page pg, w wide, for a list of one or
// many entries; shown is how many of the page's entries the filter kept,
// or -1 when no filter is applied. It takes the longest form that fits:
// "page 2 · 10 tools · 4 ms · ttl 30 s", then shorter, then cut in style.
func (pt *ToolPaints) PageLine(pg *fold.Page, shown int, one, many string, w int, style lipgloss.Style) string {
	count := fmt.Sprintf("%d %s", pg.Count, render.Plural(pg.Count, one, many))
	short := fmt.Sprint(pg.Count)
	if shown >= 0 {
		count = fmt.Sprintf("%d of %d %s", shown, pg.Count, many)
		short = fmt.Sprintf("%d/%d", shown, pg.Count)
	}
	tail := " · " + render.Ms(pg.Ms)
	if pg.HasTTL {
		tail += " · " + render.TTL(pg.TTLMs)
	}
	num := fmt.Sprintf("page %d · ", pg.Number)
	for _, text := range []string{num + count + tail, num + short + tail, fmt.Sprintf("p%d · ", pg.Number) + short + tail} {
		if tw := ansi.StringWidth(text); tw+3 <= w {
			return pt.sep.On("─ " + text + " " + strings.Repeat("─", w-tw-3))
		}
	}
	return render.Fit(style.Render(num+short), w)
}

// SelectedLine draws the row the cursor is on: the marker, text in the
// selection (dimmer when the pane has not the keys), then badges.
func (pt *ToolPaints) SelectedLine(text, badges string, focused, mono bool) string {
	style := pt.selBlur
	if focused {
		style = pt.sel
	}
	marker := "▌"
	if mono {
		marker = ">"
	}
	return pt.marker.On(marker) + style.On(" "+text+" ") + " " + badges + " "
}
