package render

import (
	"fmt"
	"strings"
	"time"

	"mcpwitness/fold"
	"mcpwitness/session"
	"mcpwitness/themes"
)

// ReadFrame fills in f's bytes from the session file. A frame that cannot
// be read says why, as text.
func ReadFrame(f *fold.Frame, load func(int) (session.Event, error)) {
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

// FrameDoc builds the document of one frame.
func FrameDoc(f *fold.Frame, w int, s *themes.Styles, loc *time.Location) []string {
	d := NewDoc(w, s)
	dir := "sent"
	if f.Dir == session.Recv {
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
