package report

import (
	"slices"
	"strings"
	"testing"

	"mcpwitness/record"
	"mcpwitness/session"
)

func TestCompareConfigNamesPartsNotValues(t *testing.T) {
	k, _ := record.NewDigestKey([]byte("0123456789abcdef0123456789abcdef"))
	other, _ := record.NewDigestKey([]byte("fedcba9876543210fedcba9876543210"))
	o := record.IdentityOptions{ClientName: "mcpwitness", ClientVersion: "v1"}
	target := func(key *record.DigestKey, token, arg string) *record.Identity {
		id := session.Target{Command: []string{"srv", arg}, Env: []string{"TOKEN=" + token}, DigestKey: key}.Identify(o)
		return &id
	}
	if c := compareConfig(target(k, "tok-aaaa", "x"), target(k, "tok-aaaa", "x")); !c.Same || !strings.HasPrefix(c.String(), "same configuration") {
		t.Errorf("same target: %+v", c)
	}
	c := compareConfig(target(k, "tok-aaaa", "x"), target(k, "tok-bbbb", "y"))
	if c.Same || !slices.Equal(c.Parts, []string{"args", "env:TOKEN"}) || c.Note != "" {
		t.Errorf("changed token and arg: %+v", c)
	}
	if s := c.String(); strings.Contains(s, "tok-") || !strings.Contains(s, "args, env:TOKEN") {
		t.Errorf("text = %s", s)
	}
	if c := compareConfig(target(k, "tok-aaaa", "x"), target(other, "tok-aaaa", "x")); c.Same || !strings.Contains(c.Note, "different keys") {
		t.Errorf("another key: %+v", c)
	}
	if c := compareConfig(nil, target(k, "tok-aaaa", "x")); c.Same || !strings.Contains(c.String(), "unknown") {
		t.Errorf("an old file: %+v", c)
	}
	if c := compareConfig(nil, nil); c != nil {
		t.Errorf("two old files: %+v", c)
	}
}
