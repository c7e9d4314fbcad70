package panes

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"mcpwitness/render"
	"mcpwitness/themes"
)

// FilterInput is the filter line of a list pane: the text input, whether
// it has the keys, and the query it holds; and the pane's keys outside
// it. The tools and items panes embed it and act on what its Update
// reports.
type FilterInput struct {
	Input  textinput.Model
	Typing bool // the filter input has the keys
	Query  string
	moves  *MoveKeyMap  // the pane's movement keys
	start  *key.Binding // the pane's key that starts filtering
}

// FilterEvent is what a message given to the filter input did.
type FilterEvent int

const (
	FilterNone    FilterEvent = iota // nothing for the pane to do
	FilterCleared                    // esc: the input is empty and let go of the keys
	FilterChanged                    // the query changed
)

// NewFilterInput returns the filter line of a pane whose keys are moves
// and start.
func NewFilterInput(moves *MoveKeyMap, start *key.Binding) FilterInput {
	in := textinput.New()
	in.Prompt = "/"
	in.Placeholder = "filter"
	in.CharLimit = 200
	return FilterInput{Input: in, moves: moves, start: start}
}

func (f *FilterInput) Restyle(sty *themes.Styles) {
	s := f.Input.Styles()
	s.Focused.Prompt = sty.Title
	s.Blurred.Prompt = sty.Muted
	s.Focused.Text = sty.Text
	s.Blurred.Text = sty.Text
	s.Focused.Placeholder = sty.Subtle
	s.Blurred.Placeholder = sty.Subtle
	f.Input.SetStyles(s)
}

// SetWidth sizes the input for a pane w wide.
func (f *FilterInput) SetWidth(w int) { f.Input.SetWidth(max(w-16, 6)) }

// Filtering says whether the filter input has the keys.
func (f *FilterInput) Filtering() bool { return f.Typing }

// Filtered says whether a filter is applied.
func (f *FilterInput) Filtered() bool { return f.Query != "" }

// ListKey handles msg for the list m while the input does not have the
// keys: a move key moves m, the filter key gives the input the keys.
func (f *FilterInput) ListKey(msg tea.Msg, m Mover) tea.Cmd {
	if kp, ok := msg.(tea.KeyPressMsg); ok && !MoveKey(kp, f.moves, m) && key.Matches(kp, *f.start) {
		return f.StartFilter()
	}
	return nil
}

// StartFilter gives the input the keys.
func (f *FilterInput) StartFilter() tea.Cmd {
	f.Typing = true
	return f.Input.Focus()
}

func (f *FilterInput) Stop() {
	f.Typing = false
	f.Input.Blur()
}

// Clear empties the input and the query and takes the keys back.
func (f *FilterInput) Clear() {
	f.Stop()
	f.Input.SetValue("")
	f.Query = ""
}

// Update handles msg for a list pane whose rows are m and says what the
// pane is to do. While the input has the keys esc clears it, enter and
// tab keep the filter, an arrow keeps it and moves m, and anything else
// is typed; otherwise a move key moves m and the filter key gives the
// input the keys.
func (f *FilterInput) Update(msg tea.Msg, m Mover) (FilterEvent, tea.Cmd) {
	if !f.Typing {
		return FilterNone, f.ListKey(msg, m)
	}
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch k.String() {
		case "esc":
			f.Clear()
			return FilterCleared, nil
		case "enter", "tab":
			f.Stop()
			return FilterNone, nil
		case "down", "up":
			f.Stop()
			return FilterNone, f.ListKey(msg, m)
		}
	}
	var cmd tea.Cmd
	f.Input, cmd = f.Input.Update(msg)
	if q := strings.TrimSpace(f.Input.Value()); q != f.Query {
		f.Query = q
		return FilterChanged, cmd
	}
	return FilterNone, cmd
}

// TypingHelp returns the bindings shown while the input has the keys.
func (f *FilterInput) TypingHelp() []key.Binding {
	return []key.Binding{
		key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "keep filter")),
		key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
	}
}

// TitleLine appends the input to a pane's title while it has the keys or a
// filter is applied, in place of what the title shows on the right.
func (f *FilterInput) TitleLine(left, right string, w int) string {
	if f.Typing || f.Query != "" {
		left += "  " + f.Input.View()
		right = ""
	}
	gap := w - lipgloss.Width(left) - lipgloss.Width(right) - 1
	if gap < 1 {
		return render.Fit(left, w)
	}
	return left + strings.Repeat(" ", gap) + right + " "
}
