package main

import (
	"slices"
	"strings"

	"mcpwitness/record"
	"mcpwitness/session"
)

// configServer is one server of a config file that the terminal UI or
// check opens among others: the names the file gives it (several when
// entries have one config hash) and its target.
type configServer struct {
	names  []string
	target session.Target
	// err, when set, says why the entry could not be made a target (an
	// unset variable, a bad value): check reports it as that entry's
	// result and checks the others.
	err error
}

// name is the server's names joined, as lists show it.
func (s configServer) name() string { return strings.Join(s.names, " = ") }

// opensSeveral reports whether the command line opens every server of its
// --config (or those --server lists): the terminal UI and check do.
func opensSeveral(c *config) bool {
	return (c.cmd == "" || c.cmd == "check") && (c.server == "" || strings.Contains(c.server, ","))
}

// loadConfigServers reads the servers of c.config that --server picks (all
// when it names none), each with the command line's -e, -H, --cwd and
// --sse added and its identity known, entries of one config hash merged
// into one server with all their names, sorted by their first name.
func loadConfigServers(c *config, env environ) ([]configServer, error) {
	servers, err := readServers(c.config)
	if err != nil {
		return nil, err
	}
	names := sortedKeys(servers)
	if c.server != "" {
		names = nil
		for _, n := range strings.Split(c.server, ",") {
			if n = strings.TrimSpace(n); n == "" || slices.Contains(names, n) {
				continue
			}
			if _, err := pickServer(servers, c.config, n); err != nil {
				return nil, err
			}
			names = append(names, n)
		}
		slices.Sort(names)
	}
	var out []configServer
	byHash := map[string]int{}
	for _, name := range names {
		t, err := loadConfigTarget(c.config, name, env.lookup)
		if err != nil {
			// The entry's own fault: check reports it and goes on.
			if c.cmd != "check" {
				return nil, err
			}
			out = append(out, configServer{names: []string{name}, err: err})
			continue
		}
		// What the command line adds (-e, -H, a digest key) is the same for
		// every entry: its fault ends the command.
		if t, err = withCommandLine(c, name, t, env); err != nil {
			return nil, err
		}
		if i, ok := byHash[t.Identity.Hash]; ok {
			out[i].names = append(out[i].names, name)
			continue
		}
		byHash[t.Identity.Hash] = len(out)
		out = append(out, configServer{names: []string{name}, target: t})
	}
	if len(out) == 0 {
		return nil, usagef("--server %q names no server of %s", c.server, c.config)
	}
	return out, nil
}

// withCommandLine is t, the server name of c.config, with the command
// line's -e, -H, --cwd and --sse added and its identity known.
func withCommandLine(c *config, name string, t session.Target, env environ) (session.Target, error) {
	t, err := mergeTarget(t, c.target)
	if err != nil {
		return t, usagef("server %q in %s: %v", name, c.config, err)
	}
	err = identify(c, &t, env)
	return t, err
}

// clientName is the name mcpwitness gives itself at initialize.
const clientName = "mcpwitness"

// identify gives t its digest key (when it has secrets to digest, or
// --digest-key names one) and its configuration identity.
func identify(c *config, t *session.Target, env environ) error {
	if c.digestKey != "" || t.HasSecrets() {
		load := env.digestKey
		if load == nil {
			load = record.LoadDigestKey
		}
		k, err := load(c.digestKey)
		if err != nil {
			return connectFailed(err)
		}
		t.DigestKey = k
	}
	id := t.Identify(record.IdentityOptions{Protocol: c.protocol, ClientName: clientName, ClientVersion: version()})
	t.Identity = &id
	return nil
}

// secrets is a redactor that knows the secrets of every server the command
// line opens: the target's, and with several servers each one's.
func (c *config) secrets() *record.Redactor {
	red := c.target.Secrets()
	for _, s := range c.servers {
		red.Merge(s.target.Secrets())
	}
	return red
}
