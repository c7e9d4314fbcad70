package report

import (
	"strings"

	"mcpwitness/record"
)

// ConfigChange says whether two session files talked to the same server
// configuration (the config hash of each header's target), and if not
// which parts of it differ, by name only: "url", "args", "env:API_KEY", ….
type ConfigChange struct {
	// Same is true when both files carry a config hash and the hashes are
	// equal.
	Same   bool   `json:"same"`
	Before string `json:"before,omitempty"` // the config hash of each file; "" when it has none
	After  string `json:"after,omitempty"`
	// Parts names the parts that differ (nil when Same or unknown).
	Parts []string `json:"parts,omitempty"`
	// Note says why the comparison is partial: a file recorded before
	// config hashes, or secret values digested with different keys.
	Note string `json:"note,omitempty"`
}

// compareConfig compares the configuration identities of two targets; nil
// when neither has one.
func compareConfig(a, b *record.Identity) *ConfigChange {
	if a == nil && b == nil {
		return nil
	}
	c := &ConfigChange{}
	if a != nil {
		c.Before = a.Hash
	}
	if b != nil {
		c.After = b.Hash
	}
	switch {
	case a == nil || b == nil:
		c.Note = "not recorded in both files (written before config hashes)"
		return c
	case a.Hash == b.Hash:
		c.Same = true
		return c
	}
	c.Parts = a.Differences(*b)
	if a.Key != b.Key {
		c.Note = "secret values were digested with different keys (another machine or user), so header and environment values cannot be compared"
	}
	return c
}

// String is the line the text forms print for the comparison.
func (c *ConfigChange) String() string {
	switch {
	case c.Same:
		return "same configuration (config " + short(c.After) + ")"
	case c.Before == "" || c.After == "":
		return "configuration unknown: " + c.Note
	}
	s := "configuration differs (config " + short(c.Before) + " → " + short(c.After) + "): " + strings.Join(c.Parts, ", ")
	if c.Note != "" {
		s += "; " + c.Note
	}
	return s
}

// short is the first 12 hex digits of a config hash, as the UI shows it.
func short(hash string) string {
	if len(hash) > 12 {
		return hash[:12]
	}
	return hash
}
