package session

import (
	"bytes"
	"context"
	"encoding/json"
	"mcpwitness/internal/oauthtest"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"mcpwitness/demo"
	"mcpwitness/paging"
	"mcpwitness/record"
)

// authServer serves the demo server behind OAuth on 127.0.0.1, with the
// authorization server's metadata passed through edit, and returns its
// MCP endpoint.
func authServer(t *testing.T, edit func(meta map[string]any)) string {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	base := "http://" + srv.Listener.Addr().String()
	h := demo.AuthHandler(nil, base)
	srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/.well-known/oauth-authorization-server" {
			h.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		var meta map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &meta); err != nil {
			t.Errorf("the demo's metadata: %v", err)
		}
		edit(meta)
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(meta)
	})
	srv.Start()
	t.Cleanup(srv.Close)
	return base + demo.Endpoint
}

func TestOAuthOpensNoHostileAuthorizationEndpoint(t *testing.T) {
	argv := oauthtest.RecordingBrowser(t)
	for _, endpoint := range []string{"file://localhost/etc/passwd", "smb://localhost/share", "vscode://localhost/x"} {
		url := authServer(t, func(meta map[string]any) { meta["authorization_endpoint"] = endpoint })
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		var notice bytes.Buffer
		s, err := Dial(ctx, Target{URL: url, Notice: &notice}, &Options{Timeout: 10 * time.Second})
		cancel()
		if err == nil {
			s.Close()
			t.Fatalf("%s: Dial succeeded", endpoint)
		}
		if !strings.Contains(err.Error(), "refusing to open") {
			t.Errorf("%s: error %q does not say the URL was refused", endpoint, err)
		}
		if scheme, _, _ := strings.Cut(endpoint, "://"); !strings.Contains(err.Error(), `scheme "`+scheme+`" is not https`) {
			t.Errorf("%s: error %q does not name the scheme", endpoint, err)
		}
		if strings.Contains(notice.String(), "open this URL") {
			t.Errorf("%s: the notice offers the URL: %q", endpoint, notice.String())
		}
	}
	if b, err := os.ReadFile(argv); err == nil {
		t.Errorf("the browser was run with %q", b)
	}
}

func TestOAuthNoAuthBrowserLeavesTheURLToTheCaller(t *testing.T) {
	argv := oauthtest.RecordingBrowser(t)
	url, _ := authDemo(t)
	log := record.NewLog(&record.LogOptions{History: true})
	urls := make(chan string, 4)
	log.AddSink(func(ev record.Event) {
		if ev.Kind == record.KindAuth && ev.Auth.Step == record.AuthOpen {
			select {
			case urls <- ev.Auth.URL:
			default:
			}
		}
	})
	// The caller (the UI, on o) follows the URL the event shows.
	go func() {
		resp, err := http.Get(<-urls)
		if err == nil {
			resp.Body.Close()
		}
	}()
	s := dial(t, Target{URL: url, NoAuthBrowser: true}, &Options{Log: log})
	if _, res := s.Walk(context.Background(), paging.Tools()); res.Err != nil {
		t.Fatalf("walk after OAuth: %v", res.Err)
	}
	if b, err := os.ReadFile(argv); err == nil {
		t.Errorf("the browser was run with %q", b)
	}
	for _, ev := range log.Events() {
		if ev.Kind == record.KindAuth && ev.Auth.Step == record.AuthOpen && ev.Auth.Opened != "" {
			t.Errorf("the open event says it was opened with %q", ev.Auth.Opened)
		}
	}
}
