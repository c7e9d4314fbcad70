package report_test

import (
	"strings"
	"testing"

	"mcpwitness/demo"
	"mcpwitness/session"
)

// A read whose contents break the rules is in the report as a call's
// failed verdict is: the title counts it, and the Requests table has its
// verdict and failing instance paths. Before, a session of reads alone
// reported nothing but "No tool was called".
func TestMarkdownShowsRequestsAndTheirVerdicts(t *testing.T) {
	path := record(t, demo.New(nil), session.Target{Name: "demo"}, []step{
		read("demo://readme"),
		read(demo.BrokenResourceURI),
	})
	md := markdown(t, path, nil)
	title := strings.SplitN(md, "\n", 4)[2]
	for _, want := range []string{"2 other requests", "**1 request with a failed verdict**"} {
		if !strings.Contains(title, want) {
			t.Errorf("title %q does not say %q", title, want)
		}
	}
	for _, want := range []string{
		"## Requests\n\n| # | Request | About | Sent | Verdicts | Answer | Failing instance paths |\n",
		"| 1 | `resources/read` | `demo://readme` | yes | ✅ pass resource-contents | answered in ",
		"| 2 | `resources/read` | `" + demo.BrokenResourceURI + "` | yes | ❌ **fail** resource-contents | answered in ",
		"`/contents/0` oneOf",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the report does not say %q:\n%s", want, md)
		}
	}
}
