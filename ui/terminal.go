package ui

import (
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// terminal is the program option of a UI drawn on the process's stdout:
// the colour profile Lip Gloss detected for stdout and the environment as
// the process started (lipgloss.Writer). Left to itself, Bubble Tea
// detects it again on Run, and in tmux that runs `tmux info` (a process of
// its own) and reads the terminfo database, while the server is starting.
// Tests, which draw to a buffer, pass options of their own instead.
func terminal() tea.ProgramOption {
	return tea.WithColorProfile(lipgloss.Writer.Profile)
}
