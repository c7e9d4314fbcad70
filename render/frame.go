package render

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"mcpwitness/fold"
	"mcpwitness/sanitize"

	"mcpwitness/record"
	"mcpwitness/themes"
)

// ReadFrame fills in f's bytes from the session file. A frame that cannot
// be read says why, as text.
func ReadFrame(f *fold.Frame, load func(int) (record.Event, error)) {
	ev, err := load(f.Src - 1)
	switch {
	case err != nil:
		f.Text = "could not read this frame from the session file: " + err.Error()
	case len(ev.Frame) == 0 && ev.Text == "":
		f.Text = fmt.Sprintf("event %d of the session file holds no frame", f.Src)
	default:
		f.Frame, f.Text = ev.Frame, ev.Text
	}
}

// FrameDoc builds the document of one frame: its JSON keeps each line
// whole, for a view that scrolls sideways; what is not JSON wraps.
func FrameDoc(f *fold.Frame, w int, s *themes.Styles, loc *time.Location) []string {
	d := NewWideDoc(w, s)
	dir := "sent"
	if f.Dir == record.Recv {
		dir = "received"
	}
	parts := []string{dir, ClockMs(f.T, loc), Size(f.Size)}
	if f.Latency > 0 {
		parts = append(parts, "answered in "+Dur(f.Latency))
	}
	d.Add(s.Muted.Render(strings.Join(parts, " · ")) + "  " + s.Subtle.Render("y copies"))
	if len(f.Frame) == 0 {
		d.Text(s.Warn, "not JSON:", 0)
		d.Text(s.Text, f.Text, 2)
		return d.Lines()
	}
	d.JSON(f.Frame, 0)
	return d.Lines()
}

// FrameRow says one frame on a line of the wire list about width cells
// wide (its direction mark before it): time, method, id, size, the
// latency of an answer, then what the frame is about, as room allows.
func FrameRow(f *fold.Frame, width int, loc *time.Location) string {
	method := sanitize.Line(f.Method)
	switch {
	case f.Text != "" && len(f.Frame) == 0:
		method = "(not JSON)"
	case method == "" && f.ID != "":
		method = "(answer)"
	}
	id := ""
	if f.ID != "" {
		id = "#" + sanitize.Line(strings.Trim(f.ID, `"`))
	}
	lat := ""
	if f.Latency > 0 {
		lat = Dur(f.Latency)
	}
	// dir, time, method, id, size, latency, then what the frame is about.
	mw := min(max((width-40)/2, 12), 30)
	text := fmt.Sprintf("%s %-*s %-6s %8s %8s", ClockMs(f.T, loc), mw, Trunc(method, mw), Trunc(id, 6), Size(f.Size), lat)
	if rest := width - 3 - ansi.StringWidth(text) - 2; rest > 4 && f.Note != "" {
		text += "  " + Trunc(sanitize.Line(f.Note), rest)
	}
	return text
}
