package main

import (
	"testing"

	"mcpwitness/internal/hostiletest"
)

// A stdio server started from a terminal cannot open it: it runs in a
// session of its own, without a controlling terminal, so nothing it writes
// reaches the screen past the sanitiser.
func TestChildCannotOpenTheTerminal(t *testing.T) {
	t.Parallel()
	needTmux(t)
	line := shellLine(t, "shell before mcpwitness", "call", "env", "name=@tty", "--",
		hostiletest.Build(t), "-mode", hostiletest.ModeEnv)
	x := startTmux(t, t.TempDir(), 120, 40, line)
	x.wait(`no terminal: .*\n(.*\n)*exit 0`)
}
