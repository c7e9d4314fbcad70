package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"mcpwitness/render"
	"mcpwitness/themes"
)

// filterInput is the filter line of a list pane: the text input, whether
// it has the keys, and the query it holds; and the pane's keys outside
// it. The tools and items panes embed it and act on what its Update
// reports.
type filterInput struct {
	input  textinput.Model
	typing bool // the filter input has the keys
	query  string
	moves  *MoveKeyMap  // the pane's movement keys
	start  *key.Binding // the pane's key that starts filtering
}

// filterEvent is what a message given to the filter input did.
type filterEvent int

const (
	filterNone    filterEvent = iota // nothing for the pane to do
	filterCleared                    // esc: the input is empty and let go of the keys
	filterChanged                    // the query changed
)

// newFilterInput returns the filter line of a pane whose keys are moves
// and start.
func newFilterInput(moves *MoveKeyMap, start *key.Binding) filterInput {
	in := textinput.New()
	in.Prompt = "/"
	in.Placeholder = "filter"
	in.CharLimit = 200
	return filterInput{input: in, moves: moves, start: start}
}

func (f *filterInput) restyle(sty *themes.Styles) {
	s := f.input.Styles()
	s.Focused.Prompt = sty.Title
	s.Blurred.Prompt = sty.Muted
	s.Focused.Text = sty.Text
	s.Blurred.Text = sty.Text
	s.Focused.Placeholder = sty.Subtle
	s.Blurred.Placeholder = sty.Subtle
	f.input.SetStyles(s)
}

// setWidth sizes the input for a pane w wide.
func (f *filterInput) setWidth(w int) { f.input.SetWidth(max(w-16, 6)) }

// Filtering says whether the filter input has the keys.
func (f *filterInput) Filtering() bool { return f.typing }

// Filtered says whether a filter is applied.
func (f *filterInput) Filtered() bool { return f.query != "" }

// listKey handles msg for the list m while the input does not have the
// keys: a move key moves m, the filter key gives the input the keys.
func (f *filterInput) listKey(msg tea.Msg, m mover) tea.Cmd {
	if kp, ok := msg.(tea.KeyPressMsg); ok && !moveKey(kp, f.moves, m) && key.Matches(kp, *f.start) {
		return f.startFilter()
	}
	return nil
}

// startFilter gives the input the keys.
func (f *filterInput) startFilter() tea.Cmd {
	f.typing = true
	return f.input.Focus()
}

func (f *filterInput) stop() {
	f.typing = false
	f.input.Blur()
}

// clear empties the input and the query and takes the keys back.
func (f *filterInput) clear() {
	f.stop()
	f.input.SetValue("")
	f.query = ""
}

// Update handles msg for a list pane whose rows are m and says what the
// pane is to do. While the input has the keys esc clears it, enter and
// tab keep the filter, an arrow keeps it and moves m, and anything else
// is typed; otherwise a move key moves m and the filter key gives the
// input the keys.
func (f *filterInput) Update(msg tea.Msg, m mover) (filterEvent, tea.Cmd) {
	if !f.typing {
		return filterNone, f.listKey(msg, m)
	}
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch k.String() {
		case "esc":
			f.clear()
			return filterCleared, nil
		case "enter", "tab":
			f.stop()
			return filterNone, nil
		case "down", "up":
			f.stop()
			return filterNone, f.listKey(msg, m)
		}
	}
	var cmd tea.Cmd
	f.input, cmd = f.input.Update(msg)
	if q := strings.TrimSpace(f.input.Value()); q != f.query {
		f.query = q
		return filterChanged, cmd
	}
	return filterNone, cmd
}

// typingHelp returns the bindings shown while the input has the keys.
func (f *filterInput) typingHelp() []key.Binding {
	return []key.Binding{
		key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "keep filter")),
		key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
	}
}

// titleLine appends the input to a pane's title while it has the keys or a
// filter is applied, in place of what the title shows on the right.
func (f *filterInput) titleLine(left, right string, w int) string {
	if f.typing || f.query != "" {
		left += "  " + f.input.View()
		right = ""
	}
	gap := w - lipgloss.Width(left) - lipgloss.Width(right) - 1
	if gap < 1 {
		return render.Fit(left, w)
	}
	return left + strings.Repeat(" ", gap) + right + " "
}
