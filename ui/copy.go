package ui

import (
	"encoding/base64"
	"fmt"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"mcpwitness/render"
	"mcpwitness/sanitize"
)

// oscBufLimit is the longest escape sequence tmux takes by default (its
// input buffer, raised with its input-buffer-size option): an OSC 52
// longer than it is dropped, and nothing pastes.
const oscBufLimit = 1 << 20

// maxCopy is the longest OSC 52 sequence y sends: past it (a result of
// some 6 MB) the terminal would spend a while swallowing what most of them
// drop anyway, seconds over ssh. What is not copied is still in the
// session, whole.
const maxCopy = 8 << 20

// copySelected copies what is selected in the focused pane to the
// clipboard (see [model.copyOut]) with its control and invisible
// characters made visible by the sanitiser: what a server sent never
// reaches the clipboard with an ESC or a carriage return that would act
// when pasted into a terminal.
func (m *model) copySelected() tea.Cmd {
	cp, why := m.selection()
	shown := sanitize.Text(cp.Text)
	note := ""
	if shown != cp.Text {
		note = " · controls shown visibly (Y in the wire pane copies a frame raw)"
	}
	cp.Text = shown
	return m.copyOut(cp, why, note)
}

// copyRaw copies the wire pane's selected frame as it went over the
// wire, controls and all, and says so.
func (m *model) copyRaw() tea.Cmd {
	cp, why := m.wire.Copy()
	cp.What = "raw " + cp.What
	return m.copyOut(cp, why, " · raw, as sent: controls included")
}

// copyOut copies cp to the clipboard with OSC 52 ([tea.SetClipboard]) and
// says on the status line what was copied, how many bytes, and note. A
// terminal that refuses OSC 52 says nothing back, so the message says
// what to do when nothing pastes. A copy whose sequence tmux would drop
// says so; one past [maxCopy] is not sent, and the status line says where
// the text is. why, if not "", says why there is nothing to copy.
func (m *model) copyOut(cp render.Copy, why, note string) tea.Cmd {
	if why != "" {
		return m.setStatus(why, levelInfo)
	}
	if cp.Text == "" {
		return m.setStatus("nothing to copy: the "+cp.What+" is empty", levelInfo)
	}
	seq := len(ansi.SetSystemClipboard("")) + base64.StdEncoding.EncodedLen(len(cp.Text))
	if seq > maxCopy {
		where := "the session file holds it"
		if m.o.Export != nil {
			where = "e exports it in the session"
		}
		return m.setStatus(fmt.Sprintf("not copied: %s of %s (OSC 52 of %s, past the %d MiB y sends); %s",
			cp.What, render.Size(len(cp.Text)), render.Size(seq), maxCopy>>20, where), levelWarn)
	}
	if seq > oscBufLimit {
		text := fmt.Sprintf("copied %s · %s%s · OSC 52 of %s, past the %d MiB tmux takes unless its input-buffer-size is raised",
			cp.What, render.Size(len(cp.Text)), note, render.Size(seq), oscBufLimit>>20)
		return tea.Batch(tea.SetClipboard(cp.Text), m.setStatus(text, levelWarn))
	}
	text := fmt.Sprintf("copied %s · %s%s · OSC 52 (nothing pastes? the terminal refuses OSC 52; tmux needs set-clipboard on)",
		cp.What, render.Size(len(cp.Text)), note)
	return tea.Batch(tea.SetClipboard(cp.Text), m.setStatus(text, levelOK))
}

// selection is what y copies now, or why there is nothing to copy: on
// the authorization screen its URL; in the wire pane the frame; in the events pane the event (an OAuth
// step's URL, a call's verdicts); an event opened whole, the section of
// it in view; in the tools pane the tool's definition, in the detail
// pane the section in view of the tool (a schema) or of the call (its
// verdicts with their paths, arguments, result, structuredContent); in
// the other tabs the item's URI (a prompt's name, a template's URI
// template), or in their detail pane the latest read's or get's result.
func (m *model) selection() (render.Copy, string) {
	switch {
	case m.authScreen():
		return render.Copy{What: "authorization URL", Text: m.restarts.authURL}, ""
	case m.focus == paneWire || m.focus == paneFrame:
		return m.wire.Copy()
	case m.focus == paneEvents:
		r := m.events.SelectedRow()
		if r == nil {
			return render.Copy{}, "no event selected"
		}
		cp := render.RowCopy(r)
		if cp.What == render.CopyEvent {
			cp.Text = render.ClockMs(r.T, m.o.Loc) + " " + cp.Text
		}
		return cp, ""
	case m.focus == paneDetail && m.whole.Shown():
		return m.whole.Copy(), ""
	case m.tab != tabTools && m.focus == paneDetail && m.item.Latest() != nil && len(m.item.Latest().Result) > 0:
		return render.Copy{What: render.CopyResult, Text: render.Pretty(m.item.Latest().Result)}, ""
	case m.tab != tabTools:
		it := m.items[m.tab.item()].Selected()
		if it == nil {
			return render.Copy{}, "no item selected"
		}
		switch {
		case it.URI != "":
			return render.Copy{What: "URI", Text: it.URI}, ""
		case it.URITemplate != "":
			return render.Copy{What: "URI template", Text: it.URITemplate}, ""
		}
		return render.Copy{What: "name", Text: it.Name}, ""
	case m.focus == paneDetail:
		if c := m.detail.Call(); c != nil {
			return render.CallCopy(c, sectionAt(&m.detail.sc)), ""
		}
		if t := m.detail.Tool(); t != nil {
			return render.ToolCopy(t, sectionAt(&m.detail.sc)), ""
		}
		return render.Copy{}, "no tool shown"
	}
	t := m.tools.Selected()
	if t == nil {
		return render.Copy{}, "no tool selected"
	}
	return render.ToolCopy(t, ""), ""
}
