package oauth

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"mcpwitness/record"
)

// tokenSequence hands out its tokens in turn, as a refreshing source does.
type tokenSequence struct {
	mu     sync.Mutex
	tokens []*oauth2.Token
}

func (s *tokenSequence) Token() (*oauth2.Token, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	tok := s.tokens[0]
	if len(s.tokens) > 1 {
		s.tokens = s.tokens[1:]
	}
	return tok, nil
}

func TestOAuthRefreshIsAnEvent(t *testing.T) {
	t.Parallel()
	log := record.NewLog(&record.LogOptions{History: true})
	o := &Handler{log: log, lastToken: "first-secret-token"}
	first := &oauth2.Token{AccessToken: "first-secret-token", TokenType: "Bearer"}
	second := (&oauth2.Token{AccessToken: "second-secret-token", TokenType: "Bearer", Expiry: time.Now().Add(time.Hour)}).
		WithExtra(map[string]any{"scope": "mcp:tools"})
	w := &watchedTokens{o: o, ts: &tokenSequence{tokens: []*oauth2.Token{first, first, second, second}}}
	for range 4 {
		if _, err := w.Token(); err != nil {
			t.Fatal(err)
		}
	}
	var refreshes []*record.AuthInfo
	for _, ev := range log.Events() {
		if ev.Kind == record.KindAuth && ev.Auth.Step == record.AuthRefresh {
			refreshes = append(refreshes, ev.Auth)
		}
	}
	if len(refreshes) != 1 || refreshes[0].TokenType != "Bearer" || refreshes[0].Expires == "" || !slices.Equal(refreshes[0].Scopes, []string{"mcp:tools"}) {
		t.Fatalf("refresh events %+v: want one, with type, expiry and scopes", refreshes)
	}
	assertNoTokens(t, log, "first-secret-token", "second-secret-token")
}

// assertNoTokens fails when any event of log holds one of secrets (there
// must be some: a test that saw no token proves nothing).
func assertNoTokens(t *testing.T, log *record.Log, secrets ...string) {
	t.Helper()
	var all bytes.Buffer
	for _, ev := range log.Events() {
		b, _ := json.Marshal(ev)
		all.Write(b)
		all.WriteByte('\n')
	}
	if len(secrets) == 0 {
		t.Fatal("no token was sent to check for")
	}
	for _, word := range secrets {
		if strings.Contains(all.String(), word) {
			t.Errorf("the events hold the secret %q", word)
		}
	}
}
