package record

import (
	"slices"
	"testing"
)

func TestSecretParts(t *testing.T) {
	t.Parallel()
	const (
		ghp = "ghp_0123456789abcdefghijABCDEFGHIJ012345"
		jwt = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl"
	)
	for _, c := range []struct {
		name, value string
		marked      bool
		want        []string
	}{
		{"X", "true", false, nil},
		{"DEBUG", "true", false, nil},
		{"LOG_LEVEL", "info", false, nil},
		{"NODE_ENV", "production", false, nil},
		{"X-Client", "mcpwitness", false, nil},
		{"AZURE_MCP_COLLECT_TELEMETRY", "false", false, nil},
		{"MYFLAG", "tool", false, nil},
		{"GITHUB_TOKEN", "abc", false, []string{"abc"}},
		{"Authorization", "Bearer tok-123", false, []string{"Bearer tok-123", "tok-123"}},
		{"Cookie", "a=b", false, []string{"a=b"}},
		{"X-Api-Key", "k1k2", false, []string{"k1k2"}},
		{"db_PASSWD", "pw", false, []string{"pw"}},
		{"SESSION_ID", "s1", false, []string{"s1"}},
		{"FOO", ghp, false, []string{ghp}},
		{"FOO", "plain", true, []string{"plain"}},
		{"DATABASE_URL", "postgres://u:p@h/db", false, []string{"u:p", "p"}},
		{"HOOK", "https://h/x?token=t0k3n&page=2", false, []string{"t0k3n"}},
		{"OPENAPI_MCP_HEADERS", `{"Authorization": "Bearer ntn_0123456789abcdefghij"}`, false,
			[]string{"ntn_0123456789abcdefghij", "ntn_0123456789abcdefghij", "Bearer ntn_0123456789abcdefghij", "ntn_0123456789abcdefghij", "ntn_0123456789abcdefghij"}},
		{"AWS", "AKIAIOSFODNN7EXAMPLE", false, []string{"AKIAIOSFODNN7EXAMPLE"}},
		{"OPENAI", "sk-proj0123456789abcdefXYZ", false, []string{"sk-proj0123456789abcdefXYZ"}},
		{"SLACK", "xoxb-1234-5678-abcdefghijkl", false, []string{"xoxb-1234-5678-abcdefghijkl"}},
		{"GL", "glpat-abcdefghij0123456789", false, []string{"glpat-abcdefghij0123456789"}},
		{"ID", jwt, false, []string{jwt}},
		{"NOTJWT", "eyJub3QganNvbg.eyJ4.y", false, nil},
		{"TASK", "task-force-alpha-bravo-charlie", false, nil},
		{"URL", "https://example.com/path", false, nil},
	} {
		got := SecretParts(c.name, c.value, c.marked)
		slices.Sort(got)
		want := slices.Clone(c.want)
		slices.Sort(want)
		if !slices.Equal(slices.Compact(got), slices.Compact(want)) {
			t.Errorf("SecretParts(%q, %q, %v) = %q, want %q", c.name, c.value, c.marked, got, want)
		}
	}
}
