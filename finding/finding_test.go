package finding_test

import (
	"encoding/json"
	"testing"

	"mcpwitness/finding"
)

// The JSON of a finding is a contract of --json and the session file: item
// and page appear only when set.
func TestFindingJSON(t *testing.T) {
	for _, tt := range []struct {
		f    finding.Finding
		want string
	}{
		{finding.Finding{Check: "cursor-repeated", Severity: finding.SeverityError, Message: "loop", Page: 3},
			`{"check":"cursor-repeated","severity":"error","message":"loop","page":3}`},
		{finding.Finding{Check: "tool-name", Severity: finding.SeverityWarning, Message: "odd", Item: "a b"},
			`{"check":"tool-name","severity":"warning","message":"odd","item":"a b"}`},
		{finding.Finding{Check: "not-listed", Severity: finding.SeverityInfo, Message: "probe"},
			`{"check":"not-listed","severity":"info","message":"probe"}`},
	} {
		b, err := json.Marshal(tt.f)
		if err != nil || string(b) != tt.want {
			t.Errorf("Marshal = %s, %v; want %s", b, err, tt.want)
		}
		var back finding.Finding
		if err := json.Unmarshal(b, &back); err != nil || back != tt.f {
			t.Errorf("Unmarshal(%s) = %+v, %v; want %+v", b, back, err, tt.f)
		}
	}
}

func TestCount(t *testing.T) {
	fs := []finding.Finding{{Severity: finding.SeverityError}, {Severity: finding.SeverityWarning}, {Severity: finding.SeverityError}}
	if n := finding.Count(fs, finding.SeverityError); n != 2 {
		t.Errorf("Count(error) = %d, want 2", n)
	}
	if n := finding.Count(fs, finding.SeverityInfo); n != 0 {
		t.Errorf("Count(info) = %d, want 0", n)
	}
}
