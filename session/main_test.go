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
	os.Exit(m.Run())
}
