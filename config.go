package main

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"

	"mcpwitness/session"
)

// serverEntry is one server of an mcpServers file, in the shapes Claude
// Desktop, Cursor and VS Code write.
type serverEntry struct {
	Type    string            `json:"type"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
	Cwd     string            `json:"cwd"`
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers"`
}

var envRef = regexp.MustCompile(`\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}`)

// loadConfigTarget reads the server named name from an mcpServers JSON file
// ("mcpServers" for Claude Desktop and Cursor, "servers" for VS Code). With
// one server in the file, name may be empty. ${env:NAME} is replaced from
// our environment.
func loadConfigTarget(path, name string) (session.Target, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return session.Target{}, usagef("--config: %v", err)
	}
	var file struct {
		MCPServers map[string]serverEntry `json:"mcpServers"`
		Servers    map[string]serverEntry `json:"servers"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		return session.Target{}, usagef("--config %s is not valid JSON: %v", path, err)
	}
	servers := file.MCPServers
	if len(servers) == 0 {
		servers = file.Servers
	}
	if len(servers) == 0 {
		return session.Target{}, usagef("--config %s has no servers: want {\"mcpServers\": {\"NAME\": {...}}} or VS Code's {\"servers\": {...}}", path)
	}
	names := make([]string, 0, len(servers))
	for n := range servers {
		names = append(names, n)
	}
	slices.Sort(names)
	if name == "" {
		if len(servers) > 1 {
			return session.Target{}, usagef("--config %s has %d servers; pick one with --server (%s)", path, len(servers), strings.Join(names, ", "))
		}
		name = names[0]
	}
	e, ok := servers[name]
	if !ok {
		return session.Target{}, usagef("--config %s has no server %q; it has %s", path, name, strings.Join(names, ", "))
	}
	var missing []string
	expand := func(s string) string {
		return envRef.ReplaceAllStringFunc(s, func(ref string) string {
			v := envRef.FindStringSubmatch(ref)[1]
			val, ok := os.LookupEnv(v)
			if !ok {
				missing = append(missing, v)
			}
			return val
		})
	}
	var t session.Target
	switch {
	case e.Command != "" && e.URL != "":
		return t, usagef("server %q in %s has both a command and a url", name, path)
	case e.Command != "":
		t.Command = append([]string{expand(e.Command)}, mapStrings(e.Args, expand)...)
		t.Dir = expand(e.Cwd)
		for _, k := range sortedKeys(e.Env) {
			t.Env = append(t.Env, k+"="+expand(e.Env[k]))
		}
	case e.URL != "":
		t.URL = expand(e.URL)
		t.SSE = e.Type == "sse"
		for _, k := range sortedKeys(e.Headers) {
			t.Headers = append(t.Headers, k+": "+expand(e.Headers[k]))
		}
	default:
		return t, usagef("server %q in %s has neither a command nor a url", name, path)
	}
	if len(missing) > 0 {
		return t, usagef("server %q in %s uses environment variables that are not set: %s", name, path, strings.Join(missing, ", "))
	}
	if strings.Contains(fmt.Sprint(t.Command, t.Env, t.URL, t.Headers), "${input:") {
		return t, usagef("server %q in %s asks for VS Code ${input:…} values, which only VS Code can prompt for; pass them with -e or -H instead", name, path)
	}
	return t, nil
}

func mapStrings(in []string, f func(string) string) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = f(s)
	}
	return out
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
