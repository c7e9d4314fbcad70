package main

import (
	"fmt"
	"testing"
)

// TestCheckArgsSaysWhatIsWrong holds the error each command line with
// positional arguments or task flags that do not fit gets, word for word,
// and which one wins when several apply.
func TestCheckArgsSaysWhatIsWrong(t *testing.T) {
	t.Parallel()
	const (
		taskFlag = "--task is not a flag of %s (only of call); see mcpwitness help %s"
		ttlFlag  = "--task-ttl is not a flag of %s (only of call); see mcpwitness help %s"
		notBoth  = "give the arguments either as k=v pairs or as --args JSON, not both"
		noServer = "demo-server takes no server: it is one"
	)
	tests := []struct {
		args []string
		want string // "" for none
	}{
		{[]string{"tools", "--task"}, fmt.Sprintf(taskFlag, "tools", "tools")},
		{[]string{"tools", "--task-ttl", "5s"}, fmt.Sprintf(ttlFlag, "tools", "tools")},
		{[]string{"--task"}, "--task is not a flag of the terminal UI (only of call); see mcpwitness --help"},
		{[]string{"read", "x", "--task"}, fmt.Sprintf(taskFlag, "read", "read")},
		{[]string{"tools", "extra", "--task"}, fmt.Sprintf(taskFlag, "tools", "tools")},                                // over the extra argument
		{[]string{"demo-server", "--task", "--url", "http://x/"}, fmt.Sprintf(taskFlag, "demo-server", "demo-server")}, // over the server
		{[]string{"call", "add", "--task-ttl", "5s"}, "--task-ttl is the ttl of a task: give --task too"},
		{[]string{"call", "--task-ttl", "5s"}, "--task-ttl is the ttl of a task: give --task too"}, // over the missing tool
		{[]string{"call"}, "call needs a tool name: mcpwitness call TOOL [k=v ...] [--args JSON]"},
		{[]string{"call", "--args", "{}"}, "call needs a tool name: mcpwitness call TOOL [k=v ...] [--args JSON]"},
		{[]string{"call", "add", "a=1", "--args", "{}"}, notBoth},
		{[]string{"call", "add", "a", "--args", "{}"}, notBoth}, // over the bad pair
		{[]string{"call", "add", "a"}, `bad argument "a": want NAME=VALUE (or use --args JSON)`},
		{[]string{"call", "add", "=1"}, `bad argument "=1": want NAME=VALUE (or use --args JSON)`},
		{[]string{"call", "add", "a=1", "b"}, `bad argument "b": want NAME=VALUE (or use --args JSON)`},
		{[]string{"call", "add", "a=", "b=2=3"}, ""},
		{[]string{"call", "add", "--task", "--task-ttl", "5s"}, ""},
		{[]string{"call", "add", "--args", "{}"}, ""},
		{[]string{"tools", "--inherit-env"}, "-e, --cwd, --inherit-env, -H, --secret and --sse describe a server: give a command after -- or --url"},
		{[]string{"tools", "extra"}, `tools takes no arguments (got "extra"); put the server's command after --`},
		{[]string{"check", "a", "b"}, `check takes no arguments (got "a"); put the server's command after --`},
		{[]string{"resources", "x"}, `resources takes no arguments (got "x"); put the server's command after --`},
		{[]string{"prompts", "x"}, `prompts takes no arguments (got "x"); put the server's command after --`},
		{[]string{"ping", "x"}, `ping takes no arguments (got "x"); put the server's command after --`},
		{[]string{"tasks", "x"}, `tasks takes no arguments (got "x"); put the server's command after --`},
		{[]string{"demo-server", "x"}, noServer},
		{[]string{"demo-server", "--", "node", "s.js"}, noServer},
		{[]string{"demo-server", "--url", "http://x/"}, "--url is not a flag of demo-server; see mcpwitness help demo-server"},
		{[]string{"demo-server", "--config", "mcp.json"}, "--config is not a flag of demo-server; see mcpwitness help demo-server"},
		{[]string{"demo-server", "--http", "127.0.0.1:0"}, ""},
		{[]string{"read", "--task-ttl", "1s"}, fmt.Sprintf(ttlFlag, "read", "read")}, // over read's missing URI
		{[]string{"read"}, "read needs exactly one resource URI: mcpwitness read URI [--follow]"},
		{[]string{"prompt", "p", "x"}, `bad argument "x": want NAME=VALUE`},
		// The checks before and after checkArgs keep their place.
		{[]string{"tools", "extra", "--json", "--ndjson"}, "--json and --ndjson do not go together: pick one"},
		{[]string{"tools", "--url", "http://x/", "--", "y"}, "more than one server given: use either a command after -- or --url, not both"},
		{[]string{"tools", "extra", "--protocol", "1999-01-01"}, `tools takes no arguments (got "extra"); put the server's command after --`},
	}
	for _, tc := range tests {
		_, err := parseArgs(tc.args)
		got := ""
		if err != nil {
			got = err.Error()
			if exitCode(err) != exitUsage {
				t.Errorf("%q: exit %d, want %d", tc.args, exitCode(err), exitUsage)
			}
		}
		if got != tc.want {
			t.Errorf("%q:\n got %q\nwant %q", tc.args, got, tc.want)
		}
	}
}

// The terminal UI takes no positional argument: parseArgs makes the first
// one a command, so only a config built otherwise reaches this check.
func TestCheckArgsOfTheTerminalUI(t *testing.T) {
	t.Parallel()
	c := &config{args: []string{"stray"}}
	err := c.checkArgs()
	if want := `unexpected "stray"; put the server's command after --`; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
	if err := (&config{}).checkArgs(); err != nil {
		t.Errorf("no arguments: %v", err)
	}
}
