package session

import (
	"context"
	"fmt"
	"os"
	"testing"

	"mcpwitness/demo"
)

// The test binary doubles as a stdio demo server: a child started with
// MCPWITNESS_TEST_DEMO set serves the demo server and exits.
func TestMain(m *testing.M) {
	if os.Getenv("MCPWITNESS_TEST_DEMO") != "" {
		if err := demo.ServeStdio(context.Background(), nil); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	// The digest key a session makes in the user's config directory
	// (os.UserConfigDir reads XDG_CONFIG_HOME on Linux) stays out of the
	// real one.
	dir, err := os.MkdirTemp("", "mcpwitness-test-config-*")
	if err != nil {
		fmt.Fprintln(os.Stderr, "creating a config directory for the tests:", err)
		os.Exit(1)
	}
	os.Setenv("XDG_CONFIG_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
