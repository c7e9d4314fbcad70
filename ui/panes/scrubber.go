package panes

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Scrubber is the replay's control: its Keys ask for a position in the
// session file, and the model folds to it.
type Scrubber struct {
	Keys *ScrubberKeyMap
}

// Matches says whether msg is one of the Scrubber's Keys.
func (s Scrubber) Matches(msg tea.KeyPressMsg) bool {
	k := s.Keys
	return key.Matches(msg, k.StepBack, k.StepForward, k.PrevMoment, k.NextMoment, k.First, k.Last)
}

// Target returns the position msg asks for, moving from target in a file
// of n events whose moments (sorted) are given; ok is false for any other
// key.
func (s Scrubber) Target(msg tea.KeyPressMsg, target, n int, moments []int) (to int, ok bool) {
	k := s.Keys
	switch {
	case key.Matches(msg, k.StepBack):
		return target - 1, true
	case key.Matches(msg, k.StepForward):
		return target + 1, true
	case key.Matches(msg, k.PrevMoment):
		return prevMoment(target, moments), true
	case key.Matches(msg, k.NextMoment):
		return nextMoment(target, n, moments), true
	case key.Matches(msg, k.First):
		return 0, true
	case key.Matches(msg, k.Last):
		return n, true
	}
	return target, false
}

// nextMoment is the first moment after t, or the end.
func nextMoment(t, n int, moments []int) int {
	if i, _ := slices.BinarySearch(moments, t+1); i < len(moments) {
		return moments[i]
	}
	return n
}

// prevMoment is the last moment before t, or the start.
func prevMoment(t int, moments []int) int {
	if i, _ := slices.BinarySearch(moments, t); i > 0 {
		return moments[i-1]
	}
	return 0
}

// ShortHelp returns the Scrubber's Keys for the help line, paired.
func (s Scrubber) ShortHelp() []key.Binding {
	return []key.Binding{
		key.NewBinding(key.WithKeys(",", "."), key.WithHelp(",/.", "step")),
		key.NewBinding(key.WithKeys("<", ">"), key.WithHelp("</>", "moment")),
	}
}

// FullHelp returns every key of the Scrubber.
func (s Scrubber) FullHelp() [][]key.Binding {
	k := s.Keys
	return [][]key.Binding{{k.StepBack, k.StepForward, k.PrevMoment, k.NextMoment, k.First, k.Last}}
}
