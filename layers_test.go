package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// layerRule forbids the packages whose import paths start with one of
// Forbidden among the dependencies of Package. Own forbids every package of
// this module but Package itself.
type layerRule struct {
	Package   string
	Forbidden []string
	Own       bool
	Why       string
}

// layerRules are the seams of the module: the recorded form of a session
// is read without the live connection, and the bottom packages stand alone.
var layerRules = []layerRule{
	{Package: "mcpwitness/record", Forbidden: []string{"mcpwitness/session", "github.com/modelcontextprotocol/", "golang.org/x/oauth2"},
		Why: "a recording is read without dialing a server"},
	{Package: "mcpwitness/fold", Forbidden: []string{"mcpwitness/session"}, Why: "fold reads records only"},
	{Package: "mcpwitness/replay", Forbidden: []string{"mcpwitness/session"}, Why: "replay reads records only"},
	{Package: "mcpwitness/report", Forbidden: []string{"mcpwitness/session"}, Why: "report reads records only"},
	{Package: "mcpwitness/render", Forbidden: []string{"mcpwitness/session"}, Why: "render draws records only"},
	{Package: "mcpwitness/session/oauth", Forbidden: []string{"mcpwitness/session"},
		Why: "the OAuth client is a part the session uses, not a user of the session"},
	{Package: "mcpwitness/ui/panes", Forbidden: []string{"mcpwitness/ui"}, Why: "a pane is composed by the root, never the other way"},
	{Package: "mcpwitness/finding", Own: true, Why: "finding is the bottom of the module"},
	{Package: "mcpwitness/sanitize", Own: true, Why: "sanitize is the bottom of the module"},
	{Package: "mcpwitness/jsonscan", Own: true, Why: "jsonscan is the bottom of the module"},
	{Package: "mcpwitness/match", Own: true, Why: "match is the bottom of the module"},
}

// layerViolations returns one line for each dependency in deps (a package's
// import path → every package it depends on, directly or not) that a rule
// forbids, and one for each ruled package deps does not hold.
func layerViolations(rules []layerRule, deps map[string][]string) []string {
	var out []string
	for _, r := range rules {
		ds, ok := deps[r.Package]
		if !ok {
			out = append(out, r.Package+": not listed; was it renamed? update layerRules")
			continue
		}
		for _, d := range ds {
			if r.forbids(d) {
				out = append(out, r.Package+" depends on "+d+" ("+r.Why+")")
			}
		}
	}
	return out
}

// forbids reports whether r forbids a dependency on the package at path.
func (r layerRule) forbids(path string) bool {
	if r.Own && path != r.Package && (path == "mcpwitness" || strings.HasPrefix(path, "mcpwitness/")) {
		return true
	}
	return slices.ContainsFunc(r.Forbidden, func(f string) bool {
		return path == strings.TrimSuffix(f, "/") || strings.HasPrefix(path, strings.TrimSuffix(f, "/")+"/")
	})
}

// TestLayers holds the module to its seams, asking the go command for every
// package's dependencies (tests aside).
func TestLayers(t *testing.T) {
	t.Parallel()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH:", err)
	}
	args := []string{"list", "-f", "{{.ImportPath}} {{join .Deps \" \"}}"}
	for _, r := range layerRules {
		args = append(args, r.Package)
	}
	out, err := exec.Command(goCmd, args...).Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := map[string][]string{}
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		if len(fields) > 0 {
			deps[fields[0]] = fields[1:]
		}
	}
	for _, v := range layerViolations(layerRules, deps) {
		t.Error(v)
	}
}

// The checker itself: a dependency across a seam, a module package below a
// bottom one and a ruled package gone missing are each reported, and what
// the rules allow is not.
func TestLayerViolationsSeesABrokenRule(t *testing.T) {
	t.Parallel()
	deps := map[string][]string{
		"mcpwitness/record":        {"encoding/json", "mcpwitness/finding", "github.com/modelcontextprotocol/go-sdk/mcp"},
		"mcpwitness/fold":          {"mcpwitness/record", "mcpwitness/session"},
		"mcpwitness/replay":        {"mcpwitness/record"},
		"mcpwitness/report":        {"mcpwitness/sessionx"},
		"mcpwitness/render":        {"mcpwitness/record"},
		"mcpwitness/session/oauth": {"mcpwitness/record", "mcpwitness/session"},
		"mcpwitness/ui/panes":      {"mcpwitness/render"},
		"mcpwitness/finding":       {"errors"},
		"mcpwitness/sanitize":      {"mcpwitness/jsonscan"},
		"mcpwitness/jsonscan":      {"mcpwitness/jsonscan"},
	}
	got := layerViolations(layerRules, deps)
	want := []string{
		"mcpwitness/record depends on github.com/modelcontextprotocol/go-sdk/mcp (a recording is read without dialing a server)",
		"mcpwitness/fold depends on mcpwitness/session (fold reads records only)",
		"mcpwitness/session/oauth depends on mcpwitness/session (the OAuth client is a part the session uses, not a user of the session)",
		"mcpwitness/sanitize depends on mcpwitness/jsonscan (sanitize is the bottom of the module)",
		"mcpwitness/match: not listed; was it renamed? update layerRules",
	}
	if !slices.Equal(got, want) {
		t.Errorf("violations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
