package main

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"mcpwitness/session"
)

// config is a command line: what [parseArgs] read from it, and then what
// [resolve] made of it.
type config struct {
	cmd  string   // "" for the TUI, or tools, call, demo-server, help
	args []string // positional arguments after the command

	target   session.Target
	json     bool
	ndjson   bool
	record   string
	maxPages int
	maxFrame int64 // 0: session.DefaultMaxFrame
	spoolMax int64 // --spool-max: 0 session.DefaultSpoolMax, -1 no cap
	timeout  time.Duration
	protocol string
	theme    string
	roots    []string
	elicit   *session.ElicitAnswer  // --elicit: answer elicitation/create
	sampling *session.SamplingReply // --sampling-reply: answer sampling/createMessage
	force    bool
	walkAll  bool          // call: read every page of tools/list, not only up to the tool's
	noSettle bool          // --no-settle: keep a headless walk during which the list changed
	task     bool          // call --task: run the tool as a task
	taskTTL  time.Duration // call --task-ttl: the ttl the task asks for
	argsJSON string
	argsSet  bool
	help     bool
	version  bool
	config   string
	server   string
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

type flagSpec struct {
	names []string
	value bool // takes a value
	set   func(c *config, v string) error
}

// flagSpecs is every flag the command line takes.
func flagSpecs() []flagSpec {
	return slices.Concat(outputFlags(), serverFlags(), commandFlags())
}

// outputFlags are the flags of output, limits and checks, taken by most commands.
func outputFlags() []flagSpec {
	return []flagSpec{
		{[]string{"--json"}, false, func(c *config, _ string) error { c.json = true; return nil }},
		{[]string{"--ndjson"}, false, func(c *config, _ string) error { c.ndjson = true; return nil }},
		{[]string{"--record"}, true, func(c *config, v string) error { c.record = v; return nil }},
		{[]string{"--spool-max"}, true, func(c *config, v string) error {
			n, err := parseSpoolMax(v)
			c.spoolMax = n
			return err
		}},
		{[]string{"--max-pages"}, true, func(c *config, v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return usagef("--max-pages wants a whole number of at least 1, not %q", v)
			}
			c.maxPages = n
			return nil
		}},
		{[]string{"--max-frame"}, true, func(c *config, v string) error {
			n, err := parseSize(v)
			if err != nil {
				return usagef("--max-frame %s", err)
			}
			c.maxFrame = n
			return nil
		}},
		{[]string{"--timeout"}, true, func(c *config, v string) error {
			d, err := time.ParseDuration(v)
			if err != nil || d <= 0 {
				return usagef("--timeout wants a positive duration such as 30s or 2m, not %q", v)
			}
			c.timeout = d
			return nil
		}},
		{[]string{"--protocol"}, true, func(c *config, v string) error { c.protocol = v; return nil }},
		{[]string{"--theme"}, true, func(c *config, v string) error { c.theme = v; return nil }},
		{[]string{"--force"}, false, func(c *config, _ string) error { c.force = true; return nil }},
		{[]string{"--walk-all"}, false, func(c *config, _ string) error { c.walkAll = true; return nil }},
		{[]string{"--no-settle"}, false, func(c *config, _ string) error { c.noSettle = true; return nil }},
		{[]string{"-h", "--help"}, false, func(c *config, _ string) error { c.help = true; return nil }},
		{[]string{"--version"}, false, func(c *config, _ string) error { c.version = true; return nil }},
		{[]string{"--log-level"}, true, func(c *config, v string) error {
			if !slices.Contains(session.LogLevels(), v) {
				return usagef("--log-level wants one of %s, not %q", strings.Join(session.LogLevels(), ", "), v)
			}
			c.logLevel = v
			return nil
		}},
	}
}

// serverFlags are the flags that pick and reach the server.
func serverFlags() []flagSpec {
	return []flagSpec{
		{[]string{"--url"}, true, func(c *config, v string) error { c.target.URL = v; return nil }},
		{[]string{"-H", "--header"}, true, func(c *config, v string) error { c.target.Headers = append(c.target.Headers, v); return nil }},
		{[]string{"--sse"}, false, func(c *config, _ string) error { c.target.SSE = true; return nil }},
		{[]string{"--no-retry"}, false, func(c *config, _ string) error { c.target.NoRetry = true; return nil }},
		{[]string{"--header-cmd"}, true, func(c *config, v string) error { c.target.HeaderCmd = v; return nil }},
		{[]string{"--oauth"}, true, func(c *config, v string) error {
			if !slices.Contains(session.OAuthModes(), v) {
				return usagef("--oauth wants one of %s, not %q", strings.Join(session.OAuthModes(), ", "), v)
			}
			c.target.OAuth = session.OAuthMode(v)
			if v == "auto" {
				c.target.OAuth = session.OAuthAuto
			}
			return nil
		}},
		{[]string{"--client-id"}, true, func(c *config, v string) error { c.target.ClientID = v; return nil }},
		{[]string{"--client-secret"}, true, func(c *config, v string) error { c.target.ClientSecret = v; return nil }},
		{[]string{"--client-secret-file"}, true, func(c *config, v string) error { c.secretFile = v; return nil }},
		{[]string{"--client-secret-env"}, true, func(c *config, v string) error { c.secretEnv = v; return nil }},
		{[]string{"--oauth-issuer"}, true, func(c *config, v string) error { c.target.OAuthIssuer = v; return nil }},
		{[]string{"--client-key"}, true, func(c *config, v string) error { c.target.ClientKey = v; return nil }},
		{[]string{"--client-metadata-url"}, true, func(c *config, v string) error { c.target.ClientMetadataURL = v; return nil }},
		{[]string{"-e", "--env"}, true, func(c *config, v string) error { c.target.Env = append(c.target.Env, v); return nil }},
		{[]string{"--cwd"}, true, func(c *config, v string) error { c.target.Dir = v; return nil }},
		{[]string{"--inherit-env"}, false, func(c *config, _ string) error { c.target.InheritEnv = true; return nil }},
		{[]string{"--secret"}, true, func(c *config, v string) error {
			if strings.TrimSpace(v) == "" {
				return usagef("--secret wants the name of an environment variable or header whose value is a secret, e.g. --secret MY_VAR")
			}
			c.target.SecretNames = append(c.target.SecretNames, strings.TrimSpace(v))
			return nil
		}},
		{[]string{"--root"}, true, func(c *config, v string) error { c.roots = append(c.roots, v); return nil }},
		{[]string{"--elicit"}, true, func(c *config, v string) error {
			a, err := session.ParseElicit(v)
			if err != nil {
				return usagef("%v", err)
			}
			c.elicit = a
			return nil
		}},
		{[]string{"--sampling-reply"}, true, func(c *config, v string) error {
			r, err := session.ParseSamplingReply(v)
			if err != nil {
				return usagef("%v", err)
			}
			if c.sampling != nil && c.sampling.Decline {
				return usagef("--sampling-reply and --sampling-decline are two answers to sampling: give one")
			}
			c.sampling = r
			return nil
		}},
		{[]string{"--sampling-decline"}, false, func(c *config, _ string) error {
			if c.sampling != nil && !c.sampling.Decline {
				return usagef("--sampling-reply and --sampling-decline are two answers to sampling: give one")
			}
			c.sampling = &session.SamplingReply{Decline: true}
			return nil
		}},
		{[]string{"--config"}, true, func(c *config, v string) error { c.config = v; return nil }},
		{[]string{"--server"}, true, func(c *config, v string) error { c.server = v; return nil }},
		{[]string{"--digest-key"}, true, func(c *config, v string) error { c.digestKey = v; return nil }},
	}
}

// commandFlags are the flags of one command or a few (call, read, ping, complete, demo-server).
func commandFlags() []flagSpec {
	return []flagSpec{
		{[]string{"--args"}, true, func(c *config, v string) error { c.argsJSON, c.argsSet = v, true; return nil }},
		{[]string{"--task"}, false, func(c *config, _ string) error { c.task = true; return nil }},
		{[]string{"--task-ttl"}, true, func(c *config, v string) error {
			d, err := time.ParseDuration(v)
			if err != nil || d < time.Millisecond {
				return usagef("--task-ttl wants a duration of at least 1ms such as 60s or 10m, not %q", v)
			}
			c.taskTTL = d
			return nil
		}},
		{[]string{"--follow"}, false, func(c *config, _ string) error { c.follow = true; return nil }},
		{[]string{"--count"}, true, intFlag("--count", func(c *config) *int { return &c.count })},
		{[]string{"--prompt"}, true, func(c *config, v string) error { c.prompt = v; return nil }},
		{[]string{"--template"}, true, func(c *config, v string) error { c.template = v; return nil }},
		{[]string{"--http"}, true, func(c *config, v string) error { c.httpAddr = v; return nil }},
		{[]string{"--auth"}, false, func(c *config, _ string) error { c.auth = true; return nil }},
		{[]string{"--page-size"}, true, intFlag("--page-size", func(c *config) *int { return &c.pageSize })},
		{[]string{"--filler"}, true, intFlag("--filler", func(c *config) *int { return &c.filler })},
		{[]string{"--ttl-ms"}, true, intFlag("--ttl-ms", func(c *config) *int { return &c.ttlMs })},
		{[]string{"--junit"}, true, func(c *config, v string) error { c.junit = v; return nil }},
	}
}

func intFlag(name string, field func(*config) *int) func(*config, string) error {
	return func(c *config, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return usagef("%s wants a whole number, not %q", name, v)
		}
		*field(c) = n
		return nil
	}
}

// parseArgs reads the command line into a config, and checks that its
// parts go together. It reads nothing else: no file, no environment (see
// [resolve]). Flags may come anywhere before "--"; everything after "--"
// is the command of a stdio server.
func parseArgs(args []string) (*config, error) {
	c := &config{}
	specs := flagSpecs()
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			c.target.Command = args[i+1:]
			if len(c.target.Command) == 0 {
				return nil, usagef("nothing after --: give the server's command, e.g. -- node server.js")
			}
			i = len(args)
		case strings.HasPrefix(a, "-") && a != "-":
			next, err := c.setFlag(specs, args, i)
			if err != nil {
				return nil, err
			}
			i = next
		case c.cmd == "" && len(c.args) == 0:
			if !isCommand(a) {
				return nil, usagef("unknown command %q; commands are %s (or none, for the terminal UI)", a, strings.Join(commandNames(), ", "))
			}
			c.cmd = a
		default:
			c.args = append(c.args, a)
		}
	}
	if c.cmd == "help" {
		c.help, c.cmd = true, ""
		if len(c.args) > 0 {
			c.cmd, c.args = c.args[0], nil
			if !isCommand(c.cmd) || c.cmd == "help" {
				return nil, usagef("no help for %q; commands are %s", c.cmd, strings.Join(commandNames(), ", "))
			}
		}
	}
	if c.help || c.version {
		return c, nil
	}
	return c, c.check()
}

// setFlag sets the flag at args[i] (with its value, from "--flag=value" or
// the next argument) and returns the index of the last argument it used.
func (c *config) setFlag(specs []flagSpec, args []string, i int) (int, error) {
	name, value, hasValue := strings.Cut(args[i], "=")
	spec, ok := findFlag(specs, name)
	switch {
	case !ok:
		return i, usagef("unknown flag %s; see mcpwitness --help", name)
	case spec.value && !hasValue:
		if i+1 >= len(args) {
			return i, usagef("%s needs a value", name)
		}
		i++
		value = args[i]
	case !spec.value && hasValue:
		return i, usagef("%s takes no value", name)
	}
	return i, spec.set(c, value)
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
	if c.junit != "" && c.cmd != "check" {
		return usagef("--junit FILE is for check: mcpwitness check --junit FILE [server | --config FILE]")
	}
	switch {
	case c.spoolMax != 0 && c.cmd != "":
		return usagef("--spool-max bounds the terminal UI's export spool; %s keeps none (--record FILE is never capped)", c.cmd)
	case c.spoolMax != 0 && c.record != "":
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
	if (c.task || c.taskTTL > 0) && c.cmd != "call" {
		return usagef("--task and --task-ttl are for call: mcpwitness call TOOL --task [--task-ttl D]")
	}
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

// wantsJSON reports whether a command line asks for --json, for the error
// document of a command line that could not be parsed.
func wantsJSON(args []string) bool {
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

func findFlag(specs []flagSpec, name string) (flagSpec, bool) {
	for _, s := range specs {
		if slices.Contains(s.names, name) {
			return s, true
		}
	}
	return flagSpec{}, false
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
