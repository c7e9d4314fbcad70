package session

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"mcpwitness/demo"
	"mcpwitness/paging"
	"mcpwitness/record"

	"mcpwitness/session/oauth"
)

// An OAuth access token a server echoes is masked in the events and the
// record made with the registry the session shares: it was added the
// moment it was obtained.
func TestOAuthTokenEchoedIsMasked(t *testing.T) {
	t.Parallel()
	url, sent := authDemo(t)
	red := record.NewRedactor(nil)
	log := record.NewLog(&record.LogOptions{History: true})
	target := Target{URL: url, OAuth: oauth.ClientCredentials, ClientID: demo.DemoClientID, ClientSecret: demo.DemoClientSecret}
	var rec bytes.Buffer
	r, err := record.NewRecorder(&rec, record.NewHeader("mcpwitness", target.Describe()), red)
	if err != nil {
		t.Fatal(err)
	}
	log.AddSink(r.Write)
	s := dial(t, target, &Options{Log: log, Secrets: red})
	if _, res := s.Walk(context.Background(), paging.Tools()); res.Err != nil {
		t.Fatal(res.Err)
	}
	tokens := sent()
	if len(tokens) == 0 {
		t.Fatal("no token was sent")
	}
	args, _ := json.Marshal(map[string]any{"message": "my token is " + tokens[0]})
	c := s.Call(context.Background(), "echo", args, nil)
	if !bytes.Contains(c.Result, []byte(tokens[0])) {
		t.Fatalf("the server did not echo the token: %s", c.Result)
	}
	s.Close()
	assertNoTokens(t, log, tokens...)
	for _, tok := range tokens {
		if strings.Contains(rec.String(), tok) {
			t.Errorf("the record holds the access token")
		}
	}
	if !strings.Contains(rec.String(), "[REDACTED:access_token:") {
		t.Error("the record shows no placeholder for the token")
	}
	for i, line := range bytes.Split(bytes.TrimSpace(rec.Bytes()), []byte("\n")) {
		if !json.Valid(line) {
			t.Fatalf("line %d of the record is not JSON: %s", i+1, line)
		}
	}
}

// A log masks every event before its sinks and subscribers see it, escaped
// echoes included, and keeps the raw frame's size.
func TestLogMasksEscapedEchoes(t *testing.T) {
	t.Parallel()
	red := record.NewRedactor(nil)
	ph := red.Add("GITHUB_TOKEN", "ghp_0123456789abcdefghijABCDEFGHIJ012345")
	slashed := red.Add("HOOK_TOKEN", "https://hooks.example/abc")
	log := record.NewLog(&record.LogOptions{History: true})
	log.MaskWith(red)
	var seen []record.Event
	log.AddSink(func(ev record.Event) { seen = append(seen, ev) })
	sub := log.Subscribe()
	defer sub.Close()
	frame := []byte(`{"jsonrpc":"2.0","id":1,"result":{"text":"\u0067hp_0123456789abcdefghijABCDEFGHIJ012345","url":"https:\/\/hooks.example\/abc","ok":true}}`)
	log.Append(record.Event{Kind: record.KindWire, Dir: record.Recv, Frame: frame, Size: len(frame), Text: `said "\u0067hp_0123456789abcdefghijABCDEFGHIJ012345"`})
	got := <-sub.C()
	for _, ev := range []record.Event{seen[0], got, log.Events()[0]} {
		if !json.Valid(ev.Frame) || !bytes.Contains(ev.Frame, []byte(ph)) || !bytes.Contains(ev.Frame, []byte(slashed)) || !bytes.Contains(ev.Frame, []byte(`"ok":true`)) {
			t.Errorf("frame not masked as JSON: %s", ev.Frame)
		}
		if strings.Contains(ev.Text, "0123456789abcdef") {
			t.Errorf("text not masked: %s", ev.Text)
		}
		if ev.Size != len(frame) {
			t.Errorf("size %d, want the raw frame's %d", ev.Size, len(frame))
		}
	}
}

// What --header-cmd vends is a secret from the moment it is read, and so
// is the Basic credential net/http makes of a URL's userinfo.
func TestDerivedCredentialsAreRegistered(t *testing.T) {
	red := record.NewRedactor(nil)
	req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:1/mcp", nil)
	h, err := vendHeaders(context.Background(), `echo "X-Signature: sig-vended-41c2"; echo "Authorization: Bearer tok-vended-93ab"`, req, []byte("{}"), "http://127.0.0.1:1/mcp", 10*time.Second, red)
	if err != nil {
		t.Fatal(err)
	}
	if h.Get("X-Signature") != "sig-vended-41c2" {
		t.Fatalf("vended %v", h)
	}
	got := red.String("echoed sig-vended-41c2 and tok-vended-93ab")
	if strings.Contains(got, "vended") {
		t.Errorf("a vended value is not masked: %s", got)
	}
	basic := base64.StdEncoding.EncodeToString([]byte("alice:pass-7d2e"))
	url := Target{URL: "http://alice:pass-7d2e@127.0.0.1:1/mcp"}.Secrets()
	if got := url.String("Authorization: Basic " + basic); strings.Contains(got, basic) {
		t.Errorf("the Basic credential of the userinfo is not masked: %s", got)
	}
}
