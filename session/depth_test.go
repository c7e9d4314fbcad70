package session

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"mcpwitness/checks"
	"mcpwitness/finding"
	"mcpwitness/internal/hostiletest"
	"mcpwitness/paging"
	"mcpwitness/record"
)

// A schema nested far too deep is cut before the SDK and the checks see it:
// the walk keeps every tool of the page without waiting for its timeout, and
// a call of the deep tool gets an unchecked verdict, not a compile.
func TestDeepSchemaOverStdio(t *testing.T) {
	t.Parallel()
	for _, depth := range []int{2000, 10000} {
		t.Run(strconv.Itoa(depth), func(t *testing.T) {
			target := hostile(t, hostiletest.ModeDeepSchema)
			target.Env = []string{"HOSTILE_DEPTH=" + strconv.Itoa(depth)}
			s := dial(t, target, nil)
			_, res := s.Walk(context.Background(), paging.Tools())
			if res.Incomplete != paging.Complete {
				t.Fatalf("walk: %s %v", res.Incomplete, res.Err)
			}
			want := []string{"tool_1_1", "tool_1_2", "deep", "tool_2_1", "tool_2_2", "tool_3_1", "tool_3_2"}
			if got := toolNames(res.Items()); !slices.Equal(got, want) {
				t.Fatalf("walk read %q, want %q", got, want)
			}
			def, _, ok := s.Tool("deep")
			if !ok || checks.Depth(def) > maxFrameDepth {
				t.Fatalf("tool deep: listed %v, nested %d deep", ok, checks.Depth(def))
			}
			cutReported := slices.ContainsFunc(s.Log().Events(), func(ev record.Event) bool {
				return ev.Kind == record.KindError && strings.Contains(ev.Text, "levels cut before the SDK")
			})
			if !cutReported {
				t.Error("no event says the frame was cut")
			}
			// The record keeps the frame whole.
			whole := slices.ContainsFunc(wireFrames(s.Log(), record.Recv, "tools/list"), func(ev record.Event) bool {
				return ev.Level == levelDeep && max(checks.Depth(ev.Frame), checks.Depth([]byte(ev.Text))) > depth
			})
			if !whole {
				t.Error("the deep frame is not recorded whole")
			}

			r := s.Call(context.Background(), "deep", nil, nil)
			if r.Err != nil {
				t.Fatal(r.Err)
			}
			i := slices.IndexFunc(r.Verdicts, func(v finding.Verdict) bool { return v.Check == finding.OutputSchema })
			if i < 0 || r.Verdicts[i].Status != finding.Unchecked || !strings.Contains(r.Verdicts[i].Message, "nested deeper than 64 levels") {
				t.Errorf("output-schema verdict: %+v", r.Verdicts)
			}
			var found []finding.Finding
			for _, item := range res.Items() {
				found = append(found, checks.NewValidator().LintTool(item)...)
			}
			if !slices.ContainsFunc(found, func(f finding.Finding) bool {
				return f.Item == "deep" && f.Check == finding.OutputSchema && strings.Contains(f.Message, "nested deeper than 64 levels")
			}) {
				t.Errorf("no finding about the deep outputSchema: %+v", found)
			}
		})
	}
}

// A call answer nested too deep is passed on cut, and its output schema
// verdict says it was not checked.
func TestCutAnswerIsUnchecked(t *testing.T) {
	t.Parallel()
	tp := newTap(record.NewLog(nil))
	tp.frame(record.Send, []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{}}`))
	_, w := withWatcher(context.Background())
	tp.watch("7", w)
	deep := `{"jsonrpc":"2.0","id":7,"result":{"structuredContent":` + strings.Repeat(`[`, 300) + strings.Repeat(`]`, 300) + `}}`
	fwd, ok := tp.receive([]byte(deep))
	if !ok || checks.Depth(fwd) > maxFrameDepth || !json.Valid(fwd) {
		t.Fatalf("passed on %v, %d deep", ok, checks.Depth(fwd))
	}
	if !w.wasCut() {
		t.Error("the watcher was not told the answer was cut")
	}
}
