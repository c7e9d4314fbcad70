package ui

import (
	"fmt"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// TestReplayGolden keeps the replay's screens: at the end of the fixture,
// in the middle of its walk, and on a call's verdicts.
func TestReplayGolden(t *testing.T) {
	scenes := map[string][]string{
		"end":  nil,
		"walk": {"{", ">", ">", ">", ">", ">", ">", ">"},
		"call": {"[", "<", "<", "<", "<", "<", "<", "<", "<", "<", "<", "<", "<", "<", "<"},
	}
	for _, scene := range []string{"end", "walk", "call"} {
		for _, size := range [][2]int{{80, 24}, {120, 40}} {
			for _, theme := range []string{"dark", "mono"} {
				t.Run(fmt.Sprintf("%s_%dx%d_%s", scene, size[0], size[1], theme), func(t *testing.T) {
					h := replayHarness(t, fixture, size[0], size[1], theme)
					if scene == "call" {
						h.m.tools.PickedKey = "forecast_broken"
						h.m.tools.Reselect()
						h.m.sync()
					}
					h.press(scenes[scene]...)
					view := h.m.View().Content
					checkFits(t, view, size[0], size[1])
					golden.RequireEqual(t, ansi.Strip(view))
				})
			}
		}
	}
}
