package session

import (
	"context"
	"encoding/json"
	"mcpwitness/record"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"mcpwitness/session/oauth"
)

// A header value a server echoes that holds one of the target's secrets
// reaches the http event redacted, as the rest of the record is.
func TestHTTPEvidenceRedactsEchoedSecrets(t *testing.T) {
	t.Parallel()
	const token = "tok-SECRET-4711"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token", error_description="`+token+` has expired"`)
		w.Header().Set("Retry-After", "7")
		w.Header().Set("Mcp-Session-Id", "echo-"+token)
		http.Error(w, "unauthorized", http.StatusUnauthorized)
	}))
	t.Cleanup(srv.Close)
	log := record.NewLog(&record.LogOptions{History: true})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := Dial(ctx, Target{URL: srv.URL, Headers: []string{"Authorization: Bearer " + token}, OAuth: oauth.Off}, &Options{Log: log, Timeout: 10 * time.Second})
	if err == nil {
		t.Fatal("the dial succeeded against a 401")
	}
	var ex *record.HTTPInfo
	for _, ev := range log.Events() {
		if ev.Kind == record.KindHTTP && ev.HTTP.Step == record.HTTPExchange {
			ex = ev.HTTP
		}
		b, _ := json.Marshal(ev)
		if strings.Contains(string(b), token) {
			t.Errorf("an event holds the token: %s", b)
		}
	}
	if ex == nil {
		t.Fatal("no exchange event")
	}
	if ex.Status != http.StatusUnauthorized || ex.RetryAfter != "7" || !strings.Contains(ex.WWWAuthenticate, "[REDACTED:Authorization:") ||
		!strings.HasPrefix(ex.SessionID, "echo-[REDACTED:") || ex.RequestID == "" {
		t.Errorf("exchange %+v", ex)
	}
}
