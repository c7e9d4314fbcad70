package session

import (
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"

	"mcpwitness/internal/hostiletest"
	"mcpwitness/record"
)

// childSays calls the env tool of the hostile server target runs with the
// argument name, and returns the text it answers.
func childSays(t *testing.T, target Target, name string) string {
	t.Helper()
	s := dial(t, target, nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	args, _ := json.Marshal(map[string]string{"name": name})
	res := s.Call(ctx, "env", args, nil)
	if res.Err != nil {
		t.Fatalf("call env %s: %v", name, res.Err)
	}
	var r struct{ Content []struct{ Text string } }
	if json.Unmarshal(res.Result, &r) != nil || len(r.Content) != 1 {
		t.Fatalf("call env %s answered %s", name, res.Result)
	}
	return r.Content[0].Text
}

// A stdio child gets the variables of InheritedEnv and what the target
// adds, not the rest of ours (where the tokens are), unless InheritEnv.
func TestChildGetsAMinimalEnvironment(t *testing.T) {
	t.Setenv("GITHUB_TOKEN", "ghp-canary-31c7")
	t.Setenv("HOME", "/home/canary")
	target := hostile(t, hostiletest.ModeEnv)
	target.Env = []string{"API_KEY=given-4e1a"}
	for name, want := range map[string]string{
		"GITHUB_TOKEN": "GITHUB_TOKEN is not set",
		"HOME":         "/home/canary",
		"PATH":         os.Getenv("PATH"),
		"API_KEY":      "given-4e1a",
	} {
		if got := childSays(t, target, name); got != want {
			t.Errorf("the child's %s: %q, want %q", name, got, want)
		}
	}
	target.InheritEnv = true
	if got := childSays(t, target, "GITHUB_TOKEN"); got != "ghp-canary-31c7" {
		t.Errorf("with InheritEnv the child's GITHUB_TOKEN: %q, want it passed", got)
	}
}

// A stdio child leads a session of its own, so it has no controlling
// terminal to write to past the sanitiser (e2e_tty_test.go opens one from
// a real terminal); stopping its group is the stop tests' business.
func TestChildHasNoControllingTerminal(t *testing.T) {
	t.Parallel()
	if got := childSays(t, hostile(t, hostiletest.ModeEnv), "@session"); got != "leader" {
		t.Errorf("the child is %q, want the leader of its own session", got)
	}
}

func TestChildEnvWithTargetPairsLast(t *testing.T) {
	t.Parallel()
	got := ChildEnv([]string{"PATH=/bin", "SECRET=x", "HOME=/h"}, Target{Env: []string{"PATH=/opt/bin"}})
	want := []string{"PATH=/bin", "HOME=/h", "PATH=/opt/bin"}
	if len(got) != len(want) {
		t.Fatalf("ChildEnv = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("ChildEnv = %q, want %q", got, want)
		}
	}
}

// A child given our whole environment is another configuration: its
// identity differs, and a target without InheritEnv keeps the one it had.
func TestInheritEnvIsPartOfTheIdentity(t *testing.T) {
	t.Parallel()
	plain := Target{Command: []string{"srv"}}
	inherit := Target{Command: []string{"srv"}, InheritEnv: true}
	a, b := plain.Identify(record.IdentityOptions{}), inherit.Identify(record.IdentityOptions{})
	if a.Hash == b.Hash || b.Parts[record.PartInheritEnv] == "" {
		t.Errorf("identities %+v and %+v: want InheritEnv to be a part of its own", a, b)
	}
	if _, ok := a.Parts[record.PartInheritEnv]; ok {
		t.Errorf("a target without InheritEnv has the part: %+v", a)
	}
}
