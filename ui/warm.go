package ui

import "github.com/charmbracelet/x/ansi"

// Warm fills the tables the first frame needs that every process builds
// alike: the width of every rune, which go-runewidth lays out (2 MiB)
// the first time a rune past U+02FF is measured, as the screen's rules and
// marks are. That is some 15 ms where page faults are dear, on the frame
// that shows while the server starts. Run calls it on a goroutine of its
// own once the server is being started (before, on two cores, it held up
// the spawn), and the first frame finds it done.
func Warm() {
	ansi.WcWidth.StringWidth("│")
	ansi.GraphemeWidth.StringWidth("│")
}
