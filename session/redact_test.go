package session

import (
	"encoding/json"
	"fmt"
	"mcpwitness/record"
	"strings"
	"sync"
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

func TestRedactorMasksStringContentsOnly(t *testing.T) {
	t.Parallel()
	red := record.NewRedactor(nil)
	tok := red.Add("GITHUB_TOKEN", "ghp_0123456789abcdefghijABCDEFGHIJ012345")
	red.Add("SLASHED", "a/b/c/d")
	red.Add("FLAG", "true")
	for in, want := range map[string]string{
		`{"v":true,"s":"true"}`: `{"v":true,"s":"` + record.Placeholder("FLAG", "true") + `"}`,
		`{"t":"\u0067hp_0123456789abcdefghijABCDEFGHIJ012345 ok"}`: `{"t":"` + tok + ` ok"}`,
		`["x\u0067hp_0123456789abcdefghijABCDEFGHIJ012345\n"]`:     `["x` + tok + `\n"]`,
		`{"p":"a\/b\/c\/d"}`:            `{"p":"` + record.Placeholder("SLASHED", "a/b/c/d") + `"}`,
		`{"n":1234,"b":false,"z":null}`: `{"n":1234,"b":false,"z":null}`,
	} {
		got := string(red.JSON([]byte(in)))
		if got != want {
			t.Errorf("JSON(%s) =\n %s, want\n %s", in, got, want)
		}
		if !json.Valid([]byte(got)) {
			t.Errorf("JSON(%s) is not valid JSON: %s", in, got)
		}
	}
	red.Add("WIN_PATH", `C:\new\token`)
	if got := red.String(`open C:\new\token failed`); strings.Contains(got, `new`) {
		t.Errorf("a secret holding backslashes was left in free text: %s", got)
	}
	if got := red.String(`echo "\u0067hp_0123456789abcdefghijABCDEFGHIJ012345" a\/b\/c\/d`); strings.Contains(got, "0123456789abcdef") || strings.Contains(got, `a\/b`) {
		t.Errorf("an escaped secret was left in free text: %s", got)
	}
}

func TestRedactorConcurrentUse(t *testing.T) {
	t.Parallel()
	red := record.NewRedactor(nil)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for j := range 50 {
				red.Add("TOKEN", fmt.Sprintf("secret-%d-%d", i, j))
			}
		}()
		go func() {
			defer wg.Done()
			for range 50 {
				_ = red.JSON([]byte(`{"a":"secret-1-1 secret-2-2"}`))
				_ = red.String("secret-3-3")
			}
		}()
	}
	other := record.NewRedactor(nil)
	other.Add("K", "merged-secret")
	wg.Add(1)
	go func() { defer wg.Done(); red.Merge(other) }()
	wg.Wait()
	if got := red.String("secret-7-49 merged-secret"); strings.Contains(got, "secret-7-49") || strings.Contains(got, "merged-secret") {
		t.Errorf("a secret added concurrently was left: %s", got)
	}
	if red.Len() != 8*50+1 {
		t.Errorf("Len = %d, want %d", red.Len(), 8*50+1)
	}
}
