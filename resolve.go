package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"mcpwitness/record"
	"mcpwitness/themes"
)

// environ is what resolving a command line reads besides the command line:
// the environment and this program's own path.
type environ struct {
	lookup     func(name string) (string, bool)
	stdin      io.Reader // --args -
	executable func() (string, error)
	// digestKey loads the digest key at a path ("" for the user's);
	// nil is [record.LoadDigestKey].
	digestKey func(path string) (*record.DigestKey, error)
}

func osEnviron() environ {
	return environ{lookup: os.LookupEnv, executable: os.Executable, stdin: os.Stdin}
}

// readArgsJSON is the JSON of --args: as given, or read from @FILE or, for
// "-", from stdin.
func readArgsJSON(v string, stdin io.Reader) (string, error) {
	var b []byte
	var err error
	switch {
	case v == "-" && stdin != nil:
		b, err = io.ReadAll(io.LimitReader(stdin, maxArgsJSON))
	case v == "-":
		return "", usagef("--args -: no stdin to read the arguments from")
	case strings.HasPrefix(v, "@"):
		b, err = os.ReadFile(v[1:])
	default:
		return v, nil
	}
	if err != nil {
		return "", usagef("--args %s: %v", v, err)
	}
	if strings.TrimSpace(string(b)) == "" {
		return "", usagef("--args %s is empty: want a JSON object", v)
	}
	return string(b), nil
}

// maxArgsJSON bounds the arguments read from stdin.
const maxArgsJSON = 64 << 20

// resolve makes a parsed command line ready to run, once for every
// command: the server of --config FILE (with ${env:NAME} filled in and the
// command line's -e, -H, --cwd and --sse added), the embedded demo server
// as the target when none is named, the --theme name checked, and
// NO_COLOR. The result is a copy; c is left as parsed.
func resolve(c *config, env environ) (*config, error) {
	r := *c
	// NO_COLOR set to anything but "" turns colour off (https://no-color.org)
	// unless --color says otherwise.
	noColor, set := env.lookup("NO_COLOR")
	r.noColor = r.color == "never" || r.color != "always" && set && noColor != ""
	if r.argsSet {
		var err error
		if r.argsJSON, err = readArgsJSON(r.argsJSON, env.stdin); err != nil {
			return nil, err
		}
	}
	if err := r.checkTheme(); err != nil {
		return nil, err
	}
	if r.cmd != "" && !dialsHere(r.cmd) {
		return &r, nil // no server: the command says so if one was named
	}
	secret, err := r.clientSecret().read(env.lookup)
	if err != nil {
		return nil, usageError{err.Error()}
	}
	r.target.ClientSecret = secret
	if err := r.resolveTarget(env); err != nil {
		return nil, err
	}
	if r.cmd != "" {
		r.noticeOnStderr()
	}
	if r.servers == nil {
		// Several servers were each identified as they were read.
		if err := identify(&r, &r.target, env); err != nil {
			return nil, err
		}
	}
	return &r, nil
}

// clientSecret is where the command line takes the client secret from.
func (c *config) clientSecret() secretFrom {
	return secretFrom{value: c.target.ClientSecret, file: c.secretFile, env: c.secretEnv, names: secretFlags()}
}

// checkTheme checks the --theme name of the commands that draw with one:
// the terminal UI and open.
func (c *config) checkTheme() error {
	if (c.cmd == "" || c.cmd == "open") && c.theme != "" {
		if _, ok := themes.Lookup(c.theme); !ok {
			return usagef("unknown --theme %q; choose one of %s", c.theme, strings.Join(themes.Names(), ", "))
		}
	}
	return nil
}

// resolveTarget fills in the server the command line names: from
// --config, or --url or a command after -- as parsed, or else the embedded
// demo server, started from this program.
func (c *config) resolveTarget(env environ) error {
	if c.config != "" {
		if err := c.targetFromConfig(env); err != nil {
			return err
		}
	}
	if c.target.URL == "" && len(c.target.Command) == 0 {
		self, err := env.executable()
		if err != nil {
			return connectFailed(fmt.Errorf("finding this program to start the demo server: %w", err))
		}
		c.target.Command = []string{self, "demo-server"}
	}
	return nil
}

// targetFromConfig takes the target from --config. The terminal UI and
// check open every server of the file (or those --server lists), as
// c.servers when there are several, the first as the target; other
// commands take the one --server names, with the command line's -e, -H,
// --cwd and --sse added.
func (c *config) targetFromConfig(env environ) error {
	if !opensSeveral(c) {
		t, err := loadConfigTarget(c.config, c.server, env.lookup)
		if err != nil {
			return err
		}
		c.target, err = mergeTarget(t, c.target)
		return err
	}
	servers, err := loadConfigServers(c, env)
	if err != nil {
		return err
	}
	if len(servers) == 1 && servers[0].err != nil {
		return servers[0].err
	}
	if len(servers) > 1 {
		c.servers = servers
		if c.cmd == "check" && (c.record != "" || c.ndjson) {
			return usagef("check --record and --ndjson follow one server; %s has %d: pick one with --server", c.config, len(servers))
		}
	}
	// The first entry that could be read: a broken one has no target, and
	// an empty target is never one to dial.
	for _, s := range servers {
		if s.err == nil {
			c.target = s.target
			break
		}
	}
	return nil
}

// noticeOnStderr sends a headless command's authorization URL to stderr as
// well as to its events, for the target and every server.
//
// When neither stdin nor stderr is a terminal nobody can open that URL:
// the targets are unattended, and a flow whose browser cannot be opened
// fails at once.
func (c *config) noticeOnStderr() {
	unattended := !isTTY(os.Stdin) && !isTTY(os.Stderr)
	c.target.Notice, c.target.Unattended = os.Stderr, unattended
	for i := range c.servers {
		c.servers[i].target.Notice, c.servers[i].target.Unattended = os.Stderr, unattended
	}
}
