package demo

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// childEnv, when set to 1, makes the test binary serve the demo server over
// its own stdin and stdout instead of running tests.
const childEnv = "MCPWITNESS_DEMO_STDIO_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		if err := ServeStdio(context.Background(), nil); err != nil {
			fmt.Fprintln(os.Stderr, "demo server:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestServeStdioProcess(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=1")
	ev := newEvents()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "demo-test", Version: "0"}, ev.clientOptions()).
		Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	pages := walk(t, cs)
	checkPages(t, pages, 10, len(flatten(pages)))
	if res := call(t, cs, "add", map[string]any{"a": 2, "b": 2}); structured(t, res)["sum"] != 4.0 {
		t.Errorf("add over stdio: %v", res.StructuredContent)
	}
	slowCountProgress(t, cs, ev)
	if err := cs.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 0 {
		t.Errorf("the server process ended with %v, want exit status 0 once its client went away", cmd.ProcessState)
	}
}
