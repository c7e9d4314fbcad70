package main

import (
	"slices"
	"strings"
	"time"

	"mcpwitness/session"
)

// config is a command line: what [parseArgs] read from it, and then what
// [resolve] made of it.
type config struct {
	cmd  string   // "" for the TUI, or tools, call, demo-server, …
	args []string // positional arguments after the command

	target   session.Target
	json     bool
	ndjson   bool
	record   string
	maxPages int
	maxFrame int64 // 0: session.DefaultMaxFrame
	spoolMax int64 // --spool-max: 0 record.DefaultSpoolMax, -1 no cap
	timeout  time.Duration
	protocol string
	theme    string
	roots    []string
	elicit   *session.ElicitAnswer  // --elicit: answer elicitation/create
	sampling *session.SamplingReply // --sampling-reply: answer sampling/createMessage
	force    bool
	walkAll  bool          // call: read every page of tools/list, not only up to the tool's
	noSettle bool          // --no-settle: keep the first walk of a list that changed under it
	task     bool          // call --task: run the tool as a task
	taskTTL  time.Duration // call --task-ttl: the ttl the task asks for
	argsJSON string
	argsSet  bool
	version  bool
	color    string // --color: auto (""), always or never
	// done: the parser answered the command line itself (help, a shell
	// completion request); nothing is left to run.
	done   bool
	config string
	server string
	// digestKey is --digest-key FILE: the key of the digests of secret
	// values ("" for the one in the user's config directory).
	digestKey string
	// secretFile and secretEnv are --client-secret-file and
	// --client-secret-env, read into target.ClientSecret by resolve.
	secretFile, secretEnv string
	junit                 string // check --junit FILE: JUnit XML of the findings

	// resources, read, prompts, prompt, complete, ping
	logLevel string // --log-level: logging/setLevel right after connecting
	follow   bool   // read --follow
	count    int    // ping --count; read --follow stops after --count updates
	prompt   string // complete --prompt NAME
	template string // complete --template URI

	// demo-server
	httpAddr string
	auth     bool // --auth: the HTTP endpoint behind OAuth
	pageSize int
	filler   int
	ttlMs    int

	// Set by resolve: the target above with --config's server, ${env:…}
	// and the demo-server default filled in; NO_COLOR.
	noColor bool
	// servers are the servers of --config that the TUI and check open
	// when --server names none or several (nil otherwise): entries with one
	// config hash merged into one server with all their names.
	servers []configServer
}

// check says what on the command line does not go together.
func (c *config) check() error {
	for _, check := range []func() error{c.checkOutput, c.checkServer, c.checkArgs, c.checkProtocol} {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

func (c *config) checkOutput() error {
	if c.json && c.ndjson {
		return usagef("--json and --ndjson do not go together: pick one")
	}
	if c.spoolMax != 0 && c.record != "" {
		return usagef("--spool-max bounds the export spool, which --record replaces: with --record FILE, e exports the record, which is never capped")
	}
	return nil
}

// checkServer checks the flags that name and describe a server. A server
// from --config is checked when it is read (see [resolve]).
func (c *config) checkServer() error {
	named := c.target.URL != "" || len(c.target.Command) > 0
	if err := c.clientSecret().check(); err != nil {
		return usageError{err.Error()}
	}
	t := c.target
	if c.secretFile != "" || c.secretEnv != "" {
		// Read by resolve; here only that there is one counts.
		t.ClientSecret = "(from " + c.secretFile + c.secretEnv + ")"
	}
	switch {
	case c.target.URL != "" && len(c.target.Command) > 0:
		return usagef("more than one server given: use either a command after -- or --url, not both")
	case c.server != "" && c.config == "":
		return usagef("--server picks a server from --config FILE; give the file too")
	case c.config != "" && named:
		return usagef("--config names the server already: drop the -- command or --url")
	case c.config != "":
		return nil
	case named:
		if err := t.Validate(); err != nil {
			return usageError{err.Error()}
		}
	case len(c.target.Env) > 0 || c.target.Dir != "" || c.target.InheritEnv || len(c.target.Headers) > 0 || c.target.SSE || len(c.target.SecretNames) > 0:
		return usagef("-e, --cwd, --inherit-env, -H, --secret and --sse describe a server: give a command after -- or --url")
	case t.SetsHTTPAuth():
		return usagef("--header-cmd, --oauth, --oauth-issuer and the --client-… flags describe an HTTP server: give --url")
	}
	return nil
}

// checkArgs checks the positional arguments of the command, by family, and
// the task flags, which only call takes.
func (c *config) checkArgs() error {
	switch c.cmd {
	case "call":
		return c.checkCallArgs()
	case "read", "prompt", "complete":
		return c.checkRequestArgs()
	case "tools", "check", "resources", "prompts", "ping", "tasks":
		if len(c.args) > 0 {
			return usagef("%s takes no arguments (got %q); put the server's command after --", c.cmd, c.args[0])
		}
	case "demo-server":
		return c.checkDemoServerArgs()
	case "completion":
		return c.checkCompletionArgs()
	case "":
		if len(c.args) > 0 {
			return usagef("unexpected %q; put the server's command after --", c.args[0])
		}
	}
	return nil
}

// checkCallArgs checks call's tool name and its arguments, given either as
// k=v pairs or as --args JSON, and that --task-ttl comes with --task.
func (c *config) checkCallArgs() error {
	if c.taskTTL > 0 && !c.task {
		return usagef("--task-ttl is the ttl of a task: give --task too")
	}
	if len(c.args) == 0 {
		return usagef("call needs a tool name: mcpwitness call TOOL [k=v ...] [--args JSON]")
	}
	if c.argsSet && len(c.args) > 1 {
		return usagef("give the arguments either as k=v pairs or as --args JSON, not both")
	}
	for _, kv := range c.args[1:] {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" {
			return usagef("bad argument %q: want NAME=VALUE (or use --args JSON)", kv)
		}
	}
	return nil
}

// checkDemoServerArgs checks that demo-server, which is a server, is given
// none: no argument, no command after --, no --url, no --config.
func (c *config) checkDemoServerArgs() error {
	if len(c.args) > 0 || len(c.target.Command) > 0 || c.target.URL != "" || c.config != "" {
		return usagef("demo-server takes no server: it is one")
	}
	return nil
}

// checkRequestArgs checks the arguments of read, prompt and complete.
func (c *config) checkRequestArgs() error {
	switch c.cmd {
	case "read":
		if len(c.args) != 1 {
			return usagef("read needs exactly one resource URI: mcpwitness read URI [--follow]")
		}
		if c.follow && c.json {
			return usagef("--follow prints each update as it comes: use --ndjson, not --json")
		}
		return nil
	case "prompt":
		if len(c.args) == 0 {
			return usagef("prompt needs a prompt name: mcpwitness prompt NAME [k=v ...] [--args JSON]")
		}
		if c.argsSet && len(c.args) > 1 {
			return usagef("give the arguments either as k=v pairs or as --args JSON, not both")
		}
	case "complete":
		if (c.prompt == "") == (c.template == "") {
			return usagef("complete needs exactly one of --prompt NAME or --template URI")
		}
		if len(c.args) == 0 {
			return usagef("complete needs the argument to complete: mcpwitness complete --prompt NAME ARG=PARTIAL [k=v ...]")
		}
	}
	for _, kv := range c.args[1:] {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" {
			return usagef("bad argument %q: want NAME=VALUE", kv)
		}
	}
	if c.cmd == "complete" {
		if k, _, ok := strings.Cut(c.args[0], "="); !ok || k == "" {
			return usagef("bad argument %q: want ARG=PARTIAL (the partial value may be empty: ARG=)", c.args[0])
		}
	}
	return nil
}

func (c *config) checkProtocol() error {
	if c.protocol != "" && !slices.Contains(session.SupportedProtocols(), c.protocol) {
		return usagef("unknown --protocol %q; supported: %s", c.protocol, strings.Join(session.SupportedProtocols(), ", "))
	}
	return nil
}

// wantsJSON reports whether a command line asks a command that writes a
// document for --json, for the error document of a command line that
// could not be parsed.
func wantsJSON(args []string) bool {
	args = commandFirst(args, (&parser{c: &config{}}).tree())
	if len(args) == 0 || !writesDocument(args[0]) {
		return false
	}
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "--json" {
			return true
		}
	}
	return false
}

// commandNames lists the commands and help, as the usage error names them.
func commandNames() []string {
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	return append(names, "help")
}

func isCommand(s string) bool { return slices.Contains(commandNames(), s) }
