package session

import (
	"strings"
	"testing"
)

func TestRedactorNeverRescansPlaceholders(t *testing.T) {
	target := Target{URL: "http://user:hunter22@127.0.0.1:9/mcp?token=abcd1234", Headers: []string{"X-Key: info"}}
	red := target.Secrets()
	desc := target.Describe()
	if strings.Contains(desc.URL, "hunter22") || strings.Contains(desc.URL, "abcd1234") || strings.Count(desc.URL, "[REDACTED:") != 2 {
		t.Errorf("URL = %s", desc.URL)
	}
	got := string(red.JSON([]byte(`{"text":"user hunter22 got token abcd1234, userinfo stays"}`)))
	if strings.Contains(got, "hunter22") || strings.Contains(got, "abcd1234") {
		t.Errorf("secret left: %s", got)
	}
	if !strings.Contains(got, "user hunter") && !strings.Contains(got, "user [REDACTED:") {
		t.Errorf("the user name was changed: %s", got)
	}
	// The secret "info" must not reach into the placeholder of the URL's
	// userinfo, which the record's header holds.
	if again := red.String(desc.URL); again != desc.URL {
		t.Errorf("a placeholder was redacted again:\n%s\n%s", desc.URL, again)
	}
	esc := string(red.JSON([]byte(`{"q":"quote \"hunter22\" here"}`)))
	if strings.Contains(esc, "hunter22") {
		t.Errorf("escaped secret left: %s", esc)
	}
	if got := red.JSON([]byte(`{"a":"info"}`)); strings.Contains(string(got), `"info"`) {
		t.Errorf("a header value was not scrubbed: %s", got)
	}
}
