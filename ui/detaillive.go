package ui

import (
	"fmt"
	"time"

	"mcpwitness/record"
	"mcpwitness/render"
	"mcpwitness/sanitize"
)

// The detail pane's live lines sit between its title and its document:
// the spinner, task status and progress of a call in flight, and the
// question before a refused call is sent anyway.

// liveRows is the number of lines [detailPane.liveLines] draws.
func (d *detailPane) liveRows() int {
	c := d.Call()
	task := 0
	if taskRunning(c) {
		task = 1
	}
	switch {
	case c != nil && !c.Done && c.HasProgress:
		return 3 + task
	case c != nil && !c.Done:
		return 2 + task
	case d.confirm && c != nil:
		return 3
	}
	return 0
}

// liveLines are the lines that change without an event: the spinner and
// progress of a call in flight, and the confirmation prompt.
func (d *detailPane) liveLines(spin string, now time.Time) []string {
	s := d.Sty
	c := d.Call()
	switch {
	case c != nil && !c.Done:
		el := now.Sub(c.Start)
		if el < 0 {
			el = 0
		}
		hint := " · esc cancels"
		if d.readOnly {
			hint = " so far"
		}
		out := []string{render.Fit(" "+s.Spinner.Render(spin)+" "+s.Text.Render("calling "+sanitize.Line(c.Tool)+"…")+" "+
			s.Muted.Render(render.Dur(el)+hint), d.w)}
		if taskRunning(c) {
			style := s.Info
			if c.TaskStatus == record.TaskInputRequired {
				style = s.Warn
			}
			out = append(out, render.Fit("   "+style.Render(taskLine(c)), d.w))
		}
		if c.HasProgress {
			pct := 0.0
			if c.Total > 0 {
				pct = min(c.Progress/c.Total, 1)
			}
			label := fmt.Sprintf("%g", c.Progress)
			if c.Total > 0 {
				label += fmt.Sprintf("/%g", c.Total)
			}
			if c.ProgressMsg != "" {
				label += " " + sanitize.Line(c.ProgressMsg)
			}
			bar := d.bar
			bar.SetWidth(min(max(d.w-4-len(label), 10), 40))
			out = append(out, render.Fit("   "+bar.ViewAs(pct)+" "+s.Muted.Render(label), d.w))
		}
		return append(out, "")
	case d.confirm && c != nil:
		return []string{
			render.Fit(" "+s.Warn.Render(fmt.Sprintf("Send %s anyway, as a plain tools/call the checks refused?", sanitize.Line(c.Tool))), d.w),
			render.Fit(" "+s.Bold.Render("enter")+s.Muted.Render(" sends it · ")+s.Bold.Render("esc")+s.Muted.Render(" keeps it unsent"), d.w),
			"",
		}
	}
	return nil
}
