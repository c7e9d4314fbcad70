package session

import (
	"context"
	"mcpwitness/record"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"mcpwitness/session/oauth"
)

func TestInternalAddr(t *testing.T) {
	t.Parallel()
	tests := []struct {
		ip       string
		internal bool
	}{
		{"127.0.0.1", true}, {"127.8.9.10", true}, {"::1", true},
		{"10.0.0.1", true}, {"172.16.0.1", true}, {"172.31.255.255", true}, {"192.168.1.1", true},
		{"fc00::1", true}, {"fd12:3456::1", true},
		{"169.254.169.254", true}, {"fe80::1", true},
		{"0.0.0.0", true}, {"::", true}, {"100.64.0.1", true}, {"224.0.0.1", true},
		{"::ffff:10.0.0.1", true}, {"::ffff:127.0.0.1", true},
		{"8.8.8.8", false}, {"1.1.1.1", false}, {"172.32.0.1", false}, {"100.128.0.1", false},
		{"2001:4860:4860::8888", false},
	}
	for _, tc := range tests {
		if got := internalAddr(netip.MustParseAddr(tc.ip)); got != tc.internal {
			t.Errorf("internalAddr(%s) = %v, want %v", tc.ip, got, tc.internal)
		}
	}
}

// asRemote is the address policy of a test whose target, listening at
// target on 127.0.0.1, stands for a server on the internet: its own
// address counts as public, every other one as [internalAddr] says.
func asRemote(t *testing.T, target string) func(netip.AddrPort) bool {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	own := netip.MustParseAddrPort(u.Host)
	return func(ap netip.AddrPort) bool {
		return ap != own && internalAddr(ap.Addr())
	}
}

// counter is a server on loopback that counts the requests it gets.
func counter(t *testing.T) (string, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		http.NotFound(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, &n
}

// dialFails dials target and returns the error it must fail with.
func dialFails(t *testing.T, target Target, opts *Options) (*record.Log, error) {
	t.Helper()
	opts.Log = record.NewLog(&record.LogOptions{History: true})
	opts.Timeout = 10 * time.Second
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := Dial(ctx, target, opts)
	if err == nil {
		s.Close()
		t.Fatal("Dial succeeded")
	}
	return opts.Log, err
}

// A remote server's OAuth metadata naming a loopback URL (here by the host
// name localhost) is not fetched.
func TestOAuthMetadataOnLoopbackRefusedForRemoteTarget(t *testing.T) {
	t.Parallel()
	inside, got := counter(t)
	port := strings.TrimPrefix(inside, "http://127.0.0.1:")
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="http://localhost:`+port+`/.well-known/oauth-protected-resource"`)
		w.WriteHeader(http.StatusUnauthorized)
	}))
	t.Cleanup(target.Close)
	log, _ := dialFails(t, Target{URL: target.URL, OAuth: oauth.ClientCredentials, ClientID: "c", ClientSecret: "s"},
		&Options{internal: asRemote(t, target.URL)})
	if n := got.Load(); n > 0 {
		t.Errorf("the loopback server got %d requests", n)
	}
	if !logSays(log, record.KindAuth, "refused to connect to localhost:"+port) {
		t.Errorf("no OAuth event says the metadata request was refused")
	}
}

// A remote server's redirect into loopback is not followed.
func TestRedirectIntoLoopbackRefusedForRemoteTarget(t *testing.T) {
	t.Parallel()
	inside, got := counter(t)
	target := redirector(t, inside)
	_, err := dialFails(t, Target{URL: target, OAuth: oauth.Off}, &Options{internal: asRemote(t, target)})
	if n := got.Load(); n > 0 {
		t.Errorf("the loopback server got %d requests", n)
	}
	if !strings.Contains(err.Error(), "refused to connect to "+strings.TrimPrefix(inside, "http://")) {
		t.Errorf("error %q does not say the redirect was refused", err)
	}
}

// logSays reports whether an event of kind in log holds text.
func logSays(log *record.Log, kind record.Kind, text string) bool {
	for _, ev := range log.Events() {
		if ev.Kind == kind && strings.Contains(ev.Text, text) {
			return true
		}
	}
	return false
}
