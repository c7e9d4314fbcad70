package render_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"mcpwitness/checks"
	"mcpwitness/finding"
	"mcpwitness/fold"
	"mcpwitness/record"
	"mcpwitness/render"
)

var reqStart = time.Date(2026, 12, 1, 9, 30, 0, 125e6, time.UTC)

// requests are one request of each kind, as the fold holds them once done,
// with the verdicts the checks give their answers.
func requests(t *testing.T) map[string]*fold.Request {
	t.Helper()
	read := json.RawMessage(`{"contents":[{"uri":"demo://other","text":"hello","blob":"AA=="}]}`)
	prompt := json.RawMessage(`{"name":"review","arguments":[{"name":"code","required":true}]}`)
	got := json.RawMessage(`{"messages":[{"role":"user","content":{"type":"text","text":"Review: x"}}]}`)
	complete := json.RawMessage(`{"completion":{"values":["Lisbon","London"],"total":2,"hasMore":false}}`)
	done := func(r *fold.Request) *fold.Request {
		r.Start, r.End, r.Done, r.Sent, r.Ms, r.RequestID = reqStart, reqStart.Add(3*time.Millisecond), true, true, 3.2, "7"
		return r
	}
	refused := done(&fold.Request{Method: record.MethodGetPrompt, About: "review", Params: json.RawMessage(`{"name":"review","arguments":{}}`),
		Verdicts: []finding.Verdict{checks.BeforePrompt("review", prompt, map[string]string{})}})
	refused.Sent, refused.RequestID, refused.Ms = false, "", 0
	return map[string]*fold.Request{
		"read": done(&fold.Request{Method: record.MethodRead, About: "demo://config", Params: json.RawMessage(`{"uri":"demo://config"}`), Result: read,
			Verdicts: []finding.Verdict{checks.AfterRead("demo://config", read)}}),
		"refused": refused,
		"prompt": done(&fold.Request{Method: record.MethodGetPrompt, About: "review", Params: json.RawMessage(`{"name":"review","arguments":{"code":"x"}}`), Result: got,
			Verdicts: []finding.Verdict{checks.BeforePrompt("review", prompt, map[string]string{"code": "x"}), checks.AfterPrompt(got)}}),
		"complete": done(&fold.Request{Method: record.MethodComplete, About: "city", Result: complete, Verdicts: []finding.Verdict{checks.AfterComplete(complete)}}),
		"ping":     done(&fold.Request{Method: record.MethodPing, Result: json.RawMessage(`{}`)}),
		"rpcError": done(&fold.Request{Method: record.MethodSubscribe, About: "demo://x", RPCError: json.RawMessage(`{"code":-32601,"message":"Method not found"}`)}),
		"running":  {Method: record.MethodRead, About: "demo://slow", Start: reqStart},
	}
}

func TestRequestDocs(t *testing.T) {
	rs := requests(t)
	var all []string
	for _, name := range []string{"read", "refused", "prompt", "complete", "ping", "rpcError", "running"} {
		lines := render.RequestDoc(rs[name], 64, styles(t), time.UTC, &render.RequestOptions{ForceKey: "f"})
		all = append(all, "── "+name+" ──", checkLines(t, lines, 64))
	}
	text := strings.Join(all, "\n")
	for _, want := range []string{
		"resources/read  demo://config  09:30:00.125", "✗ resource-contents · 3.2 ms", "✗ fail", "/contents/0",
		"⊘ Refused before sending", "f sends it anyway", "⊘ refused", "prompt-arguments",
		"✓ answered · 3.2 ms", "Review: x", "Lisbon", "total 2 · hasMore false",
		"empty, as the specification asks", "-32601: Method not found", "waiting for the answer",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in:\n%s", want, text)
		}
	}
	// The answer comes before what was asked, so that on a small screen
	// it starts above the fold.
	for name, answer := range map[string]string{"read": "Contents (1)", "prompt": "Review: x"} {
		doc := ansi.Strip(strings.Join(render.RequestDoc(rs[name], 64, styles(t), time.UTC, nil), "\n"))
		if a, asked := strings.Index(doc, answer), strings.Index(doc, "Asked"); a < 0 || asked < 0 || a > asked {
			t.Errorf("%s: the answer (%q at %d) does not come before what was asked (at %d):\n%s", name, answer, a, asked, doc)
		}
	}
	golden.RequireEqual(t, []byte(text))
}

// A request's findings (a prompt's list changed before its answer) show
// under its outcome, before the verdicts.
func TestRequestDocSaysItsFindings(t *testing.T) {
	r := requests(t)["prompt"]
	const says = "the server said its prompt list changed after the listing checked against, before the answer: the definition may be stale"
	r.Findings = []finding.Finding{{Check: "list-changed", Severity: finding.SeverityWarning, Message: says}}
	doc := ansi.Strip(strings.Join(render.RequestDoc(r, 200, styles(t), time.UTC, nil), "\n"))
	if at, verdicts := strings.Index(doc, says), strings.Index(doc, "prompt-arguments"); at < 0 || verdicts < 0 || at > verdicts {
		t.Errorf("the finding (at %d) is not said before the verdicts (at %d):\n%s", at, verdicts, doc)
	}
}

func TestRequestSummary(t *testing.T) {
	rs := requests(t)
	got := map[string]string{}
	for name, r := range rs {
		got[name] = render.RequestSummary(r)
	}
	want := map[string]string{
		"read": "✗ resource-contents · 3.2 ms", "refused": "⊘ refused · nothing sent", "prompt": "✓ answered · 3.2 ms",
		"complete": "✓ answered · 3.2 ms", "ping": "✓ answered · 3.2 ms", "rpcError": "✗ JSON-RPC error -32601: Method not found · 3.2 ms",
		"running": "waiting",
	}
	for name := range want {
		if got[name] != want[name] {
			t.Errorf("%s: %q, want %q", name, got[name], want[name])
		}
	}
}

func TestRequestHostileStringsComeOutSafe(t *testing.T) {
	evil := "x\x1b]0;title\x07\x1b[2J\u202edesrever\u200f\x9b31m\r\bend"
	quoted, _ := json.Marshal(evil)
	r := &fold.Request{
		Method: record.MethodComplete, About: evil, Start: reqStart, Done: true, Sent: true, Ms: 1,
		Params:   json.RawMessage(`{"argument":{"name":"a","value":` + string(quoted) + `}}`),
		Result:   json.RawMessage(`{"completion":{"values":[` + string(quoted) + `,7]}}`),
		RPCError: json.RawMessage(`{"code":1,"message":` + string(quoted) + `}`),
		Err:      evil,
		Verdicts: []finding.Verdict{{Check: "completion-values", Status: finding.Fail, Message: evil, Errors: []finding.SchemaError{{InstancePath: "/" + evil, Keyword: "k", Message: evil}}}},
	}
	for _, method := range []string{record.MethodComplete, record.MethodRead, record.MethodGetPrompt, record.MethodPing, evil} {
		r.Method = method
		checkWideLines(t, render.RequestDoc(r, 48, styles(t), time.UTC, nil), 48)
		checkWideLines(t, render.RequestDoc(r, 48, colour(t), time.UTC, nil), 48)
	}
	for _, r := range []*fold.Request{r, {Done: true, Err: evil}} {
		if bad := unsafeIn([]string{render.RequestSummary(r)}); bad != "" {
			t.Errorf("RequestSummary: %s", bad)
		}
	}
}
