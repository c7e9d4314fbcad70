package report_test

import (
	"os"
	"path/filepath"
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
	path := recordSession(t, demo.New(nil), session.Target{Name: "demo"}, []step{
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

// A request's findings (a prompt's list changed before its answer) are
// findings of the report, naming the request.
func TestMarkdownSaysRequestFindings(t *testing.T) {
	const says = "the server said its prompt list changed after the listing checked against, before the answer: the definition may be stale"
	path := filepath.Join(t.TempDir(), "s.jsonl")
	lines := []string{
		`{"format":"mcpwitness-session","version":1,"tool":"mcpwitness test","target":{"transport":"in-memory","name":"t"},"started":"2026-12-02T10:00:00Z"}`,
		`{"seq":1,"t":"2026-12-02T10:00:01Z","kind":"request","method":"prompts/get","request":{"id":1,"method":"prompts/get","state":"start","about":"review","sent":false}}`,
		`{"seq":2,"t":"2026-12-02T10:00:02Z","kind":"request","method":"prompts/get","request":{"id":1,"method":"prompts/get","state":"done","about":"review","sent":true,"result":{"messages":[]},"ms":1.5,` +
			`"findings":[{"check":"list-changed","severity":"warning","message":"` + says + `"}]}}`,
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	md := markdown(t, path, nil)
	if want := "**list-changed** (request 1, `prompts/get review`): " + says; !strings.Contains(md, want) {
		t.Errorf("the report does not say %q:\n%s", want, md)
	}
}
