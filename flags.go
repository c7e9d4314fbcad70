package main

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"mcpwitness/session"
	"mcpwitness/session/oauth"
)

// groupKey is the annotation that sorts a flag into a section of help.
const groupKey = "mcpwitness-group"

// The sections of a command's help, in the order help prints them; a flag
// of no group is the command's own.
var helpGroups = []string{"Server", "HTTP authorization", "Answers to the server's requests", "Limits", "Output", "", "Global"}

// flagValue is a flag that takes a value: set parses and stores it. An
// empty value is refused, so that --url "" (a CI secret that is missing)
// never stands for "no --url".
type flagValue struct {
	name    string // --url, as errors name it
	metavar string // URL, as help names the value
	set     func(string) error
}

func (v *flagValue) Set(s string) error {
	if s == "" {
		return usagef("%s needs a value", v.name)
	}
	return v.set(s)
}

func (v *flagValue) String() string { return "" }
func (v *flagValue) Type() string   { return v.metavar }

// flagSwitch is a flag that takes no value: set runs when it is given.
type flagSwitch struct{ set func() error }

func (v *flagSwitch) Set(s string) error {
	on, err := strconv.ParseBool(s)
	if err != nil {
		return usagef("a switch takes no value, not %q", s)
	}
	if on {
		return v.set()
	}
	return nil
}

func (v *flagSwitch) String() string { return "false" }
func (v *flagSwitch) Type() string   { return "bool" }

// flags registers flags on one flag set, in one help group, binding them
// into c.
type flags struct {
	fs    *pflag.FlagSet
	c     *config
	group string
}

// value registers a flag that takes a value; short may be "".
func (f flags) value(name, short, metavar, usage string, set func(*config, string) error) {
	v := &flagValue{name: "--" + name, metavar: metavar, set: func(s string) error { return set(f.c, s) }}
	f.fs.VarP(v, name, short, usage)
	f.annotate(name)
}

// text registers a flag whose value is stored as given.
func (f flags) text(name, short, metavar, usage string, field func(*config) *string) {
	f.value(name, short, metavar, usage, func(c *config, v string) error { *field(c) = v; return nil })
}

// list registers a repeatable flag whose values are appended.
func (f flags) list(name, short, metavar, usage string, field func(*config) *[]string) {
	f.value(name, short, metavar, usage, func(c *config, v string) error { *field(c) = append(*field(c), v); return nil })
}

// number registers a flag of a whole number of at least min.
func (f flags) number(name, usage string, min int, field func(*config) *int) {
	f.value(name, "", "N", usage, func(c *config, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < min {
			return usagef("--%s wants a whole number of at least %d, not %q", name, min, v)
		}
		*field(c) = n
		return nil
	})
}

// toggle registers a flag that takes no value.
func (f flags) toggle(name, usage string, set func(*config) error) {
	fl := f.fs.VarPF(&flagSwitch{set: func() error { return set(f.c) }}, name, "", usage)
	fl.NoOptDefVal = "true"
	f.annotate(name)
}

// on registers a flag that takes no value and sets a field.
func (f flags) on(name, usage string, field func(*config) *bool) {
	f.toggle(name, usage, func(c *config) error { *field(c) = true; return nil })
}

func (f flags) annotate(name string) {
	if f.group != "" {
		_ = f.fs.SetAnnotation(name, groupKey, []string{f.group})
	}
}

func (f flags) in(group string) flags { f.group = group; return f }

// targetFlags are the flags that pick and reach a server: by a command
// after --, --url or --config.
func targetFlags(f flags) {
	f = f.in("Server")
	f.value("url", "", "URL", "Streamable HTTP endpoint, e.g. http://127.0.0.1:8080/mcp", func(c *config, v string) error {
		if !strings.HasPrefix(v, "http://") && !strings.HasPrefix(v, "https://") || len(strings.SplitN(v, "/", 4)[2]) == 0 {
			return usagef("--url wants an http:// or https:// URL with a host, e.g. http://127.0.0.1:8080/mcp")
		}
		c.target.URL = v
		return nil
	})
	f.list("header", "H", `"Name: value"`, "HTTP header on every request to the server's own\norigin (repeatable); a redirect elsewhere goes without it", func(c *config) *[]string { return &c.target.Headers })
	f.on("sse", "the URL is a legacy HTTP+SSE endpoint", func(c *config) *bool { return &c.target.SSE })
	f.on("no-retry", "do not retry HTTP 429 (by default: 3 attempts, Retry-After\nhonoured, at most 10 s of waiting per request)", func(c *config) *bool { return &c.target.NoRetry })
	f.list("env", "e", "KEY=VAL", "add to the server's environment (repeatable)", func(c *config) *[]string { return &c.target.Env })
	f.text("cwd", "", "DIR", "the server's working directory", func(c *config) *string { return &c.target.Dir })
	f.on("inherit-env", "pass the server all of our environment; by default it gets\nonly HOME, LOGNAME, PATH, SHELL, TERM, USER, -e and the\nconfig entry's env", func(c *config) *bool { return &c.target.InheritEnv })
	f.value("secret", "", "NAME", "the value of env variable or header NAME is a secret\n(repeatable; config: \"secrets\": [NAME]). Values named\n*token*, *key*, *secret*, *auth*, … and credential-shaped\nones (Bearer, ghp_, sk-, JWTs, URL userinfo) are already;\nsecrets are masked in every output, other values kept", func(c *config, v string) error {
		if strings.TrimSpace(v) == "" {
			return usagef("--secret wants the name of an environment variable or header whose value is a secret, e.g. --secret MY_VAR")
		}
		c.target.SecretNames = append(c.target.SecretNames, strings.TrimSpace(v))
		return nil
	})
	f.text("config", "", "FILE", "take the servers from an mcpServers JSON file (Claude\nDesktop, Cursor, VS Code); --server NAME picks one\n(--server A,B some); the TUI and check open them all", func(c *config) *string { return &c.config })
	f.text("server", "", "NAME", "the server of --config FILE (A,B: several)", func(c *config) *string { return &c.server })
	digestKeyFlag(f)
}

// digestKeyFlag is --digest-key, of every command that masks secrets.
func digestKeyFlag(f flags) {
	f.text("digest-key", "", "FILE", "the key of the digests of secret values (default: made\nonce in the user config dir, mcpwitness/digest.key, 0600)", func(c *config) *string { return &c.digestKey })
}

// httpAuthFlags are the flags that authorize requests to an HTTP server.
func httpAuthFlags(f flags) {
	f = f.in("HTTP authorization")
	f.text("header-cmd", "", "CMD", "run CMD (sh -c) for every HTTP request: MCPWITNESS_METHOD,\nMCPWITNESS_URL, MCPWITNESS_BODY_SHA256 in its environment, the\nbody on stdin; each 'Name: value' line it prints is a header\nof that request (after -H); values are never kept or shown", func(c *config) *string { return &c.target.HeaderCmd })
	f.value("oauth", "", "MODE", "on a 401: auto (authorization code + PKCE, the default), off\n(say the challenge), client-credentials (machine to machine)", func(c *config, v string) error {
		if !slices.Contains(oauth.Modes(), v) {
			return usagef("--oauth wants one of %s, not %q", strings.Join(oauth.Modes(), ", "), v)
		}
		c.target.OAuth = oauth.Mode(v)
		if v == "auto" {
			c.target.OAuth = oauth.Auto
		}
		return nil
	})
	f.text("client-id", "", "ID", "a pre-registered OAuth client", func(c *config) *string { return &c.target.ClientID })
	f.text("client-secret", "", "SECRET", "its secret (shows in ps: prefer the two below)", func(c *config) *string { return &c.target.ClientSecret })
	f.text("client-secret-file", "", "FILE", "the client secret from a file", func(c *config) *string { return &c.secretFile })
	f.text("client-secret-env", "", "NAME", "the client secret from an environment variable", func(c *config) *string { return &c.secretEnv })
	f.text("oauth-issuer", "", "URL", "the authorization server trusted with the client's secret\nor key; without it, only one on the server's own host", func(c *config) *string { return &c.target.OAuthIssuer })
	f.text("client-key", "", "FILE", "with --oauth client-credentials, instead of a secret: a PEM\nprivate key (EC, RSA or Ed25519) that signs each token\nrequest's client assertion (private_key_jwt)", func(c *config) *string { return &c.target.ClientKey })
	f.text("client-metadata-url", "", "URL", "an OAuth Client ID Metadata Document; without these\nthe client registers dynamically. The authorization URL is\nshown and opened with $BROWSER or the system opener", func(c *config) *string { return &c.target.ClientMetadataURL })
}

// answerFlags are the answers a headless command gives the server's
// requests.
func answerFlags(f flags) {
	f = f.in("Answers to the server's requests")
	f.list("root", "", "PATH", "answer roots/list with this root (repeatable; none by default)", func(c *config) *[]string { return &c.roots })
	f.value("elicit", "", "ANSWER", "declare elicitation (form) and answer each request: decline,\ncancel, accept-defaults (each property's default) or @FILE\n(accept with FILE's JSON object, declined on a schema mismatch);\nwithout it nothing is declared and a result asking anyway is declined", func(c *config, v string) error {
		a, err := session.ParseElicit(v)
		if err != nil {
			return usagef("%v", err)
		}
		c.elicit = a
		return nil
	})
	const oneAnswer = "--sampling-reply and --sampling-decline are two answers to sampling: give one"
	f.value("sampling-reply", "", "R", "declare sampling and answer each request with R, an assistant\ntext message, or @FILE (a JSON CreateMessageResult)", func(c *config, v string) error {
		r, err := session.ParseSamplingReply(v)
		if err != nil {
			return usagef("%v", err)
		}
		if c.sampling != nil && c.sampling.Decline {
			return usagef(oneAnswer)
		}
		c.sampling = r
		return nil
	})
	f.toggle("sampling-decline", "declare sampling and decline each request (the user-rejection\nerror a person's decline sends)", func(c *config) error {
		if c.sampling != nil && !c.sampling.Decline {
			return usagef(oneAnswer)
		}
		c.sampling = &session.SamplingReply{Decline: true}
		return nil
	})
}

// limitFlags bound a session: its pages, frames, time, protocol and log.
func limitFlags(f flags) {
	f = f.in("Limits")
	f.number("max-pages", "stop a walk after N list requests (default 100)", 1, func(c *config) *int { return &c.maxPages })
	f.value("max-frame", "", "SIZE", "largest frame (stdio line, HTTP body, server-sent\nevent) accepted, e.g. 64MiB, 1MB, 512k or bytes\n(default 64MiB); a larger one ends the connection", func(c *config, v string) error {
		n, err := parseSize(v)
		if err != nil {
			return usagef("--max-frame %s", err)
		}
		c.maxFrame = n
		return nil
	})
	f.value("timeout", "", "D", "bound on connecting and on each request (default 30s)", func(c *config, v string) error {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return usagef("--timeout wants a positive duration such as 30s or 2m, not %q", v)
		}
		c.timeout = d
		return nil
	})
	f.text("protocol", "", "VERSION", "protocol version to ask for (default: newest)", func(c *config) *string { return &c.protocol })
	f.value("log-level", "", "LEVEL", "ask the server to log at LEVEL (logging/setLevel):\ndebug, info, notice, warning, error, critical, alert\nor emergency (default: debug)", func(c *config, v string) error {
		if !slices.Contains(session.LogLevels(), v) {
			return usagef("--log-level wants one of %s, not %q", strings.Join(session.LogLevels(), ", "), v)
		}
		c.logLevel = v
		return nil
	})
}

// sessionFlags are the flags of every command that dials a server: which
// one, how, what to answer it and the session's limits.
func sessionFlags(f flags) {
	targetFlags(f)
	httpAuthFlags(f)
	answerFlags(f)
	limitFlags(f)
}

// recordFlag is --record, of every command that has a session log.
func recordFlag(f flags) {
	f.in("Output").text("record", "", "FILE", "stream the session log to FILE (secrets redacted)", func(c *config) *string { return &c.record })
}

// outputFlags are the output flags of the headless commands that dial.
func outputFlags(f flags) {
	jsonFlag(f)
	f.in("Output").on("ndjson", "every event as one JSON line, as it happens", func(c *config) *bool { return &c.ndjson })
	recordFlag(f)
}

// jsonFlag is --json.
func jsonFlag(f flags) {
	f.in("Output").on("json", "one JSON document on stdout, described in docs/schemas/; when the command\nfails, {\"kind\": \"error\", …, \"error\": {\"code\", \"message\", \"exitCode\"}}", func(c *config) *bool { return &c.json })
}

// headlessFlags are the flags of the headless commands that dial a server.
func headlessFlags(f flags) {
	sessionFlags(f)
	outputFlags(f)
}

// themeFlag is --theme, of the commands that draw with one.
func themeFlag(f flags) {
	f.text("theme", "", "NAME", "dark, light, high-contrast or mono", func(c *config) *string { return &c.theme })
}

// tuiFlags are the flags of the terminal UI, the root command.
func tuiFlags(f flags) {
	sessionFlags(f)
	recordFlag(f)
	f.value("spool-max", "", "SIZE", "without --record: the temporary file that e exports stops\nat SIZE, e.g. 512M or 2G (default 1GiB, 0 for no cap);\n--record FILE is never capped", func(c *config, v string) error {
		n, err := parseSpoolMax(v)
		c.spoolMax = n
		return err
	})
	themeFlag(f)
	f.on("version", "print mcpwitness and its version", func(c *config) *bool { return &c.version })
}

// callFlags are call's own flags.
func callFlags(f flags) {
	headlessFlags(f)
	argsFlag(f, "the tool's arguments as a JSON object, @FILE or - (stdin)")
	f.on("force", "send the call even when a check refuses it", func(c *config) *bool { return &c.force })
	f.on("walk-all", "read every page of tools/list, not only up to the tool's", func(c *config) *bool { return &c.walkAll })
	f.on("task", "run the tool as a task", func(c *config) *bool { return &c.task })
	f.value("task-ttl", "", "D", "the ttl the task asks for (with --task), e.g. 60s or 10m", func(c *config, v string) error {
		d, err := time.ParseDuration(v)
		if err != nil || d < time.Millisecond {
			return usagef("--task-ttl wants a duration of at least 1ms such as 60s or 10m, not %q", v)
		}
		c.taskTTL = d
		return nil
	})
}

// argsFlag is --args JSON of call and prompt.
func argsFlag(f flags, usage string) {
	f.value("args", "", "JSON", usage, func(c *config, v string) error {
		c.argsJSON, c.argsSet = v, true
		return nil
	})
}

// promptFlags are prompt's own flags.
func promptFlags(f flags) {
	headlessFlags(f)
	argsFlag(f, "the prompt's arguments as a JSON object, @FILE or - (stdin)")
	f.on("force", "send the request even when a check refuses it", func(c *config) *bool { return &c.force })
}

// readFlags are read's own flags.
func readFlags(f flags) {
	headlessFlags(f)
	f.on("follow", "subscribe and read the resource again on each update", func(c *config) *bool { return &c.follow })
	f.number("count", "with --follow: stop after N updates", 0, func(c *config) *int { return &c.count })
}

// completeFlags are complete's own flags.
func completeFlags(f flags) {
	headlessFlags(f)
	f.text("prompt", "", "NAME", "complete an argument of prompt NAME", func(c *config) *string { return &c.prompt })
	f.text("template", "", "URI", "complete a variable of the resource template URI", func(c *config) *string { return &c.template })
}

// pingFlags are ping's own flags.
func pingFlags(f flags) {
	headlessFlags(f)
	f.number("count", "send ping N times (default 1)", 1, func(c *config) *int { return &c.count })
}

// walkFlags are the flags of the commands that walk whole lists (tools,
// resources, prompts, tasks, check).
func walkFlags(f flags) {
	headlessFlags(f)
	f.on("no-settle", "keep the first walk of a list the server changed while it was walked (by default it is walked again, up to 3 times, until one holds still)", func(c *config) *bool { return &c.noSettle })
}

// checkFlags are check's own flags.
func checkFlags(f flags) {
	walkFlags(f)
	f.text("junit", "", "FILE", "write the findings as JUnit XML to FILE", func(c *config) *string { return &c.junit })
}

// reportFlags are report's flags: it reads a file and needs no server.
func reportFlags(f flags) { digestKeyFlag(f) }

// diffFlags are diff's flags.
func diffFlags(f flags) {
	jsonFlag(f)
	digestKeyFlag(f)
}

// openFlags are open's flags.
func openFlags(f flags) { themeFlag(f) }

// demoFlags are demo-server's flags.
func demoFlags(f flags) {
	f.text("http", "", "ADDR", "serve Streamable HTTP on ADDR (port 0 picks one)", func(c *config) *string { return &c.httpAddr })
	f.on("auth", "with --http: behind OAuth, with a small authorization server", func(c *config) *bool { return &c.auth })
	f.number("page-size", "items per list page (default 10)", 0, func(c *config) *int { return &c.pageSize })
	f.number("filler", "add N generated tools", 0, func(c *config) *int { return &c.filler })
	f.number("ttl-ms", "advertise ttlMs N on list pages", 0, func(c *config) *int { return &c.ttlMs })
}

// noFlags is the flags of a command that takes none of its own.
func noFlags(flags) {}
